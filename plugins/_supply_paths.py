"""Supply path search for the Moscow '41 `supply` plugin (5.1-5.4, 7.4): private helper.

Hexes are :class:`~casebook.kernel.hexgrid.Hex` inside this module, labels (``"0303"``) at its
edges. Every derived map of a side is kept in the side's store (``_supply_keys.side_store``:
keyed by what the map depends on — unit placement, weather, settings, entered areas, city
control — so it survives state changes that touch none of these):

- ``blocked(ctx, side)`` — hexes a supply path of ``side`` cannot pass (5.4A enemy units; 5.4B,
  7.4 EZOCs without a friendly non-remnant combat unit), each with its reason and cases;
- ``sources(ctx, side)`` — supply source hexes and whether each is usable (5.1A-C);
- ``line_supplied(ctx, side)`` — the road/trail (Soviet: also rail) hexes from which an unbroken
  line leads to a usable source, following the line through its hexsides (5.2B-D);
- ``trace_mp(ctx, uid)`` — the cheapest path of at most ``supply_path_mp`` MPs (5.2B-C) from a
  unit to a usable source or to such a line hex (one backward Dijkstra per side, TEC row and
  blocked/target sets, on step costs kept per weather: ``_supply_search``).
"""

from __future__ import annotations

import itertools
from typing import Any, Mapping


from casebook.kernel.cases import implements
from casebook.kernel.hexgrid import Hex, hex_label, parse_hex

from casebook.plugins import _supply_search as search
from casebook.plugins._supply_keys import lru_get, placement, settings, side_store, weather

__all__ = [
    "NON_COMBAT", "is_combat", "side_of", "unit_hex", "move_class", "ezoc", "blocked", "sources",
    "line_supplied", "line_path", "trace_mp", "kept_answers", "blocked_met", "radius_path",
]

#: Classes that are not combat units: HQs (0.5.4) and remnants (11.3D).
NON_COMBAT = frozenset({"hq", "remnant"})
_ENEMY = ("enemy unit", ("5.4A", "5.2A"))
_EZOC = ("enemy ZOC without a friendly non-remnant combat unit", ("5.4B", "7.4"))


def is_combat(unit: Mapping[str, Any]) -> bool:
    """A combat unit: neither an HQ nor a remnant (11.3D: a remnant is not a combat unit)."""
    return unit.get("class") not in NON_COMBAT


def side_of(ctx: Any, uid: str) -> str:
    return ctx.state.unit(uid)["side"]


def unit_hex(ctx: Any, uid: str) -> Hex:
    """The hex of unit ``uid``; KeyError if it is not on the map or has no hex."""
    unit = ctx.state.unit(uid)
    if not unit.get("hex"):
        raise KeyError(f"unit {uid!r} is not on a map hex")
    return parse_hex(unit["hex"])


def move_class(ctx: Any, unit: Mapping[str, Any]) -> str:
    """The TEC row of ``unit``: its class; an HQ marked mechanized uses the mechanized row
    (interpretation hq-movement-class, setting ``hq_movement_class``)."""
    cls = unit.get("class", "infantry")
    if cls == "hq" and unit.get("mechanized") and \
            ctx.state.setting("hq_movement_class", "by_mechanized") == "by_mechanized":
        return "mechanized"
    return cls


def _units_by_hex(ctx: Any) -> dict[Hex, list[Mapping[str, Any]]]:
    key = ("supply", "units_by_hex")
    if key not in ctx.memo:
        out: dict[Hex, list[Mapping[str, Any]]] = {}
        for u in ctx.state.units:
            if u.get("hex"):
                out.setdefault(parse_hex(u["hex"]), []).append(u)
        ctx.memo[key] = out
    return ctx.memo[key]


_weather = weather


