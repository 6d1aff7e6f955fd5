"""Supply path search for the Moscow '41 `supply` plugin (5.1-5.4, 7.4): private helper.

Hexes are :class:`~casebook.kernel.hexgrid.Hex` inside this module, labels (``"0303"``) at its
edges. Every derived map is cached per context in ``ctx.memo`` (dropped by ``ctx.changed()``):

- ``blocked(ctx, side)`` — hexes a supply path of ``side`` cannot pass (5.4A enemy units; 5.4B,
  7.4 EZOCs without a friendly non-remnant combat unit), each with its reason and cases;
- ``sources(ctx, side)`` — supply source hexes and whether each is usable (5.1A-C);
- ``line_supplied(ctx, side)`` — the road/trail (Soviet: also rail) hexes from which an unbroken
  line leads to a usable source, following the line through its hexsides (5.2B-D);
- ``trace_mp(ctx, uid)`` — the cheapest path of at most ``supply_path_mp`` MPs (5.2B-C) from a
  unit to a usable source or to such a line hex (networkx Dijkstra with a cutoff).
"""

from __future__ import annotations

from typing import Any, Mapping

import networkx as nx

from casebook.kernel.cases import implements
from casebook.kernel.hexgrid import Hex, hex_label, parse_hex

__all__ = [
    "NON_COMBAT", "is_combat", "side_of", "unit_hex", "move_class", "ezoc", "blocked", "sources",
    "line_supplied", "line_path", "trace_mp", "radius_path",
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


def _weather(ctx: Any) -> tuple[str, str]:
    w = ctx.state.weather or {}
    return w.get("temperature", "warm"), w.get("ground", "dry")


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
    key = ("supply", "blocked", side)
    if key in ctx.memo:
        return ctx.memo[key]
    by_hex = _units_by_hex(ctx)
    out: dict[Hex, tuple[str, tuple[str, ...]]] = {}
    near: set[Hex] = set()
    for h, units in by_hex.items():
        if any(u.get("side") != side for u in units):
            out[h] = _ENEMY
            near.update(ctx.board.neighbours(h))
    for h in sorted(near - set(out)):
        friends = [u for u in by_hex.get(h, ()) if u.get("side") == side and is_combat(u)]
        if not friends and ezoc(ctx, h, side):
            out[h] = _EZOC
    ctx.memo[key] = out
    return out


@implements("5.1A", "5.1B", "5.1C")
def sources(ctx: Any, side: str) -> dict[Hex, tuple[bool, str, tuple[str, ...]]]:
    """Hex -> (usable, why, cases) for every supply source of ``side``: German west map edge
    (5.1A) and Entry Areas A/B once German units entered through them (5.1B, recorded in the
    plugin's data ``entered``); Soviet east map edge and friendly (Soviet-controlled) cities
    (5.1C). A source occupied by an enemy unit is unusable; an unoccupied one in an EZOC too,
    unless a friendly unit is there (5.1C)."""
    key = ("supply", "sources", side)
    if key in ctx.memo:
        return ctx.memo[key]
    found: dict[Hex, tuple[str, tuple[str, ...]]] = {}
    if side == "german":
        for h in ctx.board.edge_hexes("west"):
            found[h] = ("west map edge", ("5.1A",))
        entered = (ctx.state.plugin_data("supply") or {}).get("entered", [])
        for area in sorted(entered):
            for h in sorted(ctx.board.entry_areas.get(area, ())):
                found.setdefault(h, (f"Entry Area {area}, entered by German units", ("5.1B",)))
    else:
        for h in ctx.board.edge_hexes("east"):
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
    ctx.memo[key] = out
    return out


def _usable(ctx: Any, side: str) -> set[Hex]:
    return {h for h, (ok, _, _) in sources(ctx, side).items() if ok}


def _line_kinds(side: str) -> tuple[str, ...]:
    """Lines a supply path may follow: road and trail (5.2B); the Soviets also rail (5.2C)."""
    return ("road", "trail", "rail") if side == "soviet" else ("road", "trail")


@implements("5.2B", "5.2C", "5.2D")
def _line_graph(ctx: Any, side: str) -> tuple[nx.Graph, dict[Hex, int], dict[Hex, list[Hex]]]:
    """The line network of ``side``: unblocked hexes (and usable sources) joined only through
    hexsides a road/trail/rail crosses (5.2D: the path enters and leaves by the line's
    hexsides); with the hop count and path from the nearest usable source to each hex."""
    key = ("supply", "line", side)
    if key in ctx.memo:
        return ctx.memo[key]
    kinds = _line_kinds(side)
    block = blocked(ctx, side)
    usable = _usable(ctx, side)
    g = nx.Graph()
    for a, b, data in ctx.board.graph.edges(data=True):
        if not any(data.get(k) for k in kinds):
            continue
        if (a in block and a not in usable) or (b in block and b not in usable):
            continue
        g.add_edge(a, b, rail_only=not (data.get("road") or data.get("trail")))
    starts = [h for h in sorted(usable) if h in g]
    dist, paths = ({}, {}) if not starts else nx.multi_source_dijkstra(g, starts, weight=lambda u, v, d: 1)
    ctx.memo[key] = (g, dist, paths)
    return ctx.memo[key]


def line_supplied(ctx: Any, side: str) -> set[Hex]:
    """Line hexes (5.2B-D) from which an unbroken line leads to a usable source."""
    return set(_line_graph(ctx, side)[1])


def line_path(ctx: Any, side: str, h: Hex) -> tuple[list[Hex], bool]:
    """The line path from ``h`` to its nearest usable source and whether it uses a rail-only
    hexside (route "rail" rather than "road")."""
    g, _, paths = _line_graph(ctx, side)
    path = list(reversed(paths[h]))
    rail = any(g.edges[a, b]["rail_only"] for a, b in zip(path, path[1:]))
    return path, rail


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


def _cost_table(ctx: Any, uid: str) -> tuple[dict[tuple[Hex, Hex], float | None], Any]:
    """The step costs of a unit moving like ``uid`` — ``(a, b) -> MP to enter b from a`` —
    and a function filling a missing entry. Terrain, hexside and weather only, so the table is
    kept across state changes for the weather and settings it depends on."""
    unit = ctx.state.unit(uid)
    temperature, ground = _weather(ctx)
    cls = move_class(ctx, unit)
    table = ctx.lasting("supply.cost", cls, temperature, ground,
                        ctx.state.setting("road_bridges", "bridged"),
                        ctx.state.setting("hq_movement_class", "by_mechanized"))

    def fill(a: Hex, b: Hex) -> float | None:
        answer = ctx.hook.casebook_move_cost(ctx=ctx, units=[uid], from_hex=hex_label(a),
                                             to_hex=hex_label(b), mode="supply")
        cost = answer.get("mp") if answer is not None else _tec_cost(ctx, unit, a, b)
        table[a, b] = cost
        return cost

    return table, fill


def _cost(ctx: Any, uid: str, a: Hex, b: Hex) -> float | None:
    """MP for a unit moving like ``uid`` to enter ``b`` from ``a`` (see :func:`_cost_table`)."""
    table, fill = _cost_table(ctx, uid)
    try:
        return table[a, b]
    except KeyError:
        return fill(a, b)


def _reverse_map(ctx: Any, side: str, uid: str, limit: int) -> tuple[dict[Hex, float], dict[Hex, list[Hex]]]:
    """MPs from every hex to the nearest usable source or line hex of ``side`` for units moving
    like ``uid`` (one multi-source Dijkstra from the targets, searching the graph backwards with
    the forward step costs), cached per state version and TEC row.

    A blocked hex (5.4, 7.4) may end a path (it is where the unit stands) but is never passed.
    """
    unit = ctx.state.unit(uid)
    key = ("supply", "reverse", side, move_class(ctx, unit), limit)
    if key not in ctx.memo:
        usable = _usable(ctx, side)
        closed = {h for h in blocked(ctx, side) if h not in usable}
        targets = usable | line_supplied(ctx, side)
        table, fill = _cost_table(ctx, uid)

        def weight(x: Hex, y: Hex, _d: Any) -> float | None:  # the forward step y -> x
            if x in closed:
                return None
            cost = table.get((y, x), fill)
            return fill(y, x) if cost is fill else cost

        if targets:
            dist, back = nx.multi_source_dijkstra(ctx.board.graph, targets, cutoff=limit, weight=weight)
        else:
            dist, back = {}, {}
        ctx.memo[key] = (dist, back)
    return ctx.memo[key]


@implements("5.2A", "5.2B", "5.2C")
def trace_mp(ctx: Any, uid: str, limit: int) -> dict[str, Any]:
    """The cheapest supply path of at most ``limit`` MPs from unit ``uid`` to a usable source
    or a line hex leading to one, MPs counted with the movement cost hook (mode ``supply``).

    Return: ``{"target": Hex or None, "kind": "source"|"line"|None, "mp", "path": [Hex…],
    "blocked": {Hex: (reason, cases)}}`` — ``blocked`` holds the blocked hexes met on the way
    (searched only when no path is found, to say what stops it).
    """
    side = side_of(ctx, uid)
    start = unit_hex(ctx, uid)
    usable = _usable(ctx, side)
    dist, back = _reverse_map(ctx, side, uid, limit)
    if start in dist:
        path = list(reversed(back[start]))
        target = path[-1]
        return {"target": target, "kind": "source" if target in usable else "line",
                "mp": dist[start], "path": path, "blocked": {}}
    block = blocked(ctx, side)
    line = line_supplied(ctx, side)
    met: dict[Hex, tuple[str, tuple[str, ...]]] = {}

    def weight(u: Hex, v: Hex, _d: Any) -> float | None:
        if u != start and (u in usable or u in line):
            return None  # the path ends at a source or on the line
        if v in block and v not in usable:
            met[v] = block[v]
            return None
        return _cost(ctx, uid, u, v)

    reached = nx.single_source_dijkstra_path_length(ctx.board.graph, start, cutoff=limit, weight=weight)
    for h, (ok, why, cases) in sources(ctx, side).items():
        if not ok and (h in reached or any(n in reached for n in ctx.board.neighbours(h))):
            met[h] = (why, cases)
    return {"target": None, "kind": None, "mp": None, "path": [], "blocked": met}


def _hq_reach(ctx: Any, side: str, hq_hex: Hex, radius: int) -> dict[Hex, list[Hex]]:
    """Shortest hex paths from an HQ through unblocked hexes, up to ``radius`` hexes (one
    breadth-first search per HQ and state version)."""
    key = ("supply", "hq-reach", side, hq_hex, radius)
    if key not in ctx.memo:
        ctx.memo[key] = ctx.board.paths_within(hq_hex, radius, blocked(ctx, side))
    return ctx.memo[key]


@implements("5.3", "8.1A", "8.1B")
def radius_path(ctx: Any, side: str, hq_hex: Hex, target: Hex, radius: int) -> list[Hex] | None:
    """The shortest path of hexes from an HQ to ``target`` of at most ``radius`` hexes (0.2.4.8:
    the target's hex counts, the HQ's does not), through no blocked hex but its two ends
    (5.2A, 5.4, 7.4, 8.1B); None if there is none. Terrain and weather do not count (8.1A, 8.1D)."""
    return ctx.board.path_within(_hq_reach(ctx, side, hq_hex, radius), target, radius)
