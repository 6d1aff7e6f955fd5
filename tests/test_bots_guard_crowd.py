"""The greedy German bot's guard of Smolensk (issue #16, session 14; 18.1.3D: a Soviet combat unit
entering Smolensk wins at once). October Blitz, greedy Germans against the Soviet planner, seed 6
(session 13 lost Smolensk on Turn 2 there; positions written by replaying that game's trace): on
Turn 1 a Soviet attack on 1408 (the 197th Infantry Division and VII Corps' HQ) gave a retreat the
greedy bot took into Smolensk (1308), overstacking it with the 403rd Security Division (6.0A, 6.2B);
on Turn 2 it activated other HQs, never the stack in Smolensk, and the overstack's fatigue at the end
of each Movement Step (6.2E) eliminated both: a Soviet attack on the HQ left alone took the hex."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.content.position import load_position, position_to_dict
from casebook.core.game import Game
from casebook.tools.bots import make_bot
from casebook.tools.bots_guard import crowded_guards, crowds

POSITIONS = Path(__file__).parent / "positions"
SMOLENSK = "1308"


@pytest.fixture(scope="module")
def blitz():
    return Game.load("moscow41", "october-blitz")


def _load(game, name):
    return game.state_from_dict(position_to_dict(load_position(POSITIONS / name, pack=game.engine.pack)))


@pytest.mark.case("6.2F")
def test_6_2F_the_greedy_germans_retreat_past_smolensk_not_into_it(blitz):
    state = _load(blitz, "blitz-gp-seed6-turn1-retreat-smolensk.yaml")
    assert (state.data.turn, state.data.step, state.current_player()) == (1, "combat", "german")
    paths = {(a.get("path") or ("",))[-1]: a for a in state.legal_actions() if a.kind == "retreat"}
    assert crowds(state, paths[SMOLENSK]) == SMOLENSK and crowds(state, paths["1309"]) is None
    choice = make_bot("greedy", "german", 6).choose(state)
    assert choice.kind == "retreat" and (choice.get("path") or ("",))[-1] == "1309"


@pytest.mark.case("6.2F")
def test_6_2F_the_greedy_germans_wake_the_overstacked_smolensk_stack_first(blitz):
    state = _load(blitz, "blitz-gp-seed6-turn2-command-smolensk.yaml")
    assert (state.data.turn, state.data.step, state.current_player()) == (2, "command", "german")
    assert crowded_guards(state, "german") == {SMOLENSK}
    choice = make_bot("greedy", "german", 6).choose(state)
    woken = choice.get("stacks") or (choice.get("stack"),)
    assert choice.kind in ("activate-hq", "activate-stack") and SMOLENSK in woken
