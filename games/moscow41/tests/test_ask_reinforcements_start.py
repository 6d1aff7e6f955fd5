"""12.2A: ``ask SCENARIO reinforcements`` of a scenario start answers as ``casebook play`` begins it
(session 15's fresh-user trial: it answered ``side: soviet`` and German RP ``infantry 0`` of the
October Blitz start, where play's first decider is German and holds 1 infantry RP after the first
turn start) — the state ``why`` and ``offer`` judge in (tools/ask_why.play_state)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli

BLITZ = Path(__file__).resolve().parents[1] / "scenarios" / "october-blitz.yaml"


def _ask(*args: str) -> str:
    result = CliRunner().invoke(cli, ["ask", str(BLITZ), "reinforcements", *args])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.case("12.2A")
def test_12_2A_ask_reinforcements_of_a_scenario_start_answers_as_play_begins_it():
    out = _ask()
    assert out.splitlines()[0] == "side: german"
    assert "rp: infantry 1, armor 0" in out
    assert "rp: infantry 1, armor 0" in _ask("german")
