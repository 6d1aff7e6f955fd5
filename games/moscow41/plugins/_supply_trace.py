"""Supply traces for the Moscow '41 `supply` plugin (5.2B-D): the line network, the backward
maps of the cross-country part, and each unit's trace: private helper.

Hexes are :class:`~casebook.core.hexgrid.Hex` at this module's edges and board indices inside.
What a map depends on is named in the side store's key (``_supply_keys``); on top of that the
searches here are kept by what they *read* (``ctx.lasting``) and reused unchanged when a placement
leaves every hex they read as it was:

- ``line_supplied(ctx, side)`` / ``line_path`` — the road/trail (Soviet: also rail) hexes from
  which an unbroken line leads to a usable source, following the line through its hexsides
  (5.2B-D): one breadth-first search per side;
- ``trace_mp(ctx, uid)`` — the cheapest path of at most ``supply_path_mp`` MPs (5.2B-C) from a
  unit to a usable source or to such a line hex: one backward Dijkstra per side and group of TEC
  rows with equal step costs (``search_row``), on step costs kept per weather (``casebook.areas._supply_search``);
- ``kept_answers`` — where a traced unit's answer is kept with the map that traced it;
- ``blocked_met(ctx, uid)`` — what stops an unsupplied unit's path.

The kept searches themselves are the shared area's (``casebook.areas._supply_trace``: line search,
backward map, blocked hexes met); this module gives them Moscow '41's sources, blocked hexes, TEC
rows and step costs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casebook.areas import _supply_search as index_
from casebook.areas import _supply_trace as trace_area
from casebook.areas import search
from casebook.areas.supply import line_network, lru_get
from casebook.content.cases import implements
from casebook.content.packcache import board_table
from casebook.core.hexgrid import Hex, hex_label
from casebook.games.moscow41.plugins._supply_keys import settings, side_store, weather
from casebook.games.moscow41.plugins._supply_paths import (
    blocked,
    move_class,
    side_of,
    sources,
    unit_hex,
)
from casebook.games.moscow41.plugins._supply_paths import (
    closed_indices as _closed,
)
from casebook.games.moscow41.plugins._supply_paths import (
    usable as _usable,
)

__all__ = ["line_supplied", "line_path", "search_row", "trace_mp", "kept_answers", "ANSWERS_KEPT",
           "blocked_met"]

_weather = weather


@implements("5.2B", "5.2C", "5.2D")
def _line_adj(ctx: Any, side: str) -> tuple[dict[int, list[int]], dict[tuple[int, int], bool]]:
    """The line network of ``side`` (the supply area's ``line_network``: the kinds of line the
    ``supply_line`` lines allow, 5.2B-C, through the hexsides the line crosses, 5.2D)."""
    return line_network(ctx, side)


@implements("5.2B", "5.2C", "5.2D")
def _line_graph(ctx: Any, side: str) -> tuple[dict[int, int], dict[int, int]]:
    """The line network of ``side`` from its usable sources (5.2D: the path enters and leaves by
    the line's hexsides), through no blocked hex (5.4, 7.4) but usable sources: the shared area's
    kept ``line_search`` (hop counts and predecessors, board indices)."""
    store = side_store(ctx, side)
    found = store.get("line")  # kept in the store: asked once per unit answer
    return found if found is not None else trace_area.line_search(ctx, side, store, _usable(ctx, side),
                                                                  _closed(ctx, side))


def line_supplied(ctx: Any, side: str) -> set[Hex]:
    """Line hexes (5.2B-D) from which an unbroken line leads to a usable source."""
    store = side_store(ctx, side)
    found = store.get("line-set")
    return found if found is not None else trace_area.line_hexes(ctx, side, store, _usable(ctx, side),
                                                                 _closed(ctx, side))


def line_path(ctx: Any, side: str, h: Hex) -> tuple[list[Hex], bool]:
    """The line path from ``h`` to its nearest usable source and whether it uses a rail-only
    hexside (route "rail" rather than "road")."""
    return trace_area.line_path(ctx, side, _line_graph(ctx, side)[1], h)


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


def _step_costs(ctx: Any, unit: Mapping[str, Any]) -> index_.StepCosts:
    """The step costs of units moving like ``unit`` under the weather and settings in force:
    terrain, hexside, weather and the TEC row only (see ``_supply_search``), so they are kept
    across state changes."""
    cache = ctx.lasting("supply.steps", move_class(ctx, unit), *_weather(ctx), *settings(ctx))
    costs = cache.get("costs")
    if costs is None:
        costs = cache["costs"] = index_.StepCosts(index_.board_index(ctx))
    return costs


def search_row(ctx: Any, uid: str) -> str:
    """The TEC row whose backward searches serve unit ``uid``: the first row seen (in this
    weather and settings) whose cost for every kind of step equals that of the unit's own row
    (9.2A: rows printed alike, e.g. infantry and remnants, move alike), so one search serves
    them all."""
    unit = ctx.state.unit(uid)
    cls = move_class(ctx, unit)
    rows = ctx.memo.get(("supply", "rows"))
    if rows is None:
        rows = ctx.memo[("supply", "rows")] = ctx.lasting("supply.rows", *_weather(ctx), *settings(ctx))
    found = rows.get(cls)
    if found is None:
        row = _row(ctx, uid, unit, cls)
        found = rows[cls] = rows.setdefault(row, cls)
    return found


def _row(ctx: Any, uid: str, unit: Mapping[str, Any], cls: str) -> tuple[float | None, ...]:
    """The step costs of every kind of step for units moving like ``uid`` (class ``cls``). While an
    answer records its lines (``casebook ask``, ``why``: no play event collecting lines) the row
    is kept in the pack cache beside the board with the rule-script lines that made it
    (``Engine.lines_apart``; noted again when reused), so a warm ``ask`` asks no movement cost:
    2,000 of them for the Soviet side of the full map (``ask drop``, issue #18). Keyed by the
    pack, the class, the weather, the settings and the sources of the movement-cost code (the
    shared areas and the game's registered plugins)."""
    costs = _step_costs(ctx, unit)
    if not ctx.engine.recording or ctx.event_lines is not None:
        return costs.row(_asker(ctx, uid))

    def build(_board: Any) -> tuple[tuple[float | None, ...], list[dict[str, Any]]]:
        with ctx.engine.lines_apart() as lines:
            made = index_.StepCosts(index_.board_index(ctx)).row(_asker(ctx, uid))
        return made, list(lines.values())

    made, lines = board_table(ctx.board, "steprow", build, _code_hash(ctx), repr((cls, _weather(ctx), settings(ctx))))
    ctx.engine.note_entries(lines)
    costs.preload(made)
    return made


_CODE: dict[int, str] = {}


def _code_hash(ctx: Any) -> str:
    """SHA-256 over the sources of the shared areas and of every plugin module registered for the
    game (what a movement cost may run), once per engine."""
    found = _CODE.get(id(ctx.engine))
    if found is None:
        import hashlib
        from pathlib import Path

        import casebook.areas

        files = sorted(Path(casebook.areas.__file__).parent.glob("*.py"))
        files += [Path(m.__file__) for m in ctx.engine.pm.modules.values() if getattr(m, "__file__", None)]
        h = hashlib.sha256()
        for f in files:
            h.update(str(f.name).encode() + b"\0" + f.read_bytes())
        found = _CODE[id(ctx.engine)] = h.hexdigest()
    return found


def _asker(ctx: Any, uid: str) -> index_.Ask:
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
        line = line_supplied(ctx, side)
        by_usable = store["line-derived"].setdefault("targets", {})
        key = _usable_key(ctx, side)
        found = by_usable.get(key)
        if found is None:
            ix = index_.board_index(ctx).index
            targets = tuple(ix[h] for h in _usable(ctx, side) | line)
            found = by_usable[key] = (targets, frozenset(targets))
        store["index-sets"] = (_closed(ctx, side), *found)
    return store["index-sets"]


def _usable_key(ctx: Any, side: str) -> frozenset[Hex]:
    store = side_store(ctx, side)
    if "usable-key" not in store:
        store["usable-key"] = frozenset(_usable(ctx, side))
    return store["usable-key"]


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
    cls = search_row(ctx, uid)
    key = ("reverse", cls, limit)
    if key not in store:
        closed, targets, _ = _index_sets(ctx, side)
        kept, _ = lru_get(ctx.lasting("supply.reverse"), (side, cls, _weather(ctx), settings(ctx), limit), 8)
        store[key] = trace_area.backward_map(kept, targets, closed, limit,
                                             _step_costs(ctx, ctx.state.unit(uid)), _asker(ctx, uid))
    return store[key]


def kept_answers(ctx: Any, uid: str, limit: int) -> tuple[dict[Any, Any], tuple[Any, ...]] | None:
    """Where to keep the answer of a unit whose own trace reaches a source or line hex, and its
    key: ``(answers, key)``; None when its own trace fails. Such an answer depends only on the
    unit, its path (board indices) and MPs, the line search (by stamp) and the usable sources,
    so it is kept (``ctx.lasting``, the last :data:`ANSWERS_KEPT`) under exactly these: a
    placement that leaves a unit's path as it was finds its answer made."""
    side = side_of(ctx, uid)
    store = side_store(ctx, side)
    dist, pred = _reverse_map(ctx, side, uid, limit)
    here = index_.board_index(ctx).index[unit_hex(ctx, uid)]
    if here not in dist:
        return None
    _line_graph(ctx, side)
    return (ctx.lasting("supply.answers"),
            (uid, tuple(search.walk_back(pred, here)), dist[here], store["line-stamp"],
             _usable_key(ctx, side)))


#: How many traced answers :func:`kept_answers` keeps.
ANSWERS_KEPT = 4096


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
    index = index_.board_index(ctx)
    dist, pred = _reverse_map(ctx, side, uid, limit)
    here = index.index[start]
    if here in dist:
        path = [index.hexes[i] for i in search.walk_back(pred, here)]
        target = path[-1]
        return {"target": target, "kind": "source" if target in usable else "line",
                "mp": dist[here], "path": path, "blocked": {}}
    return {"target": None, "kind": None, "mp": None, "path": [],
            "blocked": blocked_met(ctx, uid, limit) if why else {}}


def blocked_met(ctx: Any, uid: str, limit: int) -> dict[Hex, tuple[str, tuple[str, ...]]]:
    """What stops unit ``uid``'s supply path (5.4, 7.4, 5.1C): the blocked hexes next to a hex
    a search of ``limit`` MPs from the unit reaches before a source or line (where a path would
    end), and the unusable sources it reaches or touches.

    The search reads only the hexes it reaches and their neighbours; its result is kept
    (``ctx.lasting``) with what it read there — which of them are closed or targets, the
    reasons of the blocked ones, the unusable sources among them — and reused while all of
    that is unchanged (an unsupplied unit is asked about after every move)."""
    side = side_of(ctx, uid)
    closed, _, targets = _index_sets(ctx, side)
    start = unit_hex(ctx, uid)
    key = (side, index_.board_index(ctx).index[start], search_row(ctx, uid), _weather(ctx), settings(ctx), limit)
    return trace_area.blocked_met(ctx, key, start, limit, _step_costs(ctx, ctx.state.unit(uid)),
                                  _asker(ctx, uid), blocked(ctx, side), closed, targets, _unusable(ctx, side))


def _unusable(ctx: Any, side: str) -> dict[Hex, tuple[str, tuple[str, ...]]]:
    """The unusable supply sources of ``side`` with why (once per side store)."""
    store = side_store(ctx, side)
    if "unusable" not in store:
        store["unusable"] = {h: (why, cases) for h, (ok, why, cases) in sources(ctx, side).items() if not ok}
    return store["unusable"]
