"""Supply traces for the shared supply area: the line network from a side's usable sources, the
backward maps of the cross-country part, and each unit's trace, over the maps of a game's
:class:`~casebook.areas.supply_paths.SupplyPaths`. Game-neutral: it names no side and cites no
case (the lines the game's scripts hold decide, ``areas/supply.py`` names them).

- :func:`line_supplied` / :func:`line_path` — the line hexes (``supply.line_network``) from
  which an unbroken line leads to a usable source: one breadth-first search per side;
- :func:`trace_mp` — the cheapest path of at most ``limit`` MPs (a rule-script quantity the
  caller reads) from a unit to a usable source or to such a line hex: one backward Dijkstra per
  side and group of movement-cost rows with equal step costs (:func:`search_row`), on step costs
  kept per weather and settings (``areas/_supply_search.py``);
- :func:`kept_answers` — where a traced unit's answer is kept with the map that traced it;
- :func:`answer` — a unit's supply found and kept (its own trace, else an HQ's radius), for the
  game to word and cite;
- :func:`own_trace`, :func:`by_hq`, :func:`full_path` — a unit's trace on its own (quantity
  ``supply_path_mp``: its length in MPs), the first HQ in supply on its own whose radius reaches
  it, and the whole path to the source (the line part added);
- :func:`blocked_met` — what stops an unsupplied unit's path.

A step's MP is the movement cost hook's (``casebook_move_cost``, mode ``supply``), else the
configuration's ``fallback``. Every map of a side store and every answer goes into the store
through ``ctx.kept`` (an answer keeps the lines citing a case it cites, as ``casebook ask``
does), so an event that reads a unit's supply names the lines that decided it, cold or warm;
only the searches over step costs (the backward maps, a row's costs, what stops a path) run
``apart``: they ask the movement cost of every hex they settle, lines no one answer owes. Hexes are
:class:`~casebook.core.hexgrid.Hex` at the edges, board indices inside; the kept searches
themselves are ``areas/_supply_trace.py``'s.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from casebook.content.packcache import board_table
from casebook.content.tablelines import cite_again, reads_apart
from casebook.core.hexgrid import Hex, hex_label, parse_hex

from . import _supply_search as index_
from . import _supply_trace as trace_area
from . import search
from .supply import cited, lru_get, met_enemy
from .supply_paths import SupplyPaths

__all__ = ["ANSWERS_KEPT", "answer", "path_mp", "own_trace", "supplied_hqs", "by_hq", "full_path", "line_supplied",
           "line_path", "step_costs", "asker", "search_row", "index_sets",
           "reverse_map", "kept_answers", "trace_mp", "blocked_met"]

#: How many traced answers :func:`kept_answers` keeps.
ANSWERS_KEPT = 4096


def _line_graph(cfg: SupplyPaths, ctx: Any, side: str) -> tuple[dict[int, int], dict[int, int]]:
    """The line network of ``side`` from its usable sources through no blocked hex but usable
    sources: the shared ``line_search`` (hop counts and predecessors, board indices)."""
    store = cfg.store(ctx, side)  # kept in the store with the lines of the sources and blocks it read
    return ctx.kept(store, "line", lambda: trace_area.line_search(ctx, side, store, cfg.usable(ctx, side),
                                                                  cfg.closed(ctx, side)))


def line_supplied(cfg: SupplyPaths, ctx: Any, side: str) -> set[Hex]:
    """Line hexes from which an unbroken line leads to a usable source."""
    store = cfg.store(ctx, side)

    def make() -> set[Hex]:  # kept with the line search (reused with it)
        dist = _line_graph(cfg, ctx, side)[0]
        derived = store["line-derived"]
        if "line-set" not in derived:
            hexes = index_.board_index(ctx).hexes
            derived["line-set"] = {hexes[i] for i in dist}
        found: set[Hex] = derived["line-set"]
        return found
    return ctx.kept(store, "line-set", make)


def line_path(cfg: SupplyPaths, ctx: Any, side: str, h: Hex) -> tuple[list[Hex], bool]:
    """The line path from ``h`` to its nearest usable source and whether it uses a rail-only
    hexside (route "rail" rather than "road")."""
    return trace_area.line_path(ctx, side, _line_graph(cfg, ctx, side)[1], h)


def step_costs(cfg: SupplyPaths, ctx: Any, unit: Mapping[str, Any]) -> index_.StepCosts:
    """The step costs of units moving like ``unit`` under the weather and settings in force:
    terrain, hexside, weather and the movement-cost row only, so they are kept across states."""
    # filled only inside the searches run apart (and _row's recording): no line is noted here
    cache = ctx.lasting(f"{cfg.name}.steps", cfg.row(ctx, unit), *cfg.weather(ctx), *cfg.settings(ctx), pause=False)
    costs = cache.get("costs")
    if costs is None:
        costs = cache["costs"] = index_.StepCosts(index_.board_index(ctx))
    return costs


def asker(cfg: SupplyPaths, ctx: Any, uid: str) -> index_.Ask:
    """MP for a unit moving like ``uid`` to enter ``b`` from ``a``: the movement cost hook
    (mode ``supply``), else the configuration's ``fallback``."""
    unit = ctx.state.unit(uid)

    def ask(a: Hex, b: Hex) -> float | None:
        answer = ctx.hook.casebook_move_cost(ctx=ctx, units=[uid], from_hex=hex_label(a),
                                             to_hex=hex_label(b), mode="supply")
        return answer.get("mp") if answer is not None else cfg.fallback(ctx, unit, a, b)
    return ask


