"""Road openers (issue #16, session 15): a side playing for "N of these M hexes" attacks the enemy stack
that bars the way to the objectives it needs (``tools/planner_road.py``), not only the one whose fall
tears the widest gap. Session 12's reach study (benchmarks/balance/s12/REACH.md) found the October
Blitz's drive stopped at the Mozhaisk Line short of the third town of 18.1.3A; an enemy zone of control
ends a move (7.2-7.3), so a line of enemy stacks is passed only through a hex cleared by combat."""

from __future__ import annotations

import pytest

from casebook.core.game import Game
from casebook.tools.planner import PlannerBot
from casebook.tools.planner_eval import build_view
from casebook.tools.planner_road import ROAD, ROAD_FULL, ZOC_STEP, road_gains
from tests._planner_positions import inf as _inf
from tests._planner_positions import state as _state


@pytest.fixture(scope="module")
def blitz():
    return Game.load("moscow41", "october-blitz")


def _count(*towns: str) -> str:
    """A victory block: the Germans win holding one of ``towns`` at the end (a count condition, 18.1.3A-like)."""
    hexes = ", ".join(f'"{t}"' for t in towns)
    return ("scenario: {id: test, name: Test, first_turn: 1, last_turn: 4, victory: {german: "
            f"[{{id: t, kind: control_count, when: end, hexes: [{hexes}], at_least: 1}}]}}}}")


BEYOND = _count("1106", "1111")  # both beyond the line; 1106 the nearer
HOME = _count("0101", "0111")    # both on the German side of it
TOWNS = {"1106": "Beyond", "1111": "Farther", "0101": "Rearburg", "0111": "Homestead"}
#: a Soviet line down column 07 from edge to edge (2 points a hex), a lone Soviet stack in the north-west
LINE = "".join(_inf("soviet", f"s{r}", f"07{r:02d}", 2) for r in range(1, 13))
UNITS = (_inf("german", "g1", "0606", 6, True) + _inf("german", "g2", "0202", 6, True)
         + _inf("soviet", "s-off", "0302", 2) + LINE)


@pytest.mark.case("7.0D")
def test_7_0D_a_line_from_edge_to_edge_is_passed_only_through_a_cleared_hex(blitz):
    state = _state(blitz, UNITS, "combat", BEYOND, size=12, towns=TOWNS)
    view = build_view(state, "german", PlannerBot("german", 1).goals(state))
    gains = road_gains(view, ["1106"])
    # the line hexes next to g1 open the way (no way at all before); the lone stack opens nothing
    assert gains["0706"] > ROAD_FULL and gains["0707"] > ROAD_FULL
    assert "0302" not in gains
    assert view.stake["0706"] == pytest.approx(ROAD * 6.0)  # ROAD x HOLD_WEIGHT
    # the lone stack is the wider gap (View.breach), so without the town beyond the line it is attacked
    assert view.breach["0302"] > view.breach["0706"] == 0


@pytest.mark.case("7.0D")
def test_7_0D_the_planner_attacks_the_hex_that_opens_the_road_to_the_objective(blitz):
    state = _state(blitz, UNITS, "combat", BEYOND, size=12, towns=TOWNS)
    legal = [str(a) for a in state.legal_actions()]
    assert "german: attack hex=0302 support=0 with=g2" in legal
    choice = PlannerBot("german", 1).choose(state)
    assert choice.kind == "attack" and choice.get("hex") in ("0705", "0706", "0707")
    # control: the objective on the own side of the line -> no road to open, the wider gap is attacked
    control = _state(blitz, UNITS, "combat", HOME, size=12, towns=TOWNS)
    view = build_view(control, "german", PlannerBot("german", 1).goals(control))
    assert road_gains(view, ["0101"]) == {}
    assert str(PlannerBot("german", 1).choose(control)) == "german: attack hex=0302 support=0 with=g2"


def test_a_zone_of_control_costs_zoc_step_on_the_way(blitz):
    # one Soviet stack between g1 and the town: the straight way passes next to it (ZOC_STEP a hex)
    units = _inf("german", "g1", "0106", 6, True) + _inf("soviet", "s1", "0606", 2)
    state = _state(blitz, units, "combat", BEYOND, size=12, towns=TOWNS)
    view = build_view(state, "german", PlannerBot("german", 1).goals(state))
    from casebook.tools.planner_road import _field
    steps = _field("1106", frozenset(view.enemy), view.board.label_neighbours)
    assert steps["0106"] >= view.distance("0106", "1106")
    assert road_gains(view, ["1106"]) == {}  # g1 is too far from s1 to attack it (NEAR): not judged
    assert ZOC_STEP > 1


def test_a_cleared_hex_re_prices_only_the_ways_it_shortens_as_a_new_field_would(blitz):
    # the October Blitz's start (2 Oct 1941 front): for every Soviet stack within NEAR of a German one,
    # the repaired field (base + the hexes whose way shortens) equals the field computed afresh without it
    from casebook.tools.planner_road import NEAR, _field, _repair, wanted
    state = blitz.new_initial_state(1)
    view = build_view(state, "german", PlannerBot("german", 1).goals(state))
    targets = wanted(view.counts, view.control, "german")
    assert len(targets) == 3  # three of the five towns (18.1.3A)
    enemy, nb = frozenset(view.enemy), view.board.label_neighbours
    near = sorted(e for e in enemy if any(view.distance(e, h) <= NEAR for h in view.own))
    assert len(near) > 10
    for t in targets[:1]:
        base = _field(t, enemy, nb)
        for e in near:
            fresh = _field(t, enemy - {e}, nb)
            assert {**base, **_repair(base, t, enemy - {e}, e, nb)} == {**base, **fresh}, e


def test_a_detour_round_a_lone_stack_is_no_road_barred(blitz):
    # tests/test_planner_towns.py's Turn-3 position: clearing the 2-point stack in 0805 saves g2 three steps
    # to the town 0909 (going past it costs zone-of-control hexes) -- less than ROAD_MIN: it keeps its stake,
    # and the 1:1 on the defender of the town the side needs still beats the 3:1 on it
    from casebook.tools.planner_road import ROAD_MIN, wanted
    from tests.test_planner_towns import _state as towns_state
    from tests.test_planner_towns import _units
    state = towns_state(blitz, _units(6), "combat")
    view = build_view(state, "german", PlannerBot("german", 1).goals(state))
    targets = wanted(view.counts, view.control, "german")
    assert targets == ["0507", "0909"]
    assert road_gains(view, targets) == {"0805": 3.0} and 3.0 < ROAD_MIN
    assert view.stake.get("0805", 0.0) == 0.0
