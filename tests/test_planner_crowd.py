"""Guard hexes and overstacking (issue #16, session 14): neither bot retreats into an own guard hex it
would overstack while another path is open, both clear an overstacked guard hex first, and the
planner's view counts no remnant as a garrison or a ring (11.3D).

Session 13 read it from the October Blitz, planner against planner, seed 5: on Turn 3 a Soviet stack
attacked the 292nd Infantry Division in 1408, next to Smolensk (18.1.3D: a Soviet combat unit entering
Smolensk wins at once), at 3:1 (`-/2`); the planner retreated it through 1309 into Smolensk (1308),
overstacking the hex with the 403rd Security Division (6.2B lets a retreat do so only when no other
route is open, 6.2F), and the overstack's fatigue at the end of each German Movement Step (6.2E)
eliminated both on Turn 4: a Soviet stack walked in. The saved position (tests/positions/, written by
replaying that game's trace up to the German retreat decision) is the first test's."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.content.position import load_position, position_to_dict
from casebook.core.game import Game
from casebook.tools.bots import make_bot
from casebook.tools.bots_guard import GUARD_CROWD, crowded_guards, crowds, unstacks
from casebook.tools.planner import PlannerBot
from casebook.tools.planner_eval import Mover, build_view
from casebook.tools.planner_guard import guard_value
from tests._planner_positions import armor as _armor
from tests._planner_positions import inf as _inf
from tests._planner_positions import state as _state

RETREAT = Path(__file__).parent / "positions" / "blitz-seed5-turn3-retreat-smolensk.yaml"
SMOLENSK = "1308"


@pytest.fixture(scope="module")
def blitz():
    return Game.load("moscow41", "october-blitz")


def _end(action):
    return (action.get("path") or ("",))[-1]


@pytest.mark.case("6.2F")
@pytest.mark.parametrize("kind", ["planner", "greedy"])
def test_6_2F_no_retreat_into_an_overstacked_guard_hex_while_another_path_is_open(blitz, kind):
    state = blitz.state_from_dict(position_to_dict(load_position(RETREAT, pack=blitz.engine.pack)))
    assert (state.data.turn, state.data.step, state.current_player()) == (3, "combat", "german")
    retreats = [a for a in state.legal_actions() if a.kind == "retreat"]
    into = [a for a in retreats if _end(a) == SMOLENSK]
    assert into and all(crowds(state, a) == SMOLENSK for a in into)   # with the 403rd: overstacked (6.2B)
    assert any(a.get("path") and _end(a) != SMOLENSK for a in retreats)  # another path: 1308/1309 to 1208
    choice = make_bot(kind, "german", 5).choose(state)
    assert choice.kind == "retreat" and choice.get("path") and _end(choice) != SMOLENSK
    assert crowds(state, choice) is None


CAPITAL = ("scenario: {id: test, name: Test, first_turn: 1, last_turn: 4, victory: {non_combat: [hq, remnant], "
           'german: [{id: m, kind: enter, when: instant, hexes: ["0909"]}]}}')


def _remnant(uid: str, hex_: str) -> str:
    return f'  - {{id: {uid}, side: soviet, class: remnant, strength: 1, ma: 4, hex: "{hex_}", activated: true}}\n'


@pytest.mark.case("11.3D")
def test_11_3D_a_remnant_closes_no_ring_around_a_guard_hex_in_the_planners_view(blitz):
    """A guard hex (0909, whose entry wins for the Germans) held by a 4-point division, German armour
    within reach asking more than 4 in the hex itself while an attacker can stand next to it: a ring
    of remnants (no combat unit, 11.3D) counts as no ring — the guard terms are those of an empty
    ring; a ring of 1-point divisions closes it."""
    germans = "".join(_armor("german", f"g{i}", h, 10) for i, h in enumerate(("0901", "0902", "0903", "0904")))
    ring = ("0808", "0809", "0908", "0910", "1008", "1009")
    views = {}
    for name, units in (("remnants", "".join(_remnant(f"r{i}", h) for i, h in enumerate(ring))),
                        ("empty", ""), ("divisions", "".join(_inf("soviet", f"d{i}", h, 1, True)
                                                             for i, h in enumerate(ring)))):
        state = _state(blitz, _inf("soviet", "s1", "0909", 4, True) + units + germans, "movement", CAPITAL,
                       size=18, phasing="soviet")
        views[name] = build_view(state, "soviet", PlannerBot("soviet", 1).goals(state))
    view = views["remnants"]
    assert set(view.own) == {"0909"} and view.guard_core["0909"] > 4.0
    stay = [Mover("0909", 4.0, False, ("0909",))]
    value = {k: guard_value(v, stay, ["0909"], dict(v.own)) for k, v in views.items()}
    assert value["remnants"] == value["empty"] < value["divisions"]


SMOLENSK_LIKE = ("scenario: {id: test, name: Test, first_turn: 1, last_turn: 4, victory: {non_combat: [hq, remnant], "
                 'soviet: [{id: s, kind: enter, when: instant, hexes: ["0909"]}]}}')


def _crowded(blitz):
    """Two German infantry divisions on the guard hex 0909 (6.0A: one division plus one regiment,
    so overstacked, 6.2B), activated; a Soviet division 8 hexes off (within its reach)."""
    units = (_inf("german", "g1", "0909", 6, True) + _inf("german", "g2", "0909", 4, True)
             + _inf("soviet", "s1", "0901", 6))
    return _state(blitz, units, "movement", SMOLENSK_LIKE, size=18)


@pytest.mark.case("6.2F")
@pytest.mark.parametrize("kind", ["planner", "greedy"])
def test_6_2F_an_overstacked_guard_hex_is_cleared_first_keeping_a_garrison(blitz, kind):
    state = _crowded(blitz)
    assert crowded_guards(state, "german") == {"0909"}  # the game's stacking answer (6.0A, 6.2B)
    assert any(unstacks(state, a) for a in state.legal_actions())
    choice = make_bot(kind, "german", 1).choose(state)
    assert choice.kind == "move" and choice.get("stack") == "0909" and unstacks(state, choice)
    state.apply(choice)
    left = [u for u in state.data.units_at("0909") if u.get("side") == "german"]
    assert len(left) == 1 and crowded_guards(state, "german") == frozenset()


def test_the_crowded_retreat_costs_more_than_an_ordinary_overstack():
    assert GUARD_CROWD > 2.0  # the planner's ordinary overstack: 2 (planner.py _other)
