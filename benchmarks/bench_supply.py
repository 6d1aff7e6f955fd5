"""Figure 1 of issue #9: the supply status (5.0-5.7) of every German unit in the October Blitz
setup, against ONE networkx ``multi_source_dijkstra`` (cutoff 8) over the same map. Figures only,
nothing asserted (benchmarks/ is outside the test paths).

    .venv/bin/python -m pytest benchmarks/bench_supply.py --benchmark-only -q -p no:cacheprovider
    .venv/bin/python benchmarks/bench_supply.py          # quick figures and the ratios (timeit)

- ``test_bench_supply_cold`` — every round a state version the engine has not seen and the kept
  supply maps dropped (placement-keyed maps, backward searches), so the whole computation runs:
  blocked hexes (ZOC hook), sources, line network, one backward search per TEC row, HQ radius
  paths, answers. Step costs per weather and TEC row are kept (they are asked of the movement
  hook once per weather, like a TEC column): ``test_bench_supply_first`` shows a first asking.
- ``test_bench_supply_cold_zoc_kept`` — the same, but the ZOC plugin's answers for the state
  version kept: supply's own share of the cold figure.
- ``test_bench_supply_warm`` — a new state version with the same placement (after an activation,
  an IP spent, a new step): the kept maps answer.
- ``test_bench_supply_after_move`` — what play sees most: one German unit has stepped to an
  adjacent empty hex (a placement never seen: a new side store), the searches of earlier
  placements kept; they are reused where the move left every hex they read unchanged.
- ``test_bench_networkx_multi_source`` — the baseline: one ``nx.multi_source_dijkstra`` with
  cutoff 8 MP from the same targets (usable German sources and line hexes) over the board graph,
  backwards, with the infantry step costs precomputed in a dict (the weight function only looks
  them up).
"""

from __future__ import annotations

import timeit
from typing import Any

import networkx as nx
import pytest

from casebook.areas import supply_trace as paths
from casebook.core.game import Game
from casebook.core.hexgrid import hex_label
from casebook.games.moscow41.plugins._area_config import SUPPLY
from casebook.script.engine import Engine, load_engine
from casebook.tools.runtime import tune_gc

SIDE = "german"
_KEPT = ("supply.maps", "supply.reverse", "supply.line-runs", "supply.enemy-blocks", "supply.hq-reach",
         "supply.answers", "supply.blocked-met", "command.maps")


def setup_state() -> Any:
    """The October Blitz setup, settled to its first decision (seed 1)."""
    return Game.load("moscow41", "october-blitz").new_initial_state(1).data


ENGINE = load_engine("moscow41")
STATE = setup_state()
UNITS = [u["id"] for u in STATE.units if u.get("side") == SIDE and u.get("hex")]


def _ctx(engine: Engine, drop: bool, zoc_kept: bool = False) -> Any:
    """A context on a copy of the setup: a new state version (nothing kept for it), the kept
    supply maps dropped if ``drop``; with ``zoc_kept``, the same version as the last call (the
    ZOC plugin's answers for it kept), only supply's own maps dropped."""
    global _LAST
    if zoc_kept and _LAST is not None:
        state = _LAST
    else:
        state = _LAST = STATE.clone()
        state.touch()  # a version no cache has seen
    ctx = engine.ctx(state)
    if drop:
        for name in _KEPT:
            ctx.lasting(name).clear()
        for key in [k for k in ctx.memo if isinstance(k, tuple) and k[0] in ("supply", "command")]:
            del ctx.memo[key]
    return ctx


_LAST: Any = None
_MOVES = iter(())


def _moved_ctx(engine: Engine) -> Any:
    """A copy of the setup in which the next German unit (in turn) stepped to an adjacent empty
    hex: a placement no cache has seen, the searches of other placements kept."""
    global _MOVES
    for _ in range(2):
        for uid, to in _MOVES:
            state = STATE.clone()
            state.move_unit(uid, to)
            return engine.ctx(state)
        _MOVES = iter(_steps())
    raise RuntimeError("no German unit can step")


def _steps() -> list[tuple[str, str]]:
    board = ENGINE.board
    out = []
    for uid in UNITS:
        here = board.label_neighbours(STATE.unit(uid)["hex"])
        empty = [h for h in here if not STATE.units_at(h)]
        if empty:
            out.append((uid, empty[0]))
    return out


def supply_all(ctx: Any) -> int:
    """Supply verdicts of every unit of SIDE; returns how many are in supply."""
    return sum(bool(ctx.hook.casebook_supply(ctx=ctx, unit=uid)["in_supply"]) for uid in UNITS)


