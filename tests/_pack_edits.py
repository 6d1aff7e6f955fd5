"""Helpers of the tests that edit a copy of a shipped pack (tests/test_lint_*.py, the moved-rules
tests of games/moscow41/tests): copy a game's folder (and edit it: :func:`copy_edited`; and load
it: :func:`engine_edited`, :func:`rules_edited`), replace one text in a file, find a line, lint
and expect errors."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from casebook.script.engine import Engine, load_engine
from casebook.tools.cli import cli

GAMES = Path(__file__).resolve().parent.parent / "games"


def copy_pack(tmp_path: Path, game: str = "kestrel_pass") -> Path:
    """A copy of ``game``'s folder at ``tmp_path/my-game`` (its golden traces left out)."""
    pack = tmp_path / "my-game"
    shutil.copytree(GAMES / game, pack, ignore=shutil.ignore_patterns("golden", "__pycache__"))
    return pack


def copy_edited(root: Path, file: str | None = None, *edits: tuple[str, str], game: str = "moscow41") -> Path:
    """A copy of ``game``'s folder at ``root/GAME`` (its golden traces and tests left out) with
    each ``(old, new)`` of ``edits`` made in its ``file`` (``old`` must be there exactly once)."""
    pack = root / game
    shutil.copytree(GAMES / game, pack, ignore=shutil.ignore_patterns("golden", "tests", "__pycache__"))
    if file is not None:
        path = pack / file
        text = path.read_text(encoding="utf-8")
        for old, new in edits:
            assert text.count(old) == 1, old
            text = text.replace(old, new)
        path.write_text(text, encoding="utf-8")
    return pack


def engine_edited(root: Path, file: str, *edits: tuple[str, str], game: str = "moscow41") -> Engine:
    """Copy ``game``'s pack, edit its ``file`` (a config or rules file: :func:`copy_edited`), load it."""
    return load_engine(copy_edited(root, file, *edits, game=game))


def rules_edited(engine: Engine, root: Path, file: str, *edits: tuple[str, str], **extra: Any) -> Engine:
    """``engine`` (a shipped game's) with the rule scripts of a copy of its pack whose
    ``rules/<file>`` has ``edits`` made (:func:`copy_edited`): its pack, board and sequence are
    ``engine``'s; ``extra``: plugins registered after the manifest's (test fakes)."""
    from casebook.content.plugins import make_plugin_manager
    from casebook.script import compile_pack, find_rule_pack

    rules = compile_pack(find_rule_pack(copy_edited(root, f"rules/{file}", *edits, game=engine.pack.id)))
    pm = make_plugin_manager(engine.pack.manifest.get("plugins") or [], extra=extra) if extra else engine.pm
    return Engine(engine.pack, engine.board, rules, pm, engine.sequence)


def edit(path: Path, old: str, new: str) -> None:
    """Replace the first ``old`` in ``path`` by ``new`` (``old`` must be there)."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def line_of(path: Path, text: str) -> int:
    """The 1-based number of the first line of ``path`` holding ``text``."""
    return next(i for i, t in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in t)


def lint_errors(pack: Path) -> str:
    """``casebook lint PACK``'s output, which must be a failure (exit 1)."""
    out = CliRunner().invoke(cli, ["lint", str(pack)])
    assert out.exit_code == 1, out.output
    return out.output


def located_and_refused(pack: Path, expected: list[str], refusal: str) -> None:
    """``casebook lint PACK`` reports exactly the errors ``expected`` (each a whole output line,
    at least two), and ``Engine.load`` refuses the pack with an error matching ``refusal``."""
    import pytest

    from casebook.core.errors import ContentError

    out = lint_errors(pack).splitlines()
    for line in expected:
        assert line in out, (line, out)
    assert out[-1].endswith(f": {len(expected)} errors"), out[-1]
    with pytest.raises(ContentError, match=refusal):
        Engine.load(pack)


#: A test erratum (not the game's): the 1:1 column's modified roll 10 of Moscow '41's CRT reads -/R, not -/F1.
CRT_CELL_ERRATUM = """kind: errata
format: 1
provenance: "errata: 11.0B"
patches:
  - {case: "11.0B", file: tables/crt.yaml, path: [cells, "1:1", 10], set: "-/R"}
"""


def crt_cell_errata_pack(root: Path) -> Path:
    """A copy of Moscow '41 under ``root`` with :data:`CRT_CELL_ERRATUM` added as errata/crt-cell.yaml."""
    pack = copy_edited(root, "game.yaml", ("  - errata/0.2.3.1.yaml\n", "  - errata/0.2.3.1.yaml\n  - errata/crt-cell.yaml\n"))
    (pack / "errata" / "crt-cell.yaml").write_text(CRT_CELL_ERRATUM, encoding="utf-8")
    return pack

