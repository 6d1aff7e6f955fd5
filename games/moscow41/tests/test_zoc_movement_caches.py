"""The ZOC and movement caches (issue #9) give the answers computed from scratch.

ZOC maps, ZOC answers and reach results are kept across state changes under keys naming what
they are computed from (src/casebook/areas/_zoc_map.py, src/casebook/areas/zoc.py, games/moscow41/plugins/_movement_paths.py). These
tests change a position of the October Blitz the ways play does — units moved or eliminated, the
weather, the interpretation settings — on one engine whose caches stay warm with the earlier
keys, and compare every answer with a fresh engine (empty caches). The reach is also compared
with a plain Dijkstra over :func:`step`, the one rule for entering a hex that the table-driven
search must follow.
"""

from __future__ import annotations

import heapq

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casebook.areas import _zoc_map as zmap
from casebook.areas import terrain_costs as costs
from casebook.areas import zoc
from casebook.content.plugins import make_plugin_manager
from casebook.core.game import Game
from casebook.core.hooks import hookimpl
from casebook.games.moscow41.plugins import _movement_paths as paths
from casebook.games.moscow41.plugins._movement_state import mover
from casebook.script.engine import Engine

untimed = settings(deadline=None, max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])

GAME = Game.load("moscow41", "october-blitz")
SETUP = GAME.new_initial_state(1).data
WARM = GAME.engine  # its caches persist from one example to the next
HEXES = sorted(u["hex"] for u in SETUP.units if u.get("hex"))
UNITS = [u["id"] for u in SETUP.units if u.get("hex")]


def fresh(state):
    """A context on an engine with empty caches (same content, rules and plugins)."""
    e = WARM
    return Engine(e.pack, e.board, e.rules, e.pm, e.sequence).ctx(state)


def reference_reach(ctx, m):
    """The reach as specified: Dijkstra over MP spent, :func:`step` deciding each hex entered,
    ties to the first settled hex in (MP, label) order."""
    best = {m.start: (0, (), None)}
    heap, done = [(0, m.start)], set()
    while heap:
        spent, a = heapq.heappop(heap)
        if a in done:
            continue
        done.add(a)
        _, path, how = best[a]
        if how is not None and how.terminal:
            continue
        for b in paths.neighbours(ctx, a):
            if b in done:
                continue
            s = paths.step(ctx, m, a, b, spent, len(path))
            if s.ok and (b not in best or spent + s.cost < best[b][0]):
                best[b] = (spent + s.cost, path + (b,), s)
                heapq.heappush(heap, (spent + s.cost, b))
    return {h: {"mp": mp, "path": list(p), "spent_all": how.spent_all,
                "stop": ("9.2C" if how.spent_all else "9.8B" if m.max_hexes else "7.2") if how.terminal else None}
            for h, (mp, p, how) in sorted(best.items()) if h != m.start}


changes = st.lists(st.one_of(
    st.tuples(st.just("move"), st.sampled_from(UNITS), st.sampled_from(HEXES)),
    st.tuples(st.just("remove"), st.sampled_from(UNITS), st.just("")),
    st.tuples(st.just("weather"), st.sampled_from(["warm", "cold", "arctic"]),
              st.sampled_from(["dry", "frozen", "mud", "drying", "snow", "deep_snow"])),
    st.tuples(st.just("setting"), st.sampled_from([
        ("no_zoc_scope", "winter"), ("mud_zoc_roads", "road_hexside"),
        ("locking_ezoc_to_ezoc", "same_unit"), ("road_bridges", "river_added"),
        ("hq_movement_class", "hq_row")]), st.just("")),
), min_size=1, max_size=4)


def apply(state, change):
    kind, a, b = change
    if kind == "move" and state.has_unit(a):
        state.move_unit(a, b)
    elif kind == "remove" and state.has_unit(a):
        state.remove_unit(a, "eliminated")
    elif kind == "weather":
        state.set_weather(temperature=a, ground=b)
    elif kind == "setting":
        state.set_setting(*a)


@pytest.mark.case("7.0A", "7.0E", "7.1B", "7.1C")
@untimed
@given(changes, st.sampled_from(HEXES))
def test_zoc_maps_and_answers_equal_a_fresh_computation(steps, probe):
    state = SETUP.clone()
    for change in steps:
        apply(state, change)
        warm, cold = WARM.ctx(state), fresh(state)
        for side in ("german", "soviet"):
            assert zmap.zoc_map(warm, side) == zmap.zoc_map(cold, side)
            assert warm.hook.casebook_zoc_map(ctx=warm, side=side)["exerted_by"] == \
                cold.hook.casebook_zoc_map(ctx=cold, side=side)["exerted_by"]
            for h in [probe, *list(zmap.zoc_map(cold, side))[:20]]:
                assert zoc.zoc_answer(warm, h, side) == zoc.zoc_answer(cold, h, side)