@implements("7.4")
def ezoc(ctx: Any, h: Hex, side: str) -> bool:
    """Whether an enemy ZOC lies in ``h`` for ``side`` (asks ``casebook_zoc``; without a ZOC
    plugin, any adjacent enemy unit allowed to exert a ZOC by the ``exert_zoc`` permission
    (7.1A, 7.1C, 4.6A))."""
    answer = ctx.hook.casebook_zoc(ctx=ctx, hex=hex_label(h), side=side)
    if answer is not None:
        return bool(answer.get("exerted_by")) and answer.get("kind", "locking") != "none"
    temperature, _ = _weather(ctx)
    by_hex = _units_by_hex(ctx)
    for n in ctx.board.neighbours(h):
        for u in by_hex.get(n, ()):
            if u.get("side") != side and ctx.permission(
                    "exert_zoc", {"temperature": temperature, "unit_class": u.get("class")}).value:
                return True
    return False


@implements("5.2A", "5.4A", "5.4B", "7.4")
def blocked(ctx: Any, side: str) -> dict[Hex, tuple[str, tuple[str, ...]]]:
    """Hex -> (reason, cases) for every hex a supply or command path of ``side`` cannot pass:
    enemy-occupied (5.4A) or in an EZOC without a friendly non-remnant combat unit (5.4B, 7.4).
    Only hexes next to enemy units are asked about ZOCs (a ZOC extends to adjacent hexes, 7.0D)."""
    store = side_store(ctx, side)
    if "blocked" in store:
        return store["blocked"]
    by_hex = _units_by_hex(ctx)
    occupied, ezocs = _enemy_blocks(ctx, side)
    out: dict[Hex, tuple[str, tuple[str, ...]]] = dict.fromkeys(occupied, _ENEMY)
    for h in ezocs:
        if not any(u.get("side") == side and is_combat(u) for u in by_hex.get(h, ())):
            out[h] = _EZOC
    store["blocked"] = out
    return out


def _enemy_blocks(ctx: Any, side: str) -> tuple[list[Hex], list[Hex]]:
    """``(enemy-occupied hexes, EZOC hexes next to them)`` against ``side``, in board order,
    whoever stands in the EZOC hexes (:func:`blocked` lifts the EZOCs friendly combat units
    stand in). Kept by the ZOC plugin's map key (the enemy units and conditions the ZOC map
    is computed from; without a ZOC plugin, every unit's placement and the weather), so a
    side's own moves reuse it."""
    answer = ctx.hook.casebook_zoc_map(ctx=ctx, side=side)
    if answer is not None:
        key: Any = (side, answer["key"])
    else:
        key = (side, placement(ctx), _weather(ctx))
    kept, found = lru_get(ctx.lasting("supply.enemy-blocks"), key, 16)
    if not found:
        occupied: set[Hex] = set()
        near: set[Hex] = set()
        for h, units in _units_by_hex(ctx).items():
            if any(u.get("side") != side for u in units):
                occupied.add(h)
                near.update(ctx.board.neighbours(h))
        kept["occupied"] = sorted(occupied)
        kept["ezoc"] = [h for h in sorted(near - occupied) if ezoc(ctx, h, side)]
    return kept["occupied"], kept["ezoc"]


def _edge(ctx: Any, edge: str) -> list[Hex]:
    """``ctx.board.edge_hexes(edge)``, found once per board."""
    cache = ctx.lasting("supply.edge", edge)
    if "hexes" not in cache:
        cache["hexes"] = ctx.board.edge_hexes(edge)
    return cache["hexes"]


