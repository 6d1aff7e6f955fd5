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


def test_a_pack_copied_elsewhere_uses_the_installed_rules(tmp_path):
    shutil.copytree(ROOT / "games" / "moscow41", tmp_path / "m41", ignore=shutil.ignore_patterns("rules"))
    out = CliRunner().invoke(cli, ["rules", "check", str(tmp_path / "m41")])
    assert out.exit_code == 0, out.output
    assert "rule scripts compiled, no errors" in out.output


def test_provenance_fails_when_a_file_cannot_be_read(tmp_path):
    pack = _copy_game(tmp_path)
    counters = pack / "counters.yaml"
    counters.write_text(counters.read_text().replace("format: 1", "format: 1\nformat: 1", 1))
    out = CliRunner().invoke(cli, ["provenance", str(pack)])
    assert out.exit_code == 1
    assert "counters.yaml" in out.output and "duplicate" in out.output.lower()
