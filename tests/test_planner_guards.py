"""The planning bot's guards (session 10): an open capital filled or approached when the enemy is
within reach, its last unit kept, a second stack sent to a guard hex short of the threat."""

from __future__ import annotations

import pytest

from casebook.core.game import Game
from casebook.tools.planner import PlannerBot
from casebook.tools.planner_eval import Mover, build_view, plan_value
from tests._planner_positions import armor as _armor
from tests._planner_positions import inf as _inf
from tests._planner_positions import state as _state


@pytest.fixture(scope="module")
def blitz():
    return Game.load("moscow41", "october-blitz")


# ------------------------------------------------------------------ guards (session 10)

CAPITAL = ("scenario: {id: test, name: Test, first_turn: 1, last_turn: 4, victory: {german: "
           '[{id: m, kind: enter, when: instant, hexes: ["0909"]}, '
           '{id: t, kind: control_count, when: end, hexes: ["0606"], at_least: 1}]}}')


def test_planner_sends_a_unit_into_the_open_capital_when_the_enemy_is_within_reach(blitz):
    """A hex whose entry wins for the enemy (as Moscow, 18.1.3B), empty: a Soviet stack that can
    reach it goes there once an enemy combat unit is within its reach (REACH_TURNS x its MA),
    and not while the enemy is far; the Soviet stack's other pull, the town 0606, is held by neither."""
    from casebook.tools.bots_guard import REACH_MIN, reach
    from casebook.tools.planner_eval import GUARD_FILL
    near = _inf("soviet", "s1", "0907", 6, True) + _armor("german", "g1", "0901", 8)   # 8 hexes off
    state = _state(blitz, near, "movement", CAPITAL, size=18, phasing="soviet")
    bot = PlannerBot("soviet", 1)
    view = build_view(state, "soviet", bot.goals(state))
    assert view.distance("0901", "0909") <= reach({"ma": 8}) and view.open_guard == {"0909": 1.0}
    assert any(a.kind == "move" and a.get("path")[-1] == "0909" for a in state.legal_actions())
    choice = bot.choose(state)
    assert choice.kind == "move" and choice.get("path")[-1] == "0909"
    moved = [Mover("0907", 6.0, False, ("0907", "0909"))]
    assert plan_value(view, moved, ["0909"]) - plan_value(view, moved, ["0907"]) >= GUARD_FILL - 10
    plain = CAPITAL.replace('{id: m, kind: enter, when: instant, hexes: ["0909"]}, ', "")
    control = _state(blitz, near, "movement", plain, size=18, phasing="soviet")
    assert (PlannerBot("soviet", 1).choose(control).get("path") or ("",))[-1] != "0909"
    # the German unit far away (beyond its reach by REACH_MIN hexes and more): no pressure, no call
    far = _inf("soviet", "s1", "0707", 6, True) + _inf("german", "g1", "0932", 6)
    state = _state(blitz, far, "movement", CAPITAL, size=34, phasing="soviet")
    view = build_view(state, "soviet", bot.goals(state))
    assert view.distance("0932", "0909") - REACH_MIN >= REACH_MIN and view.open_guard == {}


def test_planner_keeps_its_last_unit_on_the_capital_under_threat(blitz):
    """The Soviet stack stands on the hex whose entry wins for the enemy, the town 0606 is empty
    and unheld next to it: the planner takes no move of that stack (it never empties the hex); the
    same position without the enter condition sends it to the town."""
    units = _inf("soviet", "s1", "0909", 6, True) + _armor("german", "g1", "0901", 8)
    state = _state(blitz, units, "movement", CAPITAL.replace('0606', '0808'), size=18, phasing="soviet")
    assert any(a.kind == "move" and a.get("stack") == "0909" for a in state.legal_actions())
    assert PlannerBot("soviet", 1).choose(state).get("stack") != "0909"
    plain = CAPITAL.replace('0606', '0808').replace('{id: m, kind: enter, when: instant, hexes: ["0909"]}, ', "")
    control = _state(blitz, units, "movement", plain, size=18, phasing="soviet")
    assert PlannerBot("soviet", 1).choose(control).get("stack") == "0909"


