"""Helpers of the lint tests that edit a copy of a shipped pack (tests/test_lint_*.py): copy a
game's folder (and edit it: :func:`copy_edited`), replace one text in a file, find a line, lint
and expect errors."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

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
