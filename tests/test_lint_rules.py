"""Lint and provenance on broken copies: rule scripts are checked too, unreadable files fail."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from casebook.tools.cli import cli

ROOT = Path(__file__).resolve().parent.parent


def _copy_game(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "games" / "moscow41", tmp_path / "games" / "moscow41")  # with its rules/
    return tmp_path / "games" / "moscow41"


def test_lint_reports_rule_script_errors_with_their_position(tmp_path):
    pack = _copy_game(tmp_path)
    script = tmp_path / "games" / "moscow41" / "rules" / "combat.rules"
    text = script.read_text().replace("by 10.4.1A", "by 99.9Z", 1)
    script.write_text(text)
    line = next(i for i, text_line in enumerate(text.splitlines(), 1) if "99.9Z" in text_line)
    out = CliRunner().invoke(cli, ["lint", str(pack)])
    assert out.exit_code == 1
    assert f"combat.rules:{line}:" in out.output and "99.9Z" in out.output


def test_a_pack_copied_without_its_rules_reads_none_of_the_installed_game_s(tmp_path):
    """A pack only ever reads its own files (SECURITY.md): a copy of an installed game without
    ``rules/`` fails lint (one error, at ``plugins:``) and ``rules check`` lists no script of the
    installed game (it used to compile the installed game's rules silently)."""
    pack = tmp_path / "m41"
    shutil.copytree(ROOT / "games" / "moscow41", pack, ignore=shutil.ignore_patterns("rules", "golden"))
    out = CliRunner().invoke(cli, ["rules", "check", str(pack)])
    assert "0 rule scripts compiled" in out.output and str(ROOT) not in out.output
    lint = CliRunner().invoke(cli, ["lint", str(pack)])
    assert lint.exit_code == 1
    line = next(i for i, t in enumerate((pack / "game.yaml").read_text().splitlines(), 1) if t.startswith("plugins:"))
    assert f"game.yaml:{line}:1: plugins: the pack has no rule scripts (no rules/ folder" in lint.output
    assert lint.output.rstrip().endswith(": 1 error")


def test_provenance_fails_when_a_file_cannot_be_read(tmp_path):
    pack = _copy_game(tmp_path)
    counters = pack / "counters.yaml"
    counters.write_text(counters.read_text().replace("format: 1", "format: 1\nformat: 1", 1))
    out = CliRunner().invoke(cli, ["provenance", str(pack)])
    assert out.exit_code == 1
    assert "counters.yaml" in out.output and "duplicate" in out.output.lower()
