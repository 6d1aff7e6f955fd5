"""Figure 2 of issue #9: the reachable hexes of one German panzer stack in the October Blitz setup
(the 1st Panzer Division's stack; terrain, ZOC, stacking: the engine's own reach) against a plain
networkx single-source Dijkstra over the same board graph with a precomputed terrain weight and
the same MA cutoff. Figures only, never asserted (benchmarks/ is outside the test paths):

    .venv/bin/python -m pytest benchmarks/bench_reach.py --benchmark-only -p no:cacheprovider -s

Variants timed (pytest test names; ``benchmarks/run.py`` reads figure 2 as
``test_bench_engine_reach`` / ``test_bench_plain_dijkstra``):

- ``plain_dijkstra`` — ``nx.single_source_dijkstra`` (distances and paths, as the engine returns
  paths) on a ``DiGraph`` of the board with the stack's MP cost of every hexside as edge weight
  (computed once, outside the timing), cutoff = MA; ``networkx_lengths`` — distances only.
- ``engine_reach`` — the engine's search from scratch (``_movement_paths.search``: every rule of
  ``step`` — terrain and hexside costs, enemy-occupied hexes, locking/fluid EZOCs, 9.2C — then
  the 6.2B stacking filter of ``_movement_legal``), with what a state version shares ready: the
  ZOC map, the enemy hexes and the MP table (as networkx gets its weights ready).
- ``engine_search_no_stacking`` — the same search without the stacking filter (each occupied
  destination is one ``casebook_stacking`` hook call).
- ``engine_new_version`` — what a decision costs after an unrelated change: a new state version
  (``ctx.changed()``), then ``destinations`` (the ZOC map, enemy hexes and stacking asked again,
  the reach kept across versions by its key).
- ``engine_cold`` — all caches of the engine emptied first (ZOC map, MP table, reach rebuilt).

The ratios engine / networkx are printed at the end. The same file runs on the code before
issue #9's caches (no ``search``): then ``engine_new_version`` is the old per-version reach.
"""

from __future__ import annotations

import networkx as nx
import pytest

from casebook.areas.terrain_costs import enemy_hexes, step_cost
from casebook.core.game import Game
from casebook.games.moscow41.plugins import _movement_legal as legal
from casebook.games.moscow41.plugins import _movement_paths as paths
from casebook.games.moscow41.plugins._movement_state import mover
from casebook.tools.runtime import tune_gc

GAME = Game.load("moscow41", "october-blitz")
STATE = GAME.new_initial_state(1).data
CTX = GAME.engine.ctx(STATE)
PANZER = next(u for u in STATE.units if u["side"] == "german" and u["class"] == "armor")
START = PANZER["hex"]
UNITS = [u["id"] for u in STATE.units_at(START)]
MOVER, MA = mover(CTX, UNITS, START, "stack")
NEW = hasattr(paths, "search")


def _weighted_graph() -> nx.DiGraph:
    """The board graph (hex labels) with the stack's MP cost of entering each hex as weight."""
    g = nx.DiGraph()
    for h in CTX.board.graph:
        a = f"{h.col:02d}{h.row:02d}"
        for b in paths.neighbours(CTX, a):
            mp = step_cost(CTX, MOVER.classes, a, b)[0]
            if mp is not None:
                g.add_edge(a, b, mp=mp)
    return g


GRAPH = _weighted_graph()
tune_gc()  # as the casebook command does once a game is loaded (src/casebook/tools/runtime.py)
_STATS: dict[str, float] = {}


def _not_overstacked(found):
    return {d: r for d, r in found.items() if not legal._overstacked(CTX, d, list(MOVER.units))}


def engine_search():
    if not NEW:  # before issue #9: the reach of a new state version is the search
        CTX.changed()
        return _not_overstacked(paths.reach(CTX, MOVER))
    from casebook.areas.terrain_costs import ezoc_map
    zmap = ezoc_map(CTX, MOVER.side)[0]
    same = CTX.state.setting("locking_ezoc_to_ezoc", "any") == "same_unit"
    return _not_overstacked(paths.search(CTX, MOVER, zmap, enemy_hexes(CTX, MOVER.side), same))


def engine_search_no_stacking():
    """The search alone (terrain, enemy hexes, ZOC), without the 6.2B stacking filter."""
    if not NEW:
        CTX.changed()
        return paths.reach(CTX, MOVER)
    from casebook.areas.terrain_costs import ezoc_map
    zmap = ezoc_map(CTX, MOVER.side)[0]
    same = CTX.state.setting("locking_ezoc_to_ezoc", "any") == "same_unit"
    return paths.search(CTX, MOVER, zmap, enemy_hexes(CTX, MOVER.side), same)


def engine_new_version():
    CTX.changed()
    if NEW:
        return legal.destinations(CTX, MOVER)
    return _not_overstacked(paths.reach(CTX, MOVER))


def engine_cold():
    GAME.engine._lasting.clear()
    return engine_new_version()


@pytest.fixture(scope="module", autouse=True)
def _report():
    yield
    base = _STATS.get("plain_dijkstra")
    if base:
        print(f"\nreach of {START} ({len(UNITS)} units, MA {MA['ma']}): "
              f"{len(engine_new_version())} destinations; plain Dijkstra {base * 1e6:.0f} µs")
        for name in ("networkx_lengths", "engine_search_no_stacking", "engine_reach",
                     "engine_new_version", "engine_cold"):
            if name in _STATS:
                print(f"  {name:26s} {_STATS[name] * 1e6:9.0f} µs  {_STATS[name] / base:6.2f}x plain Dijkstra")


def test_same_destinations_as_networkx_where_no_zoc_or_enemy_interferes():
    """Not a timing: the figure compares like with like. Every hex networkx reaches within the MA
    is reached by the engine at no lower MP cost (ZOCs, enemies and stacking only remove or
    stop), and the engine's destinations are a subset of networkx's plus 9.2C first hexes."""
    dist = nx.single_source_dijkstra_path_length(GRAPH, START, cutoff=MA["ma"], weight="mp")
    got = engine_new_version()
    assert got and all(h in dist or len(r["path"]) == 1 for h, r in got.items())
    assert all(r["mp"] >= dist.get(h, MA["ma"]) for h, r in got.items())


def test_bench_plain_dijkstra(benchmark):
    benchmark(nx.single_source_dijkstra, GRAPH, START, cutoff=MA["ma"], weight="mp")
    _STATS["plain_dijkstra"] = benchmark.stats.stats.median


def test_bench_networkx_lengths(benchmark):
    benchmark(nx.single_source_dijkstra_path_length, GRAPH, START, cutoff=MA["ma"], weight="mp")
    _STATS["networkx_lengths"] = benchmark.stats.stats.median


def test_bench_engine_reach(benchmark):
    benchmark(engine_search)
    _STATS["engine_reach"] = benchmark.stats.stats.median


def test_bench_engine_search_no_stacking(benchmark):
    benchmark(engine_search_no_stacking)
    _STATS["engine_search_no_stacking"] = benchmark.stats.stats.median


def test_bench_engine_new_version(benchmark):
    benchmark(engine_new_version)
    _STATS["engine_new_version"] = benchmark.stats.stats.median


def test_bench_engine_cold(benchmark):
    benchmark.pedantic(engine_cold, rounds=20, iterations=1)
    _STATS["engine_cold"] = benchmark.stats.stats.median


if __name__ == "__main__":  # the figures with their report (pytest-benchmark's table too)
    import sys

    sys.exit(pytest.main([__file__, "--benchmark-only", "-q", "-s", "-p", "no:cacheprovider"]))
