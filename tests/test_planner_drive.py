"""The planning bot's drive (session 8–9): force marches, gaps, pockets, objectives out of reach,
the spearhead's activation and grabs, in small inline-map positions."""

from __future__ import annotations

import pytest

from casebook.core.game import Game
from casebook.tools.planner import PlannerBot
from casebook.tools.planner_eval import build_view
from tests._planner_positions import armor as _armor
from tests._planner_positions import hq as _hq
from tests._planner_positions import inf as _inf
from tests._planner_positions import state as _state


@pytest.fixture(scope="module")
def blitz():
    return Game.load("moscow41", "october-blitz")


# ------------------------------------------------------------------ exploitation, gaps, pockets (session 8)

FAR_TOWN = ("scenario: {id: test, name: Test, first_turn: 1, last_turn: 4, victory: {german: "
            '[{id: t, kind: control_count, when: end, hexes: ["1606"], at_least: 1}]}}')


@pytest.mark.case("9.6A")
def test_9_6A_a_free_panzer_stack_drives_its_full_MA_then_force_marches_on(blitz):
    # an activated armor division (MA 8) on open dry ground, no enemy within reach, the objective
    # 15 hexes east: it moves its full 8 MPs towards it, declares a force march (9.6A: a second
    # allotment), and goes on at once with the same stack
    units = _armor("german", "g1", "0106", 8) + _inf("soviet", "s1", "1616", 2)
    state = _state(blitz, units, "movement", FAR_TOWN, size=18)
    bot = PlannerBot("german", 1)
    view = build_view(state, "german", bot.goals(state))
    first = bot.choose(state)
    assert first.kind == "move" and first.get("stack") == "0106"
    end = first.get("path")[-1]
    assert view.distance("0106", end) == 8 and view.distance(end, "1606") == 7
    state.apply(first)
    march = bot.choose(state)
    assert str(march) == f"german: force-march stack={end}"
    state.apply(march)
    again = bot.choose(state)
    assert again.kind == "move" and again.get("stack") == end
    assert view.distance(again.get("path")[-1], "1606") < 7


def test_planner_attacks_the_hex_whose_fall_opens_a_gap(blitz):
    # two Soviet stacks of the same strength, each attackable at the same odds by one German
    # stack: s1 stands in a line (neighbours s0, s2 keep the hexes around it in their zone of
    # control), s3 alone at the line's end: clearing it opens the way
    units = (_inf("german", "g1", "0304", 6, True) + _inf("german", "g2", "0608", 6, True)
             + _inf("soviet", "s0", "0403", 4) + _inf("soviet", "s1", "0404", 2)
             + _inf("soviet", "s2", "0405", 4) + _inf("soviet", "s3", "0708", 2))
    state = _state(blitz, units, "combat", size=10)
    view = build_view(state, "german", PlannerBot("german", 1).goals(state))
    assert view.breach["0708"] > view.breach["0404"]
    legal = [str(a) for a in state.legal_actions()]
    assert "german: attack hex=0404 support=0 with=g1" in legal
    assert "german: attack hex=0708 support=0 with=g2" in legal
    assert str(PlannerBot("german", 1).choose(state)) == "german: attack hex=0708 support=0 with=g2"


@pytest.mark.case("11.2B")
def test_11_2B_a_defender_with_no_retreat_is_pocketed(blitz):
    # the Soviet stack in 0505: every neighbour held by a German stack or next to one -> no hex to
    # retreat into (11.2B: not into an EZOC unless a friendly unit is there); open one side: not
    from casebook.tools.planner_eval import pocketed
    ring = "".join(_inf("german", f"g{i}", h, 3, True) for i, h in enumerate(("0504", "0606", "0405")))
    state = _state(blitz, ring + _inf("soviet", "s1", "0505", 4), "combat", size=10)
    view = build_view(state, "german", PlannerBot("german", 1).goals(state))
    assert pocketed(view.own, view.enemy, view.neighbours, "0505")
    state = _state(blitz, ring.replace('"0606"', '"0707"') + _inf("soviet", "s1", "0505", 4), "combat", size=10)
    view = build_view(state, "german", PlannerBot("german", 1).goals(state))
    assert not pocketed(view.own, view.enemy, view.neighbours, "0505")