def search_row(cfg: SupplyPaths, ctx: Any, uid: str) -> str:
    """The movement-cost row whose backward searches serve unit ``uid``: the first row seen (in
    this weather and settings) whose cost for every kind of step equals that of the unit's own
    row (rows printed alike move alike), so one search serves them all."""
    unit = ctx.state.unit(uid)
    cls = cfg.row(ctx, unit)
    rows = ctx.memo.get((cfg.name, "rows"))
    if rows is None:
        rows = ctx.memo[(cfg.name, "rows")] = ctx.lasting(f"{cfg.name}.rows", *cfg.weather(ctx), *cfg.settings(ctx),
                                                          pause=False)  # costs asked apart
    found = rows.get(cls)
    if found is None:
        if ctx.event_lines is None:
            row = _row(cfg, ctx, uid, unit, cls)
        else:  # the cost of every kind of step on the board: lines no one event owes
            with ctx.apart():
                row = _row(cfg, ctx, uid, unit, cls)
        found = rows[cls] = rows.setdefault(row, cls)
    return found


def _row(cfg: SupplyPaths, ctx: Any, uid: str, unit: Mapping[str, Any], cls: str) -> tuple[float | None, ...]:
    """The step costs of every kind of step for units moving like ``uid`` (row ``cls``). While an
    answer records its lines (``casebook ask``, ``why``: no play event collecting lines) the row
    is kept in the pack cache beside the board with the rule-script lines that made it
    (``Engine.lines_apart``; noted again when reused; the table cells it read too), so a warm ``ask``
    asks no movement cost.
    Keyed by the pack, the row, the weather, the settings and the sources of the movement-cost
    code (the shared areas and the game's registered plugins)."""
    costs = step_costs(cfg, ctx, unit)
    if not ctx.engine.recording or ctx.event_lines is not None:
        return costs.row(asker(cfg, ctx, uid))

    def build(_board: Any) -> tuple[tuple[float | None, ...], list[dict[str, Any]], tuple[Any, ...]]:
        with ctx.engine.lines_apart() as lines, reads_apart() as reads:
            made = index_.StepCosts(index_.board_index(ctx)).row(asker(cfg, ctx, uid))
        return made, list(lines.values()), tuple(reads or ())

    made, lines, reads = board_table(ctx.board, "steprow", build, _code_hash(ctx),
                                     repr((cls, cfg.weather(ctx), cfg.settings(ctx))))
    ctx.engine.note_entries(lines)
    cite_again(reads)  # and the table cells it read, as its lines (content.tablelines.reads_apart)
    costs.preload(made)
    return made


_CODE: dict[int, str] = {}


def _code_hash(ctx: Any) -> str:
    """SHA-256 over the sources of the shared areas and of every plugin module registered for the
    game (what a movement cost may run), once per engine."""
    found = _CODE.get(id(ctx.engine))
    if found is None:
        files = sorted(Path(__file__).parent.glob("*.py"))
        files += [Path(m.__file__) for m in ctx.engine.pm.modules.values() if getattr(m, "__file__", None)]
        h = hashlib.sha256()
        for f in files:
            h.update(str(f.name).encode() + b"\0" + f.read_bytes())
        found = _CODE[id(ctx.engine)] = h.hexdigest()
    return found