@implements("5.1A", "5.1B", "5.1C")
def sources(ctx: Any, side: str) -> dict[Hex, tuple[bool, str, tuple[str, ...]]]:
    """Hex -> (usable, why, cases) for every supply source of ``side``: German west map edge
    (5.1A) and Entry Areas A/B once German units entered through them (5.1B, recorded in the
    plugin's data ``entered``); Soviet east map edge and friendly (Soviet-controlled) cities
    (5.1C). A source occupied by an enemy unit is unusable; an unoccupied one in an EZOC too,
    unless a friendly unit is there (5.1C)."""
    store = side_store(ctx, side)
    if "sources" in store:
        return store["sources"]
    found: dict[Hex, tuple[str, tuple[str, ...]]] = {}
    if side == "german":
        for h in _edge(ctx, "west"):
            found[h] = ("west map edge", ("5.1A",))
        entered = (ctx.state.plugin_data("supply") or {}).get("entered", [])
        for area in sorted(entered):
            for h in sorted(ctx.board.entry_areas.get(area, ())):
                found.setdefault(h, (f"Entry Area {area}, entered by German units", ("5.1B",)))
    else:
        for h in _edge(ctx, "east"):
            found[h] = ("east map edge", ("5.1C",))
        for h, town in ctx.board.towns().items():
            if town.get("kind") == "city" and ctx.state.control(hex_label(h)) == side:
                found.setdefault(h, (f"friendly city {town.get('name', '')}".strip(), ("5.1C",)))
    by_hex = _units_by_hex(ctx)
    block = blocked(ctx, side)
    out: dict[Hex, tuple[bool, str, tuple[str, ...]]] = {}
    for h, (why, cases) in found.items():
        units = by_hex.get(h, ())
        if any(u.get("side") != side for u in units):
            out[h] = (False, f"{why}: occupied by an enemy unit", (*cases, "5.1C"))
        elif h in block and not units:
            out[h] = (False, f"{why}: unoccupied and in an enemy ZOC", (*cases, "5.1C"))
        else:
            out[h] = (True, why, cases)
    store["sources"] = out
    return out


def _usable(ctx: Any, side: str) -> set[Hex]:
    store = side_store(ctx, side)
    if "usable" not in store:
        store["usable"] = {h for h, (ok, _, _) in sources(ctx, side).items() if ok}
    return store["usable"]


def _line_kinds(side: str) -> tuple[str, ...]:
    """Lines a supply path may follow: road and trail (5.2B); the Soviets also rail (5.2C)."""
    return ("road", "trail", "rail") if side == "soviet" else ("road", "trail")


def _line_edges(ctx: Any, side: str) -> list[tuple[Hex, Hex, bool]]:
    """The hexsides a line of ``side`` crosses (5.2B-C), in board order, each with whether
    only a rail crosses it (once per board)."""
    kinds = _line_kinds(side)
    cache = ctx.lasting("supply.line-edges", kinds)
    if "edges" not in cache:
        cache["edges"] = [(a, b, not (data.get("road") or data.get("trail")))
                          for a, b, data in ctx.board.graph.edges(data=True)
                          if any(data.get(k) for k in kinds)]
    return cache["edges"]


def _line_adj(ctx: Any, side: str) -> tuple[dict[int, list[int]], dict[tuple[int, int], bool]]:
    """The whole line network of ``side`` as board indices (once per board): each line hex's
    neighbours through line hexsides, in board order, and whether only a rail crosses each."""
    cache = ctx.lasting("supply.line-adj", _line_kinds(side))
    if "adj" not in cache:
        ix = search.board_index(ctx).index
        adj: dict[int, list[int]] = {}
        rail: dict[tuple[int, int], bool] = {}
        for a, b, rail_only in _line_edges(ctx, side):
            i, j = ix[a], ix[b]
            adj.setdefault(i, []).append(j)
            adj.setdefault(j, []).append(i)
            rail[i, j] = rail[j, i] = rail_only
        cache["adj"], cache["rail"] = adj, rail
    return cache["adj"], cache["rail"]


def _closed(ctx: Any, side: str) -> frozenset[int]:
    """Board indices of the blocked hexes a path may end in but not pass: all but usable sources."""
    store = side_store(ctx, side)
    if "closed" not in store:
        ix = search.board_index(ctx).index
        usable = _usable(ctx, side)
        store["closed"] = frozenset(ix[h] for h in blocked(ctx, side) if h not in usable)
    return store["closed"]


