"""The caches and searches behind supply (5.x) and command (8.x) answers (issue #9).

- the searches of ``src/casebook/areas/search.py`` give networkx's answers — distances and the very
  paths, ties broken alike (hypothesis property tests on random graphs);
- the maps kept per placement/weather/settings key give, over a played prefix, the answers an
  engine with no kept maps computes from scratch, for every unit of both sides;
- kept step costs are the movement cost hook's answers.
"""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casebook.areas import _supply_search as index_
from casebook.areas import search
from casebook.core.game import Game
from casebook.core.hexgrid import hex_label
from casebook.script.engine import Engine
from casebook.tools.bots import RandomBot


# -- searches against networkx ------------------------------------------------------------------
@st.composite
def graphs(draw):
    """A random undirected graph on 2..14 nodes with integer step costs per direction."""
    n = draw(st.integers(2, 14))
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    edges = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs)))
    g = nx.Graph()
    g.add_nodes_from(draw(st.permutations(range(n))))
    g.add_edges_from(edges)
    cost = {}
    for a, b in g.edges:
        cost[a, b] = draw(st.integers(1, 4))
        cost[b, a] = draw(st.integers(1, 4))
    return g, cost


@settings(max_examples=150, deadline=None)
@given(graphs(), st.data())
def test_dijkstra_gives_networkx_distances_and_paths(gc, data):
    g, cost = gc
    nodes = list(g)
    sources = data.draw(st.lists(st.sampled_from(nodes), min_size=1, max_size=4, unique=True))
    closed = set(data.draw(st.lists(st.sampled_from(nodes), max_size=4)))
    cutoff = data.draw(st.integers(0, 9))

    def weight(x, y, _d):  # backward: from x to y costs the forward step y -> x
        return None if x in closed else cost[y, x]

    want_dist, want_paths = nx.multi_source_dijkstra(g, sources, cutoff=cutoff, weight=weight)
    neighbours = {x: [(y, cost[y, x]) for y in g.adj[x]] for x in g}
    dist, pred = search.multi_source_dijkstra(sources, cutoff, neighbours.__getitem__, closed)
    assert dist == want_dist
    assert list(dist) == list(want_dist)  # settled in the same order
    for h in dist:
        assert search.walk_back(pred, h) == list(reversed(want_paths[h]))


@settings(max_examples=60, deadline=None)
@given(graphs(), st.data())
def test_dijkstra_with_fractional_costs_or_cutoff_still_gives_networkx_answers(gc, data):
    """Whole-MP costs run on the bucket queue; half-MP costs or a fractional cutoff fall back to
    the heap: the same answers (and ties) as networkx either way."""
    g, cost = gc
    half = {k: v + 0.5 if data.draw(st.booleans()) else v for k, v in cost.items()}
    nodes = list(g)
    sources = data.draw(st.lists(st.sampled_from(nodes), min_size=1, max_size=4, unique=True))
    cutoff = data.draw(st.sampled_from([3, 4.5, 7]))

    def weight(x, y, _d):
        return half[y, x]

    want_dist, want_paths = nx.multi_source_dijkstra(g, sources, cutoff=cutoff, weight=weight)
    dist, pred = search.multi_source_dijkstra(sources, cutoff, {x: [(y, half[y, x]) for y in g.adj[x]] for x in g}.__getitem__)
    assert dist == want_dist and list(dist) == list(want_dist)
    for h in dist:
        assert search.walk_back(pred, h) == list(reversed(want_paths[h]))


@settings(max_examples=150, deadline=None)
@given(graphs(), st.data())
def test_bfs_gives_networkx_unit_step_paths(gc, data):
    g, _ = gc
    nodes = list(g)
    sources = sorted(data.draw(st.lists(st.sampled_from(nodes), min_size=1, max_size=4, unique=True)))
    closed = set(data.draw(st.lists(st.sampled_from(nodes), max_size=4))) - set(sources)
    open_graph = g.subgraph([n for n in g if n not in closed])  # adjacency order kept
    want_dist, want_paths = nx.multi_source_dijkstra(open_graph, sources, weight=lambda u, v, d: 1)
    adj = {x: list(g.adj[x]) for x in g}
    dist, pred = search.multi_source_bfs(sources, adj, closed)
    assert dist == want_dist and list(dist) == list(want_dist)
    for h in dist:
        assert search.walk_back(pred, h) == list(reversed(want_paths[h]))


# -- kept maps against maps computed from scratch -------------------------------------------------
def _fresh(m41):
    """An engine on the same content with nothing kept (its own caches)."""
    return Engine(m41.pack, m41.board, m41.rules, m41.pm, m41.sequence)