def index_sets(cfg: SupplyPaths, ctx: Any, side: str) -> tuple[frozenset[int], tuple[int, ...], frozenset[int]]:
    """``(closed, targets, target set)`` as board indices: the blocked hexes a path may end in
    but not pass (all but usable sources), and the usable sources and line hexes in the order
    networkx would take them (iteration order of the set ``usable | line``)."""
    store = cfg.store(ctx, side)

    def make() -> tuple[frozenset[int], tuple[int, ...], frozenset[int]]:
        line = line_supplied(cfg, ctx, side)
        _line_graph(cfg, ctx, side)
        by_usable = store["line-derived"].setdefault("targets", {})
        key = _usable_key(cfg, ctx, side)
        found = by_usable.get(key)
        if found is None:
            ix = index_.board_index(ctx).index
            targets = tuple(ix[h] for h in cfg.usable(ctx, side) | line)
            found = by_usable[key] = (targets, frozenset(targets))
        return (cfg.closed(ctx, side), *found)
    return ctx.kept(store, "index-sets", make)


def _usable_key(cfg: SupplyPaths, ctx: Any, side: str) -> frozenset[Hex]:
    return ctx.kept(cfg.store(ctx, side), "usable-key", lambda: frozenset(cfg.usable(ctx, side)))


def reverse_map(cfg: SupplyPaths, ctx: Any, side: str, uid: str, limit: int) -> tuple[dict[int, float], dict[int, int]]:
    """MPs from every hex (board index) to the nearest usable source or line hex of ``side``
    for units moving like ``uid`` — one multi-source Dijkstra from the targets, searching the
    graph backwards with the forward step costs — and the hex each is reached from. Kept per
    side store and row; the last searches per side and row are kept (``ctx.lasting``) and one is
    reused, unchanged, when the targets are the same and no hex it settled changed status."""
    store = cfg.store(ctx, side)
    cls = search_row(cfg, ctx, uid)

    def make() -> tuple[dict[int, float], dict[int, int]]:
        closed, targets, _ = index_sets(cfg, ctx, side)  # their lines kept with the map
        # apart: a Dijkstra over the whole board asks the movement cost of every hex it settles
        with ctx.apart():
            kept, _ = lru_get(ctx.lasting(f"{cfg.name}.reverse"),
                              (side, cls, cfg.weather(ctx), cfg.settings(ctx), limit), 8)
            return trace_area.backward_map(kept, targets, closed, limit,
                                           step_costs(cfg, ctx, ctx.state.unit(uid)), asker(cfg, ctx, uid))
    return ctx.kept(store, ("reverse", cls, limit), make)


def kept_answers(cfg: SupplyPaths, ctx: Any, uid: str, limit: int) -> tuple[dict[Any, Any], tuple[Any, ...]] | None:
    """Where to keep the answer of a unit whose own trace reaches a source or line hex, and its
    key: ``(answers, key)``; None when its own trace fails. Such an answer depends only on the
    unit, its path (board indices) and MPs, the line search (by stamp) and the usable sources,
    so it is kept (``ctx.lasting``, the last :data:`ANSWERS_KEPT`) under exactly these — without
    the lines that made it: :func:`answer` reads and fills it only where no lines are collected."""
    side = ctx.state.unit(uid)["side"]
    store = cfg.store(ctx, side)
    dist, pred = reverse_map(cfg, ctx, side, uid, limit)
    here = index_.board_index(ctx).index[cfg.unit_hex(ctx, uid)]
    if here not in dist:
        return None
    _line_graph(cfg, ctx, side)
    return (ctx.lasting(f"{cfg.name}.answers"),
            (uid, tuple(search.walk_back(pred, here)), dist[here], store["line-stamp"], _usable_key(cfg, ctx, side)))


def trace_mp(cfg: SupplyPaths, ctx: Any, uid: str, limit: int, why: bool = True) -> dict[str, Any]:
    """The cheapest supply path of at most ``limit`` MPs from unit ``uid`` to a usable source
    or a line hex leading to one.

    Return: ``{"target": Hex or None, "kind": "source"|"line"|None, "mp", "path": [Hex…],
    "blocked": {Hex: (reason, cases)}}`` — ``blocked`` holds the blocked hexes met on the way
    (searched only when no path is found and ``why``: see :func:`blocked_met`)."""
    side = ctx.state.unit(uid)["side"]
    usable = cfg.usable(ctx, side)
    index = index_.board_index(ctx)
    dist, pred = reverse_map(cfg, ctx, side, uid, limit)
    here = index.index[cfg.unit_hex(ctx, uid)]
    if here in dist:
        path = [index.hexes[i] for i in search.walk_back(pred, here)]
        target = path[-1]
        return {"target": target, "kind": "source" if target in usable else "line",
                "mp": dist[here], "path": path, "blocked": {}}
    return {"target": None, "kind": None, "mp": None, "path": [],
            "blocked": blocked_met(cfg, ctx, uid, limit)[0] if why else {}}


