"""A table that will not read hides no rule-script error (README, "lint": only a failing
manifest, sequence or case index skips the scripts; anything else, every error at once). Session
17, a fresh user's report: a bad indent in ``tables/ip_costs.yaml:11`` and a misspelt fact in
``rules/initiative.rules:40`` — ``lint`` and ``rules check`` printed only the YAML error."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli

GAMES = Path(__file__).resolve().parents[1] / "games"


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    pack = tmp_path_factory.mktemp("broken") / "m41"
    shutil.copytree(GAMES / "moscow41", pack, ignore=shutil.ignore_patterns("golden", "tests", "__pycache__"))
    table = pack / "tables" / "ip_costs.yaml"
    lines = table.read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[10].startswith("  - {action: \"activate_hq\"")
    lines[10] = "   " + lines[10]  # a bad indent
    table.write_text("".join(lines), encoding="utf-8")
    script = pack / "rules" / "initiative.rules"
    lines = script.read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[39].rstrip().endswith("and supplied")
    lines[39] = lines[39].replace("and supplied", "and suplied")
    script.write_text("".join(lines), encoding="utf-8")
    return pack


@pytest.mark.parametrize("command", [["lint"], ["rules", "check"]])
def test_a_broken_table_and_a_misspelt_fact_are_both_reported(copy, command, monkeypatch):
    monkeypatch.chdir(copy.parent)
    r = CliRunner().invoke(cli, [*command, "m41"])
    assert r.exit_code == 1
    assert "m41/tables/ip_costs.yaml:12:3: YAML syntax error: while parsing a block mapping" in r.output
    assert "m41/rules/initiative.rules:40:105: ip_cost: unknown fact `suplied`; did you mean `supplied`?" in r.output
    assert "unknown table" not in r.output  # the broken table's id is still known (read from its text)
    assert r.output.rstrip().endswith("m41: 2 errors")