def test_planner_brings_a_garrison_nearer_to_an_open_capital_it_cannot_reach_this_step(blitz):
    """The Soviet stack 6 hexes from the open capital hex, two hexes of move: it closes in (by
    GUARD_APPROACH a hex) where, without the enter condition, it goes for the town 0606."""
    from casebook.tools.planner_eval import GUARD_APPROACH
    units = _inf("soviet", "s1", "0903", 6, True) + _armor("german", "g1", "0917", 8)
    state = _state(blitz, units, "movement", CAPITAL, size=18, phasing="soviet")
    bot = PlannerBot("soviet", 1)
    view = build_view(state, "soviet", bot.goals(state))
    assert view.open_guard == {"0909": 1.0} and view.guard_near == {"0909": view.distance("0903", "0909")}
    assert not any(a.kind == "move" and a.get("path")[-1] == "0909" for a in state.legal_actions())
    choice = bot.choose(state)
    assert view.distance(choice.get("path")[-1], "0909") < view.distance("0903", "0909")
    mover = [Mover("0903", 6.0, False, ("0903", choice.get("path")[-1]))]
    assert plan_value(view, mover, [choice.get("path")[-1]]) - plan_value(view, mover, ["0903"]) >= GUARD_APPROACH
    plain = CAPITAL.replace('{id: m, kind: enter, when: instant, hexes: ["0909"]}, ', "")
    control = _state(blitz, units, "movement", plain, size=18, phasing="soviet")
    away = PlannerBot("soviet", 1).choose(control).get("path")[-1]
    assert view.distance(away, "0909") >= view.distance("0903", "0909")


def test_planner_sends_a_second_stack_next_to_a_guard_hex_short_of_the_threat(blitz):
    """Session 11: one unit is not a garrison against an army. The capital hex holds 6; German
    stacks of 60 stand within their reach of it: it needs GUARD_SHARE of 60 in it and next to it,
    so the second Soviet stack goes next to it (GUARD_HOLD a point up to the need) rather than to the
    town 0606; with the Germans beyond reach it takes the town."""
    from casebook.tools.bots_guard import GUARD_SHARE, held, need
    from casebook.tools.planner_eval import GUARD_HOLD
    army = _armor("german", "g1", "0915", 20) + _armor("german", "g2", "0916", 20) + _armor("german", "g3", "0917", 20)
    mine = _inf("soviet", "s1", "0909", 6) + _inf("soviet", "s2", "0707", 6, True)
    state = _state(blitz, mine + army, "movement", CAPITAL, size=18, phasing="soviet")
    assert need(state, "soviet", "0909") == pytest.approx(GUARD_SHARE * 60) and held(state, "soviet", "0909") == 6
    bot = PlannerBot("soviet", 1)
    choice = bot.choose(state)
    ring = set(state.game.engine.board_for(state.data).label_neighbours("0909"))
    view = build_view(state, "soviet", bot.goals(state))
    assert view.guard_need == {"0909": pytest.approx(GUARD_SHARE * 60)}
    end = choice.get("path")[-1]
    assert choice.get("stack") == "0707" and end in ring
    mover = [Mover("0707", 6.0, False, ("0707", end, "0606"))]
    assert plan_value(view, mover, [end]) - plan_value(view, mover, ["0707"]) >= GUARD_HOLD * 6
    state.apply(choice)
    assert held(state, "soviet", "0909") >= GUARD_SHARE * 60      # the need met: 12 against 60
    far = army.replace('"0915"', '"0932"').replace('"0916"', '"0933"').replace('"0917"', '"0934"')
    control = _state(blitz, mine + far, "movement", CAPITAL, size=34, phasing="soviet")
    assert need(control, "soviet", "0909") == 0.0
    assert PlannerBot("soviet", 1).choose(control).get("path")[-1] == "0606"
