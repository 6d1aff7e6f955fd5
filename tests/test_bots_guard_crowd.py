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


SMOLENSK_LIKE = ("scenario: {id: test, name: Test, first_turn: 1, last_turn: 4, victory: {non_combat: [hq, remnant], "
                 'soviet: [{id: s, kind: enter, when: instant, hexes: ["0909"]}]}}')


def test_greedy_calls_stacks_that_can_bolster_a_short_guard_hex_and_counts_the_ring_it_closes(blitz):
    """A guard hex (0909, whose entry wins for the Soviets) held by a 4-point division, five of the six
    hexes next to it held, 50 Soviet points within reach (core need 10): waking a 6-point stack four
    hexes off (MA 4) is worth GUARD_BOLSTER per point it can bring (short_call), a stack 12 hexes off
    nothing; a move into the last open hex next to it counts the core's shortfall (the ring closes)."""
    from casebook.tools.bots_guard import GUARD_BOLSTER, GUARD_CALL, bolsters, core_need, exposed, short_call
    from tests._planner_positions import armor, inf
    from tests._planner_positions import state as position

    ring = ("0808", "0809", "0908", "1008", "1009")  # 0910 open
    units = (inf("german", "g0", "0909", 4, True) + "".join(inf("german", f"r{i}", h, 1, True) for i, h in enumerate(ring))
             + inf("german", "near", "0913", 6, True) + inf("german", "far", "0921", 6, True)
             + "".join(armor("soviet", f"s{i}", f"{i + 1:02d}01", 10) for i in range(5)))
    state = position(blitz, units, "movement", SMOLENSK_LIKE, size=24)
    assert exposed(state, "german", "0909") == 1 and core_need(state, "german", "0909") == pytest.approx(10.0)
    assert short_call(state, "german", ["0913"]) == pytest.approx(min(GUARD_CALL, GUARD_BOLSTER * 6))
    assert short_call(state, "german", ["0921"]) == 0.0
    assert short_call(state, "german", [None]) == 0.0  # an activation naming no stack (a reaction's pass)
    into = [a for a in state.legal_actions() if a.kind == "move" and a.get("stack") == "0913"
            and (a.get("path") or ("",))[-1] == "0910"]
    assert into and bolsters(state, into[0]) == pytest.approx(6.0)  # the core's 6 lacking, by closing the ring