@pytest.mark.case("9.0A", "9.2C", "7.2", "7.3")
@untimed
@given(changes, st.sampled_from(["stack", "reaction", "unactivated"]), st.integers(0, 10**6))
def test_reach_equals_a_fresh_step_by_step_search(steps, mode, pick):
    state = SETUP.clone()
    for change in steps:
        apply(state, change)
    stacks = sorted({u["hex"] for u in state.units if u.get("hex")})
    for start in (stacks[pick % len(stacks)], stacks[(pick // 7) % len(stacks)]):
        units = [u["id"] for u in state.units_at(start)]
        warm, cold = WARM.ctx(state), fresh(state)
        m, _ = mover(warm, units, start, mode)
        got = paths.reach(warm, m)
        assert got == reference_reach(cold, m)
        assert paths.reach(warm, m) is got  # kept: the second ask is the same result


def test_a_moved_enemy_changes_the_kept_zoc_map_and_reach():
    """7.0A: the ZOC follows the unit; the kept map and reach are not reused for a new placement."""
    state = SETUP.clone()
    ctx = WARM.ctx(state)
    german = next(u for u in state.units if u["side"] == "german" and u["class"] == "armor")
    soviet = next(u["id"] for u in state.units if u["side"] == "soviet" and u["class"] == "infantry")
    m, _ = mover(ctx, [german["id"]], german["hex"], "stack")
    before = paths.reach(ctx, m)
    target = next(h for h in paths.neighbours(ctx, german["hex"]) if not state.units_at(h))
    state.move_unit(soviet, target)
    ctx = WARM.ctx(state)
    assert soviet in zmap.zoc_map(ctx, "german")[german["hex"]]       # its ZOC reaches the panzer
    assert soviet in costs.ezoc(ctx, german["hex"], "german")
    after = paths.reach(ctx, m)
    assert target not in after and target in before  # now enemy-occupied (9.0A)
    assert after == reference_reach(fresh(state), m)


class _HexByHexZoc:
    """A ZOC plugin answering ``casebook_zoc`` only (every enemy unit but HQs exerts one into
    the adjacent hexes): movement must then ask hex by hex and keep nothing across versions."""

    @hookimpl
    def casebook_zoc(self, ctx, hex, side):
        near = set(ctx.board.label_neighbours(hex))
        who = sorted(u["id"] for u in ctx.state.units
                     if u.get("side") != side and u.get("hex") in near and u.get("class") != "hq")
        return {"hex": hex, "exerted_by": who, "cases": ["7.0A"]}


@pytest.mark.case("7.2", "7.3")
def test_reach_without_a_zoc_map_asks_casebook_zoc_hex_by_hex():
    names = [p for p in WARM.pack.manifest["plugins"] if p != "zoc"]
    engine = Engine(WARM.pack, WARM.board, WARM.rules,
                    make_plugin_manager(names, extra={"fakezoc": _HexByHexZoc()}), WARM.sequence)
    state = SETUP.clone()
    ctx = engine.ctx(state)
    assert costs.ezoc_map(ctx, "german") == (None, None)
    panzer = next(u for u in state.units if u["side"] == "german" and u["class"] == "armor")
    m, _ = mover(ctx, [u["id"] for u in state.units_at(panzer["hex"])], panzer["hex"], "stack")
    got = paths.reach(ctx, m)
    assert got == reference_reach(engine.ctx(state), m)
    assert any(costs.ezoc(ctx, h, "german") for h in got)  # the fake's EZOCs were met
    soviet = next(u["id"] for u in state.units if u["side"] == "soviet")
    state.remove_unit(soviet, "eliminated")  # a new version: nothing kept from the last one
    assert paths.reach(engine.ctx(state), m) == reference_reach(engine.ctx(state), m)


@pytest.mark.case("7.0B", "7.0C", "7.1C")
@pytest.mark.parametrize("weather", [("warm", "dry"), ("cold", "snow"), ("warm", "mud"), ("arctic", "frozen")])
def test_the_zoc_maps_kind_is_every_hexs_kind(weather):
    """``casebook_zoc_map``'s ``kind`` is the ``kind`` ``casebook_zoc`` answers for every hex of
    the map (supply reads it instead of asking hex by hex), in every weather: the most
    restrictive chart row's; under Arctic temperature nobody exerts a ZOC at all (7.1C)."""
    state = SETUP.clone()
    state.set_weather(temperature=weather[0], ground=weather[1])
    ctx = fresh(state)
    kinds = set()
    for side in ("german", "soviet"):
        answer = ctx.hook.casebook_zoc_map(ctx=ctx, side=side)
        assert bool(answer["exerted_by"]) == (weather[0] != "arctic")
        for h in answer["exerted_by"]:
            assert ctx.hook.casebook_zoc(ctx=ctx, hex=h, side=side)["kind"] == answer["kind"], h
        kinds.add(answer["kind"])
    assert kinds == {"locking"} or weather[0] == "arctic"