@implements("5.2B", "5.2C", "5.2D")
def _line_graph(ctx: Any, side: str) -> tuple[dict[int, int], dict[int, int]]:
    """The line network of ``side`` from its usable sources (5.2D: the path enters and leaves by
    the line's hexsides), through no blocked hex (5.4, 7.4) but usable sources: the hop count
    from the nearest usable source to each line hex reached and the hex each was reached from
    (board indices).

    A breadth-first search reads the blocked status of the hexes it reaches and of their line
    neighbours only; the last results per side are kept (``ctx.lasting``) with those hexes, and
    one is reused, unchanged, when the sources are the same and no hex it read changed status
    (a move far from the line leaves it alone)."""
    store = side_store(ctx, side)
    if "line" in store:
        return store["line"]
    adj, _ = _line_adj(ctx, side)
    closed = _closed(ctx, side)
    ix = search.board_index(ctx).index
    starts = tuple(i for i in (ix[h] for h in sorted(_usable(ctx, side)))
                   if any(n not in closed for n in adj.get(i, ())))
    kept = ctx.lasting("supply.line-runs").setdefault(side, {})
    found = None
    for run in kept.values():
        if run["starts"] == starts and _untouched(run["closed"] ^ closed, run["read"]):
            found = run
            break
    if found is None:
        dist, pred = search.bfs(starts, adj, closed)
        read = set(dist)
        for i in dist:
            read.update(adj.get(i, ()))
        found = {"starts": starts, "closed": closed, "read": frozenset(read), "result": (dist, pred),
                 "stamp": next(_STAMPS)}
    lru_get(kept, (starts, closed), _RUNS_KEPT)[0].update(found)
    store["line"] = found["result"]
    store["line-stamp"] = found["stamp"]
    return store["line"]


#: How many searches per side (line) or per side and TEC row (backward maps) are kept for reuse.
_RUNS_KEPT = 8
#: Line searches are told apart by a stamp (never reused, unlike ``id``).
_STAMPS = itertools.count()


def _untouched(changed: frozenset[int], read: Any) -> bool:
    """No hex whose status ``changed`` is one a search ``read`` (a set or dict of indices)."""
    return not any(i in read for i in changed)


def line_supplied(ctx: Any, side: str) -> set[Hex]:
    """Line hexes (5.2B-D) from which an unbroken line leads to a usable source."""
    store = side_store(ctx, side)
    if "line-set" not in store:
        hexes = search.board_index(ctx).hexes
        store["line-set"] = {hexes[i] for i in _line_graph(ctx, side)[0]}
    return store["line-set"]


def line_path(ctx: Any, side: str, h: Hex) -> tuple[list[Hex], bool]:
    """The line path from ``h`` to its nearest usable source and whether it uses a rail-only
    hexside (route "rail" rather than "road")."""
    index = search.board_index(ctx)
    _, pred = _line_graph(ctx, side)
    _, rail = _line_adj(ctx, side)
    path = search.path_to_source(pred, index.index[h])
    return [index.hexes[i] for i in path], any(rail[a, b] for a, b in zip(path, path[1:]))


def _tec_cost(ctx: Any, unit: Mapping[str, Any], a: Hex, b: Hex) -> int | None:
    """TEC fallback (9.2A-B through the ``move_cost`` script) when no plugin answers
    ``casebook_move_cost``: entering ``b`` from ``a``; None when prohibited (99)."""
    side = ctx.board.side(a, b)
    info = ctx.board.hex(b)
    if side.road or side.trail:
        terrain = "road" if side.road else "trail"
    elif info.town is not None and info.town.get("kind") in ("town", "city"):
        terrain = info.town["kind"]
    else:
        terrain = info.terrain
    feature = "none"
    bridged = (side.road or side.trail) and ctx.state.setting("road_bridges", "bridged") == "bridged"
    if not bridged:
        for f in ("major_river", "canal", "river"):
            if getattr(side, f):
                feature = f
                break
    temperature, ground = _weather(ctx)
    cost = ctx.value("move_cost", {
        "hex_terrain": terrain, "move_class": move_class(ctx, unit), "hexside_feature": feature,
        "ground": ground, "temperature": temperature, "fluid_ezoc_to_ezoc": False, "overrun": False})
    return None if cost >= 99 else cost


def _step_costs(ctx: Any, unit: Mapping[str, Any]) -> search.StepCosts:
    """The step costs of units moving like ``unit`` under the weather and settings in force:
    terrain, hexside, weather and the TEC row only (see ``_supply_search``), so they are kept
    across state changes."""
    cache = ctx.lasting("supply.steps", move_class(ctx, unit), *_weather(ctx), *settings(ctx))
    costs = cache.get("costs")
    if costs is None:
        costs = cache["costs"] = search.StepCosts(search.board_index(ctx))
    return costs