def test_an_objective_out_of_reach_in_the_turns_left_pulls_less(blitz):
    # MA 8 on turn 3 of 4: a horizon of 16 hexes; a target 17 hexes away keeps a quarter of its pull
    from casebook.tools.planner_eval import FAR
    units = _armor("german", "g1", "0101", 8) + _inf("soviet", "s1", "0303", 2)
    state = _state(blitz, units, "movement", FAR_TOWN, size=20)
    view = build_view(state, "german", PlannerBot("german", 1).goals(state))
    assert view.horizon == 16
    assert view.within("0101", "0301") == 1.0
    assert view.within("0101", "1801") == FAR


@pytest.mark.case("2.2A")
def test_2_2A_the_spearhead_out_of_its_HQs_radius_is_activated_first(blitz):
    # one IP: the HQ could wake two rear infantry stacks (2.1), or the armor division ahead of
    # them — beyond the HQ's radius — be activated alone (2.2A). The spearhead drives the advance.
    units = (_armor("german", "g1", "0506", 8, activated=False) + _inf("german", "g2", "0102", 6)
             + _inf("german", "g3", "0103", 6) + _hq("german", "g-hq", "0202", False)
             + _inf("soviet", "s1", "1616", 2))
    state = _state(blitz, units, "command", FAR_TOWN, size=18, ip=1)
    legal = [str(a) for a in state.legal_actions()]
    assert "german: activate-hq hq=g-hq stacks=0102,0103" in legal
    assert str(PlannerBot("german", 1).choose(state)) == "german: activate-stack stack=0506"


REAR = ("scenario: {id: test, name: Test, first_turn: 1, last_turn: 4, victory: {german: "
        '[{id: t, kind: control_count, when: end, hexes: ["1606"], at_least: 1}], soviet: '
        '[{id: r, kind: enter, when: instant, hexes: ["0101"]}]}}')


def test_the_spearhead_waits_while_a_guard_hex_is_open(blitz):
    # as above, but a Soviet stack 3 hexes from an empty hex whose entry wins for the Soviets:
    # the HQ whose stacks stand next to it is activated, not the spearhead
    units = (_armor("german", "g1", "0506", 8, activated=False) + _inf("german", "g2", "0102", 6)
             + _inf("german", "g3", "0103", 6) + _hq("german", "g-hq", "0202", False)
             + _inf("soviet", "s1", "0401", 6))
    from casebook.tools.planner import LEAD, _lead
    state = _state(blitz, units, "command", REAR, size=18, ip=1)
    assert "german: activate-stack stack=0506" in [str(a) for a in state.legal_actions()]
    assert PlannerBot("german", 1).choose(state).kind == "activate-hq"
    bot = PlannerBot("german", 1)
    assert _lead(build_view(state, "german", bot.goals(state)), "0506") == 0.0
    # a garrison in the guard hex as strong as half the enemy near it: the spearhead counts again
    held = _state(blitz, units + _inf("german", "g4", "0101", 6), "command", REAR, size=18, ip=1)
    assert _lead(build_view(held, "german", bot.goals(held)), "0506") == LEAD


def test_grab_wakes_a_stack_near_an_objective_not_held(blitz):
    """Session 9: a panzer stack 3 hexes from an empty Kaluga (18.1.3A) stood two turns unactivated
    while guard calls took every IP. ``grab`` gives such a stack GRAB, tapering to 0 at GRAB_RADIUS."""
    from casebook.tools.planner_eval import GRAB, GRAB_RADIUS, grab, grabbers
    state = blitz.new_initial_state(1)
    bot = PlannerBot("german", 1)
    view = build_view(state, "german", bot.goals(state))
    assert not any(grab(view, h) for h in view.own)     # the front of 2 Oct: 19+ hexes from the five towns
    assert grabbers(state, view) == 0
    data = state.data.clone()
    data.move_unit("g-19pz-27", "1132")                  # 3 hexes from Kaluga (0833), 4 from Maloyaroslavets
    moved = blitz.state_from_dict(data.to_dict())
    view = build_view(moved, "german", bot.goals(moved))
    assert grab(view, "1132") == pytest.approx(GRAB * (1 - (3 - 1) / GRAB_RADIUS))
    assert grabbers(moved, view) == 1
    assert grab(view, "1308") == 0.0                     # Smolensk: German-held, no objective near