def blocked_met(cfg: SupplyPaths, ctx: Any, uid: str, limit: int) -> tuple[dict[Hex, tuple[str, tuple[str, ...]]], bool]:
    """What stops unit ``uid``'s supply path: the blocked hexes next to a hex a search of
    ``limit`` MPs from the unit reaches before a source or line (where a path would end), and
    the unusable sources it reaches or touches (kept and reused while what it read is unchanged:
    an unsupplied unit is asked about after every move); and whether the ``limit`` stopped it
    too (the search could go on beyond it)."""
    side = ctx.state.unit(uid)["side"]
    closed, _, targets = index_sets(cfg, ctx, side)
    start = cfg.unit_hex(ctx, uid)
    key = (side, index_.board_index(ctx).index[start], search_row(cfg, ctx, uid), cfg.weather(ctx), cfg.settings(ctx),
           limit)
    block, unusable = cfg.blocked(ctx, side), cfg.unusable(ctx, side)  # their lines noted for the answer
    with ctx.apart():  # a search over step costs: the movement cost lines of each hex it reaches are no answer's
        return trace_area.blocked_met(ctx, key, start, limit, step_costs(cfg, ctx, ctx.state.unit(uid)),
                                      asker(cfg, ctx, uid), block, closed, targets, unusable)


def path_mp(cfg: SupplyPaths, ctx: Any) -> int:
    """The rule-script quantity ``supply_path_mp``: how many MPs the cross-country part of a
    supply path may cost, once per state version."""
    return path_mp_cases(cfg, ctx)[0]


def path_mp_cases(cfg: SupplyPaths, ctx: Any) -> tuple[int, tuple[str, ...]]:
    """:func:`path_mp` and the cases of the lines that decided it, once per state version (its
    lines noted at every read)."""
    def make() -> tuple[int, tuple[str, ...]]:
        e = ctx.quantity("supply_path_mp", {})
        return int(e.value), tuple(e.cases)
    return ctx.memo_kept((cfg.name, "path_mp"), make)


def own_trace(cfg: SupplyPaths, ctx: Any, uid: str) -> dict[str, Any]:
    """A unit's supply without HQs (:func:`trace_mp` of :func:`path_mp` MPs, nothing said of what
    stops it), once per side store: an HQ never traces through another HQ."""
    return ctx.kept(cfg.store(ctx, ctx.state.unit(uid)["side"]), ("trace", uid),
                    lambda: trace_mp(cfg, ctx, uid, path_mp(cfg, ctx), why=False))


def supplied_hqs(cfg: SupplyPaths, ctx: Any, side: str) -> list[tuple[str, Hex, int, dict[str, Any]]]:
    """``side``'s HQs on the map in supply on their own, by id: ``(id, hex, radius, trace)``
    (the unit field ``radius``; once per side store)."""
    def make() -> list[tuple[str, Hex, int, dict[str, Any]]]:
        out = []
        for hq in sorted((u for u in ctx.state.units if u.get("side") == side and u.get("class") == cfg.hq_class
                          and u.get("hex")), key=lambda u: u["id"]):
            trace = own_trace(cfg, ctx, hq["id"])
            if trace["target"] is not None:
                out.append((hq["id"], parse_hex(hq["hex"]), int(hq.get("radius") or 0), trace))
        return out
    return ctx.kept(cfg.store(ctx, side), "supplied-hqs", make)


def by_hq(cfg: SupplyPaths, ctx: Any, uid: str) -> tuple[str, list[Hex], dict[str, Any]] | None:
    """``(HQ id, radius path from the HQ to the unit, the HQ's trace)`` of the first friendly HQ
    (by id) in supply on its own whose radius path reaches unit ``uid``; None if none does."""
    side = ctx.state.unit(uid)["side"]
    target = cfg.unit_hex(ctx, uid)
    distance = ctx.board.grid.distance
    for hq_id, hq_hex, radius, trace in supplied_hqs(cfg, ctx, side):
        if distance(hq_hex, target) > radius:  # no radius path is shorter than the distance
            continue
        path = cfg.radius_path(ctx, side, hq_hex, target, radius)
        if path is not None:
            return hq_id, path, trace
    return None


