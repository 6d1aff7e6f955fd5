"""The shared rules areas name no game (issue #14): ``src/casebook/areas`` holds no side, game,
unit flag or marker of Moscow '41 or Battle for Moscow in its code or messages — a game's names
come from its vocabulary and rule scripts. A docstring or comment may cite a game only as a
clearly marked example: the line says "for example" or "e.g."."""

from __future__ import annotations

import re
from pathlib import Path

import casebook.areas

AREAS = Path(casebook.areas.__file__).parent
#: The names of the shipped games the areas must not know (the issue's grep, case-insensitive).
GAME_NAMES = re.compile(r"german|soviet|moscow|partisan|hedgehog|guards|panzer", re.IGNORECASE)
EXAMPLE = re.compile(r"for example|e\.g\.", re.IGNORECASE)


def _hits(folder: Path) -> list[str]:
    return [f"{path.relative_to(folder.parent)}:{n}: {line.strip()}"
            for path in sorted(folder.rglob("*.py"))
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if GAME_NAMES.search(line) and not EXAMPLE.search(line)]


def test_the_shared_areas_name_no_game_but_in_marked_examples():
    assert len(list(AREAS.rglob("*.py"))) > 15  # the areas really are there
    assert _hits(AREAS) == []


def test_the_check_finds_a_game_name_outside_an_example(tmp_path):
    """The test above can fail: an area naming a side is found; a marked example is not."""
    fake = tmp_path / "areas"
    fake.mkdir()
    (fake / "zoc.py").write_text('"""ZOCs (for example Moscow \'41 7.0)."""\n\nSIDE = "soviet"\n', encoding="utf-8")
    assert _hits(fake) == ['areas/zoc.py:3: SIDE = "soviet"']


def _questions(game: str) -> dict[str, str]:
    from casebook.content.loader import find_pack
    from casebook.script.engine import load_engine
    from casebook.tools.cmd_ask import questions_of

    return questions_of(load_engine(find_pack(game)))


def test_ask_help_quotes_each_games_own_cases_and_options():
    """`ask --help` lists the zoc and attack questions with the loaded game's own cases: Moscow
    '41's 7.x and 10.x, Kestrel Pass's KP6/KP8 (no Moscow '41 case, no --support or --overrun in
    a game without IPs or overruns), Battle for Moscow's BM6/BM8."""
    m41, kp, bfm = _questions("moscow41"), _questions("kestrel_pass"), _questions("battle_for_moscow")
    assert "7.0A" in m41["zoc"] and "16.3A" in m41["zoc"] and "10.4.5C" in m41["attack"] and "10.1C" in m41["attack"]
    assert "[--support A,D] [--overrun]" in m41["attack"]
    assert kp["attack"] == ("attack HEX --with UNIT,UNIT… [--roll N] — odds, column, DRM terms and every outcome "
                            "of an attack (KP8.1, KP8.2A, KP8.2C, KP8.3, KP8.4, KP11.4)")
    assert kp["zoc"].endswith("(KP6.1, KP6.2, KP8.6B)")
    assert "BM8.1-BM8.5" in bfm["attack"] and "BM6.1" in bfm["zoc"]  # its own plugin restates them
    for usage in (*kp.values(), *bfm.values()):
        assert not re.search(r"\(\d|, \d|\b[0-9]+\.[0-9]", usage.split(" — ", 1)[-1]), usage
