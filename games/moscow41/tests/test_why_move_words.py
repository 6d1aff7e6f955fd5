"""``ask … why`` about a move says where it went wrong as play does (session 17, a fresh user's
report): a move typed in the Command Step names the steps a move is made in (0.7.3.2, 0.7.3.4,
0.7.3.7), as an attack names its own; a path listing the stack's own hex first says to list only
the hexes entered (9.0A)."""

from __future__ import annotations

import pytest

from games.moscow41.tests.test_answer_cases_lines16 import EXAMPLES, ask
from games.moscow41.tests.test_cookbook import ROOT

BLITZ = ROOT / "games" / "moscow41" / "scenarios" / "october-blitz.yaml"


@pytest.mark.case("0.7.3.2", "0.7.3.4", "0.7.3.7", "0.7.3.1")
def test_0_7_3_2_a_move_in_the_command_step_names_the_steps_it_is_made_in():
    got = ask(BLITZ, "why", "move stack=2212 path=2312")
    assert got["step"] == "command" and not got["legal"]
    assert got["reason"].startswith(
        "move is made in the movement step (Step 2: Movement, 0.7.3.2) or the reaction_movement step (Step 4: "
        "Reaction Movement, 0.7.3.4) or the unactivated_movement step (Step 7: Unactivated Movement, 0.7.3.7), "
        "not in the command step (0.7.3.1); ")
    assert got["cases"][:4] == ["0.7.3.2", "0.7.3.4", "0.7.3.7", "0.7.3.1"]


@pytest.mark.case("9.0A")
def test_9_0A_a_path_starting_with_the_stacks_own_hex_says_to_list_only_the_hexes_entered():
    got = ask(EXAMPLES / "reach-move.yaml", "why", "move stack=0202 path=0202,0203")
    assert (got["reason"], got["cases"]) == (
        "0202 is not adjacent to 0202: no hex can be skipped (list only the hexes entered, not the stack's own)",
        ["9.0A"])