def full_path(cfg: SupplyPaths, ctx: Any, side: str, trace: Mapping[str, Any]) -> tuple[list[Hex], str]:
    """A trace's whole path to its source and its route: ``"mp"`` (cross-country to a source),
    ``"road"`` or ``"rail"`` (on to the source along the line network)."""
    path = list(trace["path"])
    if trace["kind"] == "source":
        return path, "mp"
    line, rail = line_path(cfg, ctx, side, trace["target"])
    return path + line[1:], "rail" if rail else "road"


def answer(cfg: SupplyPaths, ctx: Any, uid: str, may_use_hq: Callable[[], bool],
           compose: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
    """Unit ``uid``'s supply now, as ``compose`` words it, kept per side store and with the map
    that traced it (:func:`kept_answers`). ``compose`` receives ``{"in_supply", "route": "mp" |
    "road" | "rail" | "hq" | None, "path": [Hex from the unit to the source], "mp", "hq": HQ id
    or None, "source": (usable, why, cases) of the source reached or None, "blocked": {Hex:
    (reason, cases)} (what stops the unit's own path; unsupplied only), "length": the cases of
    the ``supply_path_mp`` lines (unsupplied, its own path stopped by that length too; else
    absent)}`` — cite one, and the length's line is kept with the answer. An HQ's radius
    (:func:`by_hq`) is tried only when the unit's own trace fails and ``may_use_hq()``.

    Kept in the side store through ``ctx.kept`` with the lines that decided it — those citing a
    case it cites (:func:`~casebook.areas.supply.cited`), as ``casebook ask supply`` names — so an
    event that reads it in play (a move's MA, an IP refused, an OOS marker) names them too,
    whatever the caches held."""
    side = ctx.state.unit(uid)["side"]
    return ctx.kept(cfg.store(ctx, side), ("answer", uid), lambda: _answer(cfg, ctx, uid, side, may_use_hq, compose),
                    cited=cited)


def _answer(cfg: SupplyPaths, ctx: Any, uid: str, side: str, may_use_hq: Callable[[], bool],
            compose: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
    # the answers kept across stores hold no lines: read and filled only where none are collected
    fast = ctx.event_lines is None and not ctx.engine.recording
    slot = kept_answers(cfg, ctx, uid, path_mp(cfg, ctx)) if fast else None
    if slot is not None and slot[1] in slot[0]:
        return slot[0][slot[1]]
    trace = own_trace(cfg, ctx, uid)
    found: dict[str, Any] = {"in_supply": False, "route": None, "path": [], "mp": None, "hq": None,
                             "source": None, "blocked": {}}
    if trace["target"] is not None:
        path, route = full_path(cfg, ctx, side, trace)
        found.update(in_supply=True, route=route, path=path, mp=trace["mp"],
                     source=cfg.sources(ctx, side).get(path[-1]))
    elif may_use_hq():
        hq = by_hq(cfg, ctx, uid)
        if hq is not None:
            hq_path, _ = full_path(cfg, ctx, side, hq[2])
            found.update(in_supply=True, route="hq", path=list(reversed(hq[1])) + hq_path[1:], hq=hq[0])
    if not found["in_supply"]:  # a unit in supply through an HQ's radius needs no "why not" of its own path
        limit, length = path_mp_cases(cfg, ctx)
        found["blocked"], cut = blocked_met(cfg, ctx, uid, limit)
        if cut:  # the length stopped its path too: its line decided the answer
            found["length"] = length
    block, enemy = cfg.blocked(ctx, side), cfg.reasons[0]  # the through-enemy lines: an enemy hex met or beside the path
    met = [h for h in found["blocked"] if found["blocked"][h] == enemy] or \
        [n for h in found["path"] for n in ctx.board.neighbours(h) if block.get(n) == enemy]
    met_enemy(ctx, cfg.through_enemy, bool(met))
    made = compose(found)
    if slot is not None:
        kept, kept_key = slot
        kept[kept_key] = made
        while len(kept) > ANSWERS_KEPT:
            kept.pop(next(iter(kept)))
    return made