def search_row(ctx: Any, uid: str) -> str:
    """The TEC row whose backward searches serve unit ``uid``: the first row seen (in this
    weather and settings) whose cost for every kind of step equals that of the unit's own row
    (9.2A: rows printed alike, e.g. infantry and remnants, move alike), so one search serves
    them all."""
    unit = ctx.state.unit(uid)
    cls = move_class(ctx, unit)
    rows = ctx.lasting("supply.rows", *_weather(ctx), *settings(ctx))
    found = rows.get(cls)
    if found is None:
        row = _step_costs(ctx, unit).row(_asker(ctx, uid))
        found = rows[cls] = rows.setdefault(row, cls)
    return found


def _asker(ctx: Any, uid: str) -> search.Ask:
    """MP for a unit moving like ``uid`` to enter ``b`` from ``a``: the movement cost hook
    (mode ``supply``), else the TEC (:func:`_tec_cost`)."""
    unit = ctx.state.unit(uid)

    def ask(a: Hex, b: Hex) -> float | None:
        answer = ctx.hook.casebook_move_cost(ctx=ctx, units=[uid], from_hex=hex_label(a),
                                             to_hex=hex_label(b), mode="supply")
        return answer.get("mp") if answer is not None else _tec_cost(ctx, unit, a, b)
    return ask


def _index_sets(ctx: Any, side: str) -> tuple[frozenset[int], tuple[int, ...], frozenset[int]]:
    """``(closed, targets, target set)`` as board indices: the blocked hexes a path may end in
    but not pass (all but usable sources), and the usable sources and line hexes in the order
    networkx would take them (iteration order of the set ``usable | line``)."""
    store = side_store(ctx, side)
    if "index-sets" not in store:
        ix = search.board_index(ctx).index
        targets = tuple(ix[h] for h in _usable(ctx, side) | line_supplied(ctx, side))
        store["index-sets"] = (_closed(ctx, side), targets, frozenset(targets))
    return store["index-sets"]


def _reverse_map(ctx: Any, side: str, uid: str, limit: int) -> tuple[dict[int, float], dict[int, int]]:
    """MPs from every hex (board index) to the nearest usable source or line hex of ``side``
    for units moving like ``uid`` — one multi-source Dijkstra from the targets, searching the
    graph backwards with the forward step costs — and the hex each is reached from. Kept per
    side store and TEC row.

    A blocked hex (5.4, 7.4) may end a path (it is where the unit stands) but is never passed.
    The search reads the blocked status only of the hexes it settles; the last searches per
    side and TEC row are kept (``ctx.lasting``) and one is reused, unchanged, when the targets
    are the same and no hex it settled changed status."""
    store = side_store(ctx, side)
    unit = ctx.state.unit(uid)
    cls = search_row(ctx, uid)
    key = ("reverse", cls, limit)
    if key not in store:
        closed, targets, _ = _index_sets(ctx, side)
        kept = ctx.lasting("supply.reverse").setdefault((side, cls, _weather(ctx), settings(ctx), limit), {})
        found = None
        for run in kept.values():
            if run["targets"] == targets and _untouched(run["closed"] ^ closed, run["map"][0]):
                found = run
                break
        if found is None:
            costs, ask = _step_costs(ctx, unit), _asker(ctx, uid)
            found = {"targets": targets, "closed": closed, "answers": {},
                     "map": search.dijkstra(targets, limit, lambda x: costs.into(x, ask), closed)}
        lru_get(kept, (targets, closed), _RUNS_KEPT)[0].update(found)
        store[key] = found["map"]
        store[("reverse-answers", cls, limit)] = found["answers"]
    return store[key]


def kept_answers(ctx: Any, uid: str, limit: int) -> tuple[dict[Any, Any], tuple[Any, ...]]:
    """Where to keep the answer of a unit whose own trace reaches a source or line hex, and
    its key: ``(answers, key)``. Such an answer depends only on the unit's hex, the backward map
    of its TEC row, the line search and the usable sources, so it is kept with the backward
    map (which outlives placements that leave it unchanged) under the unit's id and hex, the
    line search's stamp and the usable sources."""
    side = side_of(ctx, uid)
    store = side_store(ctx, side)
    cls = search_row(ctx, uid)
    _reverse_map(ctx, side, uid, limit)
    _line_graph(ctx, side)
    if "usable-key" not in store:
        store["usable-key"] = frozenset(_usable(ctx, side))
    return (store[("reverse-answers", cls, limit)],
            (uid, ctx.state.unit(uid)["hex"], store["line-stamp"], store["usable-key"]))