def _baseline_inputs() -> tuple[Any, list[Any], dict[Any, Any]]:
    ctx = ENGINE.ctx(STATE)
    targets = list(SUPPLY.usable(ctx, SIDE) | paths.line_supplied(SUPPLY, ctx, SIDE))
    uid = next(u for u in UNITS if ctx.state.unit(u)["class"] == "infantry")
    cost = {}
    for a, b in ctx.board.graph.edges:
        for x, y in ((a, b), (b, a)):
            answer = ctx.hook.casebook_move_cost(ctx=ctx, units=[uid], from_hex=hex_label(x),
                                                 to_hex=hex_label(y), mode="supply")
            cost[x, y] = answer["mp"]
    return ctx.board.graph, targets, cost


GRAPH, TARGETS, COST = _baseline_inputs()
tune_gc()  # as the casebook command does once a game is loaded (src/casebook/tools/runtime.py)


def networkx_multi_source() -> int:
    """One backward multi-source Dijkstra, cutoff 8, precomputed step costs."""
    dist = nx.multi_source_dijkstra_path_length(GRAPH, TARGETS, cutoff=8, weight=lambda x, y, d: COST[y, x])
    return len(dist)


def _warm_up() -> None:
    supply_all(_ctx(ENGINE, drop=True))  # step costs of this weather asked once


# -- pytest-benchmark ---------------------------------------------------------------------------
@pytest.fixture(scope="module", autouse=True)
def warm() -> None:
    _warm_up()


def test_bench_supply_cold(benchmark):
    result = benchmark.pedantic(supply_all, setup=lambda: ((_ctx(ENGINE, drop=True),), {}),
                                rounds=15, iterations=1)
    assert result > 0


def test_bench_supply_cold_zoc_kept(benchmark):
    supply_all(_ctx(ENGINE, drop=True))
    result = benchmark.pedantic(supply_all, setup=lambda: ((_ctx(ENGINE, drop=True, zoc_kept=True),), {}),
                                rounds=15, iterations=1)
    assert result > 0


def test_bench_supply_warm(benchmark):
    supply_all(_ctx(ENGINE, drop=False))
    result = benchmark.pedantic(supply_all, setup=lambda: ((_ctx(ENGINE, drop=False),), {}),
                                rounds=50, iterations=1)
    assert result > 0


def test_bench_supply_after_move(benchmark):
    supply_all(_ctx(ENGINE, drop=False))
    result = benchmark.pedantic(supply_all, setup=lambda: ((_moved_ctx(ENGINE),), {}),
                                rounds=30, iterations=1)
    assert result > 0


def test_bench_supply_first(benchmark):
    def fresh():
        engine = Engine(ENGINE.pack, ENGINE.board, ENGINE.rules, ENGINE.pm, ENGINE.sequence)
        return (_ctx(engine, drop=True),), {}
    result = benchmark.pedantic(supply_all, setup=fresh, rounds=3, iterations=1)
    assert result > 0


def test_bench_networkx_multi_source(benchmark):
    assert benchmark(networkx_multi_source) > 0


# -- plain run ----------------------------------------------------------------------------------
def _best(fn: Any, setup: Any = None, number: int = 1, repeat: int = 7) -> float:
    times = []
    for _ in range(repeat):
        arg = setup() if setup else None
        times.append(timeit.timeit(lambda arg=arg: fn(arg) if setup else fn(), number=number) / number)
    return min(times)


def _median(fn: Any, setup: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        arg = setup()
        t = timeit.default_timer()
        fn(arg)
        times.append(timeit.default_timer() - t)
    return sorted(times)[len(times) // 2]


def main() -> None:
    _warm_up()
    base = _best(networkx_multi_source, repeat=15)
    cold = _best(supply_all, lambda: _ctx(ENGINE, drop=True), repeat=9)
    supply_all(_ctx(ENGINE, drop=True))
    own = _best(supply_all, lambda: _ctx(ENGINE, drop=True, zoc_kept=True), repeat=9)
    warm = _best(supply_all, lambda: _ctx(ENGINE, drop=False), repeat=15)
    moved = _median(supply_all, lambda: _moved_ctx(ENGINE), repeat=31)
    print(f"{len(UNITS)} {SIDE} units, {supply_all(_ctx(ENGINE, drop=False))} in supply; "
          f"{len(TARGETS)} targets, {GRAPH.number_of_nodes()} hexes")
    print(f"networkx multi_source_dijkstra, cutoff 8: {base * 1e3:8.2f} ms")
    print(f"supply of every unit, cold:              {cold * 1e3:8.2f} ms  ({cold / base:.1f}x)")
    print(f"  the same, ZOC answers kept:            {own * 1e3:8.2f} ms  ({own / base:.1f}x)")
    print(f"supply of every unit, warm:              {warm * 1e3:8.2f} ms  ({warm / base:.2f}x)")
    print(f"supply of every unit, after one move:    {moved * 1e3:8.2f} ms  ({moved / base:.2f}x, median)")


if __name__ == "__main__":
    main()
