"""The core names no game (issue #14, item 2): no side, game, track, unit flag or map key of
Moscow '41 or Battle for Moscow anywhere in ``src/casebook/core`` or the content layer beside it
(``src/casebook/content``: loader, schemas, positions) — code, messages or docstring examples (a
game's names come from its vocabulary)."""

from __future__ import annotations

import re
from pathlib import Path

import casebook.content
import casebook.core

CORE = Path(casebook.core.__file__).parent
CONTENT = Path(casebook.content.__file__).parent
#: The names of the shipped games the core must not know (the issue's grep, case-insensitive).
GAME_NAMES = re.compile(r"german|soviet|moscow|partisan|hedgehog|guards|panzer", re.IGNORECASE)


def _hits(folder: Path) -> list[str]:
    return [f"{path.relative_to(folder.parent)}:{n}: {line.strip()}"
            for path in sorted(folder.rglob("*.py"))
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if GAME_NAMES.search(line)]


def test_the_core_source_names_no_game():
    assert len(list(CORE.rglob("*.py"))) > 10  # the core really is there
    assert _hits(CORE) == []


def test_the_content_layer_names_no_game():
    assert len(list(CONTENT.rglob("*.py"))) > 10
    assert _hits(CONTENT) == []


def test_the_check_finds_a_game_name(tmp_path):
    """The test above can fail: a core module naming a side is found, with its file and line."""
    fake = tmp_path / "core"
    fake.mkdir()
    (fake / "state.py").write_text('"""Sides."""\n\nSIDES = ("blue", "Soviet")\n', encoding="utf-8")
    assert _hits(fake) == ['core/state.py:3: SIDES = ("blue", "Soviet")']


#: A case id as code writes it: a quoted literal such as ``"0.7"``, ``"10.3A"`` or ``"0.7.1.1"``.
CASE_LITERAL = re.compile(r"""(?<![\w.])["'][0-9]+\.[0-9]+(\.[0-9]+)*[A-Z]?["']""")


def _case_literals(folder: Path) -> list[str]:
    """Lines of code (docstring examples between double backquotes are not code) quoting a case id."""
    return [f"{path.relative_to(folder.parent)}:{n}: {line.strip()}"
            for path in sorted(folder.rglob("*.py"))
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if CASE_LITERAL.search(line.replace("``", "\0").split("\0")[0] if "``" in line else line)]


def test_the_core_cites_no_case_of_any_game():
    """A case id is the game's: the core refuses an unreadable action with no case (it used to
    cite Moscow '41's 0.7, Sequence of Play, in every game)."""
    assert _case_literals(CORE) == []


def test_an_unreadable_action_is_refused_citing_no_case():
    from casebook.core.errors import IllegalActionError
    from casebook.core.game import Game

    state = Game.load("kestrel_pass", "meeting").new_initial_state(seed=1)
    assert state.why_not("??")[0] == ()
    try:
        state.apply("??")
    except IllegalActionError as exc:
        assert exc.cases == () and "not an action" in exc.reason
    else:
        raise AssertionError("an unreadable action was applied")


def test_the_case_literal_check_finds_one(tmp_path):
    fake = tmp_path / "core"
    fake.mkdir()
    (fake / "play.py").write_text('CASES = ("0.7",)\n"""e.g. ``["5.2A"]``"""\n', encoding="utf-8")
    assert _case_literals(fake) == ['core/play.py:1: CASES = ("0.7",)']
