"""``casebook ask POSITION why ACTION`` of a position at a Reaction step whose decider has nothing
legal but pass: play passes that step (0.7.3.4, 0.7.3.5), and ``why`` used to answer about the
step play reached next (the German Command Step). It answers about the step asked: only a pass
is legal there, then the refusal of ACTION in that step with its cases and rule lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli

ROOT = Path(__file__).resolve().parents[3]
LINE48 = {"source": "initiative.rules:48", "cases": ["2.4A"],
          "text": 'table ip_costs[action: "reaction"].ip  by 2.4A  when ip_use is reaction'}
# the Initiative Point Chart row line 48 looks up, listed after it as ``ask`` lists a cell (session 16)
ROW15 = {"source": "tables/ip_costs.yaml:15", "cases": ["2.4A", "2.2B"],
         "text": '- {action: "reaction", side: "both", ip: 1, per: "stack, for a reaction move or a reaction attack, '
                 'paid separately", provenance: "reconstructed: 2.4A gives no cost; taken as the 1 IP of 2.2B '
                 '(interpretation reaction-cost)"}'}


def _why(tmp_path: Path, step: str, action: str) -> dict:
    """docs/examples/attack.yaml at ``step`` of the German player phase, the Soviets with no IP."""
    text = (ROOT / "docs" / "examples" / "attack.yaml").read_text(encoding="utf-8")
    edited = text.replace("step: combat\n", f"step: {step}\n").replace("soviet: 6}", "soviet: 0}")
    assert edited.count(f"step: {step}\n") == 1 and "soviet: 0}" in edited
    (tmp_path / "pos.yaml").write_text(edited, encoding="utf-8")
    run = CliRunner().invoke(cli, ["ask", str(tmp_path / "pos.yaml"), "why", action, "--json"])
    assert run.exit_code == 0, run.output
    return json.loads(run.output)


@pytest.mark.case("0.7.3.5A", "2.4A")
def test_0_7_3_5A_why_at_a_reaction_attacks_step_with_no_ip_answers_about_that_step(tmp_path):
    got = _why(tmp_path, "reaction_attacks", "attack hex=0303 with=s1 support=0")
    assert (got["turn"], got["phase"], got["step"], got["deciding"], got["legal"]) == (
        3, "first_player", "reaction_attacks", "soviet", False)
    assert got["action"] == "soviet: attack hex=0303 support=0 with=s1"
    assert got["reason"] == ("soviet has no legal action in the reaction_attacks step but pass: play passes it; "
                             "soviet has 0 IPs, the attack needs 1")
    assert got["cases"] == ["0.7.3.5", "2.4A", "0.7.3.5A"] and got["lines"] == [LINE48, ROW15]


@pytest.mark.case("0.7.3.4A", "2.4A")
def test_0_7_3_4A_why_at_a_reaction_movement_step_with_no_ip_answers_about_that_step(tmp_path):
    got = _why(tmp_path, "reaction_movement", "react stack=0304")
    assert (got["step"], got["deciding"], got["legal"]) == ("reaction_movement", "soviet", False)
    assert got["reason"] == ("soviet has no legal action in the reaction_movement step but pass: play passes it; "
                             "a reaction activation costs 1 IP, 0 left")
    assert got["cases"] == ["0.7.3.4", "2.4A", "9.4C"] and got["lines"] == [LINE48, ROW15]
    passing = _why(tmp_path, "reaction_movement", "pass")
    assert (passing["step"], passing["action"], passing["legal"]) == ("reaction_movement", "soviet: pass", True)
