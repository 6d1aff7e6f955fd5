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


def _fresh_gains(view, targets):
    """road_gains by its definition, nothing kept: a fresh field with and without each enemy hex within NEAR
    of an own strong stack, per target."""
    from casebook.tools.planner_road import _FAR, NEAR, STRONG, _field
    own = [h for h, s in view.own.items() if s >= STRONG]
    enemy, nb = frozenset(view.enemy), view.board.label_neighbours
    near = sorted(e for e in enemy if e not in targets and any(view.distance(e, h) <= NEAR for h in own))
    gains: dict[str, float] = {}
    for t in sorted(targets):
        now = min(_field(t, enemy, nb).get(h, _FAR) for h in own)
        for e in near:
            then = min(_field(t, enemy - {e}, nb).get(h, _FAR) for h in own)
            if then < now:
                gains[e] = max(gains.get(e, 0.0), float(now - then))
    return gains


def test_the_gains_kept_per_enemy_position_equal_a_fresh_computation(blitz):
    # session 18: fields, repairs and nearness are kept per enemy position (planner_road._Position); a view
    # whose own stacks moved reuses them, a new enemy position gets its own -- each equal to fresh fields
    from casebook.tools.planner_road import _KEEP, _position
    line = _state(blitz, UNITS, "combat", BEYOND, size=12, towns=TOWNS)
    moved = _state(blitz, UNITS.replace('"0606"', '"0605"'), "combat", BEYOND, size=12, towns=TOWNS)
    broken = _state(blitz, UNITS.replace(_inf("soviet", "s5", "0705", 2), ""), "combat", BEYOND, size=12, towns=TOWNS)
    views = [build_view(s, "german", PlannerBot("german", 1).goals(s)) for s in (line, moved, broken)]
    assert views[0].board is views[1].board is views[2].board and views[1].own != views[0].own
    kept = _position(views[0].board, frozenset(views[0].enemy))
    searches = dict(kept.searches)
    assert "1106" in searches and kept.repairs  # the line bars the way: repairs were needed
    for v in views:
        assert road_gains(v, ["1106"]) == _fresh_gains(v, ["1106"])
    assert road_gains(views[0], ["1106"])["0706"] > ROAD_FULL
    assert road_gains(views[2], ["1106"]) != road_gains(views[0], ["1106"])  # a way through the gap at 0705
    assert kept.searches == searches and kept.searches["1106"] is searches["1106"]  # the moved stack searched none
    assert _position(views[2].board, frozenset(views[2].enemy)) is not kept
    cache = views[0].board.__dict__["_planner_roads"]
    assert frozenset(views[0].enemy) in cache and len(cache) <= _KEEP


def test_the_gains_on_the_blitz_start_equal_a_fresh_computation(blitz):
    from casebook.tools.planner_road import wanted
    state = blitz.new_initial_state(1)
    view = build_view(state, "german", PlannerBot("german", 1).goals(state))
    targets = wanted(view.counts, view.control, "german")
    assert road_gains(view, targets) == _fresh_gains(view, targets)


def test_no_clearing_is_priced_where_the_way_is_as_short_in_steps_as_in_hexes(blitz):
    # g1 in 0606 stands 5 hexes from the town 1106 and no enemy stack touches the straight way: 5 steps.
    # The stack in 0505 behind it is within NEAR, but every step costs 1 at least, so clearing it cannot
    # bring g1 nearer than the 5 hexes: no repair is computed, and the fresh computation agrees (no gain)
    from casebook.tools.planner_road import NEAR, _position
    units = _inf("german", "g1", "0606", 6, True) + _inf("soviet", "s1", "0505", 2)
    state = _state(blitz, units, "combat", BEYOND, size=12, towns=TOWNS)
    view = build_view(state, "german", PlannerBot("german", 1).goals(state))
    kept = _position(view.board, frozenset(view.enemy))
    assert view.distance("0505", "0606") <= NEAR and view.distance("0606", "1106") == 5
    assert road_gains(view, ["1106"]) == {} == _fresh_gains(view, ["1106"])
    assert kept.repairs == {}
    # the field was searched only as far as g1 (5 steps): completed, it is the whole map's, and g1's 5 stand
    searched = dict(kept.searches["1106"].done)
    assert max(searched.values()) <= 5 and searched["0606"] == 5
    assert len(kept.field("1106")) > len(searched) and kept.field("1106")["0606"] == 5


def test_a_field_given_its_zone_of_control_hexes_equals_one_that_finds_them(blitz):
    from casebook.tools.planner_road import _field, _repair, _Table, _zoc
    state = blitz.new_initial_state(1)
    view = build_view(state, "german", PlannerBot("german", 1).goals(state))
    enemy, nb = frozenset(view.enemy), view.board.label_neighbours
    table = _Table(nb)
    zoc = _zoc(enemy, table)
    assert zoc == {n for e in enemy for n in nb(e)}
    base = _field("0833", enemy, nb)
    assert _field("0833", enemy, table, zoc) == base
    e = min(enemy)
    assert _repair(base, "0833", enemy - {e}, e, table, _zoc(enemy - {e}, table)) == _repair(base, "0833", enemy - {e}, e, nb)