def _drop_kept_maps(ctx):
    for name in ("supply.maps", "supply.reverse", "supply.line-runs", "supply.enemy-blocks",
                 "supply.blocked-met", "supply.hq-reach", "supply.answers", "command.maps"):
        ctx.lasting(name).clear()


@pytest.mark.case("5.6A", "8.0A")
def test_kept_supply_and_command_answers_equal_fresh_ones_over_a_played_prefix(m41):
    """Random bots play 45 actions of the October Blitz (moves, force marches, breakdowns,
    activations, an attack); every third position, the supply and
    command answers of every unit (the play's engine, its maps kept since earlier positions)
    equal those of an engine whose kept maps are dropped first (step costs aside: see below)."""
    game = Game(m41, "october-blitz")
    state = game.new_initial_state(seed=5)
    bots = {s: RandomBot(s, 5) for s in ("german", "soviet")}
    fresh = _fresh(m41)
    checked = 0
    placements = set()
    for i in range(45):
        if state.is_terminal():
            break
        state.apply(bots[state.current_player()].choose(state))
        if i % 3:
            continue
        warm = state.ctx()
        clone = state.data.clone()
        clone.touch()  # a version the fresh engine has never seen
        cold = fresh.ctx(clone)
        _drop_kept_maps(cold)
        for unit in state.data.units:
            if not unit.get("hex"):
                continue
            uid = unit["id"]
            assert warm.hook.casebook_supply(ctx=warm, unit=uid) == cold.hook.casebook_supply(ctx=cold, unit=uid), uid
            assert warm.hook.casebook_command(ctx=warm, unit=uid) == cold.hook.casebook_command(ctx=cold, unit=uid), uid
        checked += 1
        placements.add(tuple((u["id"], u.get("hex")) for u in state.data.units))
    assert checked == 15 and len(placements) >= 10


@pytest.mark.case("9.2A", "9.2B", "5.2B")
@pytest.mark.parametrize("weather", [("warm", "dry"), ("cold", "mud"), ("arctic", "deep_snow")])
def test_kept_step_costs_are_the_movement_hooks_answers(m41, weather):
    """A step cost is asked once per kind of step (same terrain, town kind and hexside features:
    the TEC's inputs) and kept for the weather and TEC row: for EVERY hexside, both directions,
    of the board, and a unit of each TEC row, the kept cost is what ``casebook_move_cost``
    (mode supply) answers for that very hexside now."""
    game = Game(m41, "october-blitz")
    state = game.new_initial_state(seed=1)
    state.data.set_weather(temperature=weather[0], ground=weather[1])
    state.data.touch()
    ctx = state.ctx()
    index = index_.board_index(ctx)
    assert len(set(index.step_kind.values())) < len(index.step_kind) / 10  # kinds, not hexsides
    rows = {}
    for u in state.data.units:
        if u.get("hex") and u["class"] not in rows:
            rows[u["class"]] = u
    assert {"infantry", "armor", "cavalry", "hq"} <= set(rows)
    from casebook.areas import supply_trace as paths
    from casebook.games.moscow41.plugins._area_config import supply_paths
    for cls, unit in rows.items():
        costs, ask = paths.step_costs(supply_paths(ctx), ctx, unit), paths.asker(supply_paths(ctx), ctx, unit["id"])
        prohibited = 0
        for (a, b) in index.step_kind:
            answer = ctx.hook.casebook_move_cost(ctx=ctx, units=[unit["id"]], from_hex=hex_label(index.hexes[a]),
                                                 to_hex=hex_label(index.hexes[b]), mode="supply")
            assert costs.cost(a, b, ask) == answer["mp"], (cls, index.hexes[a], index.hexes[b])
            prohibited += answer["mp"] is None
        assert prohibited < len(index.step_kind)


def _supply_of(ctx, side):
    return {u["id"]: ctx.hook.casebook_supply(ctx=ctx, unit=u["id"])
            for u in ctx.state.units if u.get("hex") and u["side"] == side}