@implements("5.2A", "5.2B", "5.2C")
def trace_mp(ctx: Any, uid: str, limit: int, why: bool = True) -> dict[str, Any]:
    """The cheapest supply path of at most ``limit`` MPs from unit ``uid`` to a usable source
    or a line hex leading to one, MPs counted with the movement cost hook (mode ``supply``).

    Return: ``{"target": Hex or None, "kind": "source"|"line"|None, "mp", "path": [Hex…],
    "blocked": {Hex: (reason, cases)}}`` — ``blocked`` holds the blocked hexes met on the way
    (searched only when no path is found and ``why``, to say what stops it: see
    :func:`blocked_met`).
    """
    side = side_of(ctx, uid)
    start = unit_hex(ctx, uid)
    usable = _usable(ctx, side)
    index = search.board_index(ctx)
    dist, pred = _reverse_map(ctx, side, uid, limit)
    here = index.index[start]
    if here in dist:
        path = [index.hexes[i] for i in search.path_to_source(pred, here)]
        target = path[-1]
        return {"target": target, "kind": "source" if target in usable else "line",
                "mp": dist[here], "path": path, "blocked": {}}
    return {"target": None, "kind": None, "mp": None, "path": [],
            "blocked": blocked_met(ctx, uid, limit) if why else {}}


def blocked_met(ctx: Any, uid: str, limit: int) -> dict[Hex, tuple[str, tuple[str, ...]]]:
    """What stops unit ``uid``'s supply path (5.4, 7.4, 5.1C): the blocked hexes next to a hex
    a search of ``limit`` MPs from the unit reaches before a source or line (where a path would
    end), and the unusable sources it reaches or touches."""
    side = side_of(ctx, uid)
    index = search.board_index(ctx)
    start = index.index[unit_hex(ctx, uid)]
    block = blocked(ctx, side)
    closed, _, targets = _index_sets(ctx, side)
    costs, ask, adj = _step_costs(ctx, ctx.state.unit(uid)), _asker(ctx, uid), index.adj
    met: set[int] = set()

    def steps(u: int) -> list[tuple[int, float]]:
        out = []
        for v in adj[u]:
            if v in closed:
                met.add(v)
                continue
            mp = costs.cost(u, v, ask)
            if mp is not None:
                out.append((v, mp))
        return out

    reached, _ = search.dijkstra([start], limit, steps, targets - {start})
    found = {index.hexes[i]: block[index.hexes[i]] for i in met}
    for h, (ok, why, cases) in sources(ctx, side).items():
        if not ok and (index.index[h] in reached or any(index.index[n] in reached for n in ctx.board.neighbours(h))):
            found[h] = (why, cases)
    return found


def _hq_reach(ctx: Any, side: str, hq_hex: Hex, radius: int) -> dict[Hex, list[Hex]]:
    """Shortest hex paths from an HQ through unblocked hexes, up to ``radius`` hexes (one
    breadth-first search per HQ and side store)."""
    store = side_store(ctx, side)
    key = ("hq-reach", hq_hex, radius)
    if key not in store:
        store[key] = ctx.board.paths_within(hq_hex, radius, blocked(ctx, side))
    return store[key]


@implements("5.3", "8.1A", "8.1B")
def radius_path(ctx: Any, side: str, hq_hex: Hex, target: Hex, radius: int) -> list[Hex] | None:
    """The shortest path of hexes from an HQ to ``target`` of at most ``radius`` hexes (0.2.4.8:
    the target's hex counts, the HQ's does not), through no blocked hex but its two ends
    (5.2A, 5.4, 7.4, 8.1B); None if there is none. Terrain and weather do not count (8.1A, 8.1D)."""
    return ctx.board.path_within(_hq_reach(ctx, side, hq_hex, radius), target, radius)