@pytest.mark.case("5.2C", "5.2D", "5.4A", "5.4B")
def test_a_move_far_from_the_soviet_paths_reuses_their_searches_and_a_near_one_does_not(m41):
    """The line search and backward maps read the blocked status of the hexes they reach only;
    one is reused when no such hex changed. A German unit stepping about in the German rear
    changes no hex the Soviet searches read: the same maps serve, and every Soviet answer equals
    a fresh engine's. A German unit put on the Soviet line network blocks a hex they read (5.4A):
    new maps, again equal to a fresh engine's. (An engine of its own: what the module's other tests
    left in the shared engine's lasting caches must not decide which run is found.)"""
    game = Game(_fresh(m41), "october-blitz")
    state = game.new_initial_state(seed=1)
    ctx = state.ctx()
    before = _supply_of(ctx, "soviet")
    runs = ctx.lasting("supply.line-runs")["soviet"]
    line_before = ctx.memo[("supply", "store", "soviet")]["line"]
    # a German unit in the far rear: its hex and its neighbours are read by no Soviet search (the
    # westmost such unit; the security divisions at Smolensk sit on the Soviet line network)
    from casebook.areas import supply_trace as paths
    from casebook.core.hexgrid import parse_hex
    from casebook.games.moscow41.plugins._area_config import supply_paths

    lines = {hex_label(h) for h in paths.line_supplied(supply_paths(ctx), ctx, "soviet")}

    def far(u):
        around = {hex_label(n) for n in m41.board.neighbours(parse_hex(u["hex"]))} | {u["hex"]}
        return not around & lines
    rear = min((u for u in state.data.units if u.get("hex") and u["side"] == "german" and far(u)),
               key=lambda u: u["hex"])
    step = next(hex_label(n) for n in m41.board.neighbours(parse_hex(rear["hex"]))
                if not state.data.units_at(hex_label(n)))
    state.data.move_unit(rear["id"], step)
    moved = state.ctx()
    after = _supply_of(moved, "soviet")
    assert moved.memo[("supply", "store", "soviet")]["line"] is line_before  # reused
    assert after == before
    cold = _fresh(m41).ctx(state.data)
    assert _supply_of(cold, "soviet") == after
    # now onto an empty hex of the Soviet line network: that search must be made anew
    near = next(hex_label(h) for h in sorted(paths.line_supplied(supply_paths(moved), moved, "soviet"))
                if not state.data.units_at(hex_label(h)))
    state.data.move_unit(rear["id"], near)
    moved = state.ctx()
    after = _supply_of(moved, "soviet")
    assert moved.memo[("supply", "store", "soviet")]["line"] is not line_before
    assert _supply_of(_fresh(m41).ctx(state.data), "soviet") == after
    assert len(runs) >= 2


@pytest.mark.case("9.2A", "5.2B", "5.2C")
def test_rows_with_equal_costs_share_one_search_and_it_is_each_units_own(m41):
    """TEC rows whose cost for every kind of step is equal share one backward search (in the
    October Blitz setup, infantry, cavalry and HQs; armour and mechanized): for every unit on the
    map, the shared search gives the distance and path a search with its own row gives."""
    from casebook.areas import supply_trace as paths
    from casebook.games.moscow41.plugins._area_config import move_class, supply_paths
    state = Game(m41, "october-blitz").new_initial_state(seed=1)
    ctx = state.ctx()
    rows = {move_class(ctx, u): paths.search_row(supply_paths(ctx), ctx, u["id"]) for u in state.data.units if u.get("hex")}
    assert rows["infantry"] == rows["cavalry"] and rows["armor"] == rows["mechanized"]
    assert rows["infantry"] != rows["armor"]  # armour pays more in forest (9.2A)
    index = index_.board_index(ctx)
    for u in state.data.units:
        if not u.get("hex"):
            continue
        closed, targets, _ = paths.index_sets(supply_paths(ctx), ctx, u["side"])
        costs, ask = paths.step_costs(supply_paths(ctx), ctx, u), paths.asker(supply_paths(ctx), ctx, u["id"])
        own = search.multi_source_dijkstra(targets, 8, lambda x: costs.into(x, ask), closed)  # noqa: B023 - called at once, inside the loop
        shared = paths.reverse_map(supply_paths(ctx), ctx, u["side"], u["id"], 8)
        here = index.index[supply_paths(ctx).unit_hex(ctx, u["id"])]
        assert own[0].get(here) == shared[0].get(here), u["id"]
        if here in own[0]:
            assert search.walk_back(own[1], here) == search.walk_back(shared[1], here)


@pytest.mark.case("5.4A", "5.4B", "7.4")
def test_what_stops_an_unsupplied_units_path_is_kept_only_while_its_search_region_is_unchanged(m41):
    """A Soviet unit set down among the German armies is out of supply; the blocked hexes its
    answer lists (5.4, 7.4) come from a search kept with what it read. Moving a German unit far
    away reuses it; moving one into that region does not; every answer equals a fresh engine's."""
    from casebook.core.hexgrid import parse_hex
    state = Game(m41, "october-blitz").new_initial_state(seed=1)
    data = state.data
    german = sorted((u for u in data.units if u.get("hex") and u["side"] == "german"), key=lambda u: u["hex"])
    soviet = next(u for u in data.units if u.get("hex") and u["side"] == "soviet" and u["class"] != "hq")
    # an empty hex west of (behind) a German unit of the middle of the line: rows grow eastward,
    # towards Moscow (on the similarity map, #16, the first German there stands on the front)
    behind = next(hex_label(n) for g in german[len(german) // 2:]
                  for n in m41.board.neighbours(parse_hex(g["hex"]))
                  if not data.units_at(hex_label(n)) and n.row < parse_hex(g["hex"]).row)
    data.move_unit(soviet["id"], behind)
    ctx = state.ctx()
    first = ctx.hook.casebook_supply(ctx=ctx, unit=soviet["id"])
    assert not first["in_supply"] and first["blocked"]
    cold = _fresh(m41).ctx(data)
    assert first == cold.hook.casebook_supply(ctx=cold, unit=soviet["id"])
    here = index_.board_index(ctx).index[parse_hex(behind)]
    key = next(k for k in ctx.lasting("supply.blocked-met") if k[:2] == ("soviet", here))
    run = ctx.lasting("supply.blocked-met")[key]
    read = {index_.board_index(ctx).hexes[i] for i in run["read"]}
    far = next(g for g in german if parse_hex(g["hex"]) not in read
               and all(n not in read for n in m41.board.neighbours(parse_hex(g["hex"]))))
    step = next(hex_label(n) for n in m41.board.neighbours(parse_hex(far["hex"]))
                if not data.units_at(hex_label(n)) and n not in read
                and all(m not in read for m in m41.board.neighbours(n)))
    data.move_unit(far["id"], step)
    ctx = state.ctx()
    again = ctx.hook.casebook_supply(ctx=ctx, unit=soviet["id"])
    assert again["blocked"] == first["blocked"]
    assert ctx.lasting("supply.blocked-met")[key]["found"] is run["found"]  # reused
    cold = _fresh(m41).ctx(data)
    assert cold.hook.casebook_supply(ctx=cold, unit=soviet["id"]) == again
    # a German unit stepping into the region read by the search: searched anew
    near = next(hex_label(h) for h in sorted(read) if not data.units_at(hex_label(h)))
    data.move_unit(far["id"], near)
    ctx = state.ctx()
    moved = ctx.hook.casebook_supply(ctx=ctx, unit=soviet["id"])
    assert ctx.lasting("supply.blocked-met")[key]["found"] is not run["found"]
    cold = _fresh(m41).ctx(data)
    assert cold.hook.casebook_supply(ctx=cold, unit=soviet["id"]) == moved


# -- step-cost rows kept in the pack cache with their lines (issue #18: ask drop) ---------------
@pytest.mark.case("5.2B", "5.2C", "15.1D")
def test_5_2C_kept_step_cost_rows_give_the_answers_and_lines_of_rows_asked_afresh(monkeypatch):
    """``casebook ask`` keeps each movement class's supply step-cost row in the pack cache with the
    rule-script lines that made it (``casebook.areas.supply_trace._row``, ``Engine.lines_apart``). The answers —
    their ``lines`` included, in order — are those of rows asked of the movement cost hook inside
    the answer, whether the row was just made or read back."""
    import json
    from pathlib import Path

    from casebook.areas import supply_trace as _supply_trace
    from casebook.content import packcache
    from casebook.tools.cmd_ask import ask_position

    blitz = str(Path(__file__).resolve().parents[3] / "games/moscow41/scenarios/october-blitz.yaml")
    questions = [("drop", []), ("supply", ["s-16a"]), ("supply", ["g-1pz-1"]), ("reach", ["g-xxxxi-pz"])]

    def answers():
        return [json.dumps(ask_position(blitz, q, args, {}), sort_keys=True) for q, args in questions]

    packcache._TABLES.clear()
    made = answers()      # rows made (and kept) inside each answer
    kept = answers()      # rows read back from the table
    monkeypatch.setattr(_supply_trace, "_row", lambda cfg, ctx, uid, unit, cls: _supply_trace.step_costs(
        cfg, ctx, unit).row(_supply_trace.asker(cfg, ctx, uid)))
    afresh = answers()    # the rows asked of the hook inside the answer, as before the cache
    assert made == kept == afresh
    assert '"15.1D"' in made[0] and '"lines"' in made[1]
