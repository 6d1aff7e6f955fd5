"""Supply and command paths, shared by the games that trace them: the game-neutral searches behind
"is this unit in supply / in command", parameterised by the game's rule scripts and map.

A game's supply plugin says what is its own (which hexes are sources, how a unit's answer reads)
and asks this area for the searches. Nothing here names a side, a game or a case; the rules come
from the game's scripts through these permissions and the ZOC hooks:

- ``exert_zoc`` (facts ``temperature``, ``unit_class``) — whether an adjacent enemy unit puts a hex
  in its ZOC, asked only when no ZOC plugin answers ``casebook_zoc``;
- ``supply_line`` (facts ``side``, ``line_kind``: ``road``/``trail``/``rail``) — the kinds of
  line a side's supply path may follow to a source;
- ``supply_line_off_hexside`` (no facts) — whether such a path may step between two line hexes
  across a hexside no line crosses (the printed rules usually say it may not).

What a path may not pass (enemy units, EZOCs without a friendly combat unit) is given to the
searches as the ``blocked``/``closed`` hexes the game's plugin works out with its own lines.
Hexes are :class:`~casebook.core.hexgrid.Hex` at this module's edges, board indices inside;
MPs are integers; the length of a path in MPs or hexes is a rule-script quantity the caller reads.

- :func:`lru_get` — a small most-recently-used cache of dicts (the maps kept across states);
- :func:`cited` — every case an answer cites (what its kept lines are filtered by);
- :func:`units_by_hex` — hex -> the units in it (once per state version);
- :func:`ezoc`, :func:`enemy_blocks` — EZOC hexes and enemy-occupied hexes against a side;
- :func:`path_blocks` — the hexes a path cannot pass, by the game's two permission names;
- :func:`placement`, :func:`zoc_sources`, :func:`side_maps` — what a side's maps depend on, and
  the cache of its maps per such key (a ``Lasting``: its maps go in through ``ctx.kept``);
- :func:`line_kinds`, :func:`line_network` — the line network a side's supply follows;
- :func:`radius_reach` — shortest unblocked hex paths from an HQ up to its radius.

The board index, step costs and searches: ``areas/_supply_search.py`` and ``areas/search.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from casebook.areas import _supply_search as index_
from casebook.areas._zoc_map import zoc_sources as _zoc_sources
from casebook.areas.search import paths_within
from casebook.core.hexgrid import Hex, hex_label, parse_hex
from casebook.script.ctx import Lasting
from casebook.script.factlines import lines_of

__all__ = ["LINE_KINDS", "lru_get", "cited", "supplied_lines", "met_enemy",
           "allowed", "units_by_hex", "ezoc", "enemy_blocks", "path_blocks",
           "placement", "per_version", "weather", "settings", "zoc_sources", "side_maps", "line_kinds", "line_network", "radius_reach"]

_T = TypeVar("_T")

#: The kinds of line on a map hexside a supply path may follow (asked of ``supply_line``).
LINE_KINDS = ("road", "trail", "rail")


def lru_get(cache: dict[Any, Any], key: Any, keep: int,
            make: Callable[[], dict[Any, Any]] = dict) -> tuple[dict[Any, Any], bool]:
    """The dict under ``key`` in ``cache`` (made by ``make`` if absent, e.g. a
    :class:`~casebook.script.ctx.Lasting` whose values go through ``ctx.kept``), moved to the
    young end; the oldest keys beyond ``keep`` are dropped. Returns ``(value, found)``."""
    value = cache.pop(key, None)
    found = value is not None
    if value is None:
        value = make()
    cache[key] = value
    while len(cache) > keep:
        cache.pop(next(iter(cache)))
    return value, found


def cited(value: Any, depth: int = 0) -> set[str]:
    """Every case id ``value`` (an answer) cites under a ``cases`` key, at any depth: the lines an
    answer keeps with it (``ctx.kept(…, cited=cited)``) are those citing one of them, as
    ``casebook ask`` keeps an answer's lines."""
    out: set[str] = set()
    if depth > 12:
        return out
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "cases" and isinstance(item, (list, tuple)):
                out.update(c for c in item if isinstance(c, str))
            else:
                out |= cited(item, depth + 1)
    elif isinstance(value, (list, tuple)):
        for item in value:
            out |= cited(item, depth + 1)
    return out


def supplied_lines(ctx: Any, uid: str) -> tuple[bool, tuple[dict[str, Any], ...]]:
    """Whether unit ``uid`` can trace supply now (asks ``casebook_supply``; True when unanswered),
    with the lines that decided the answer (those of the lines that fired meanwhile citing a case
    the answer cites, as ``casebook ask supply`` names them; ``()`` where none are collected): a
    fact a line reads names them (:mod:`casebook.script.factlines`; 14.1C, 12.1C, 5.7D e.g.)."""
    answer, lines = lines_of(ctx, lambda: ctx.hook.casebook_supply(ctx=ctx, unit=uid))
    if answer is None:
        return True, ()
    cases = cited(answer)
    return bool(answer.get("in_supply", True)), tuple(ln for ln in lines if cases.intersection(ln["cases"]))


def units_by_hex(ctx: Any) -> dict[Hex, list[Mapping[str, Any]]]:
    """Hex -> the units in it, in state order (once per state version, ``ctx.memo``)."""
    key = ("supply", "units_by_hex")
    found: dict[Hex, list[Mapping[str, Any]]] | None = ctx.memo.get(key)
    if found is None:
        found = {}
        ctx.memo[key] = found
        for u in ctx.state.units:
            if u.get("hex"):
                found.setdefault(parse_hex(u["hex"]), []).append(u)
    return found


def allowed(ctx: Any, action: str, facts: Mapping[str, Any]) -> bool:
    """``ctx.allowed``, kept per state version by the facts (the key the game plugins share) with
    its deciding lines (``ctx.memo_kept``: every event of the version that reads it names them)."""
    key = ("rules.allowed", action, tuple(sorted(facts.items())))
    return bool(ctx.memo_kept(key, lambda: ctx.allowed(action, facts)))


def ezoc(ctx: Any, h: Hex, side: str) -> bool:
    """Whether an enemy ZOC lies in ``h`` for ``side``: the ZOC plugin's answer
    (``casebook_zoc``), else any adjacent unit of another side the ``exert_zoc`` lines allow."""
    answer = ctx.hook.casebook_zoc(ctx=ctx, hex=hex_label(h), side=side)
    if answer is not None:
        return bool(answer.get("exerted_by")) and answer.get("kind", "locking") != "none"
    temperature = (ctx.state.weather or {}).get("temperature", "warm")
    by_hex = units_by_hex(ctx)
    return any(u.get("side") != side and ctx.permission(
        "exert_zoc", {"temperature": temperature, "unit_class": u.get("class")}).value
        for n in ctx.board.neighbours(h) for u in by_hex.get(n, ()))


def enemy_blocks(ctx: Any, side: str, cache: str, keep: int, fallback_key: Any = None,
                 per_hex: bool = False) -> tuple[list[Hex], list[Hex]]:
    """``(enemy-occupied hexes, EZOC hexes next to them or to a hex that is a ZOC by itself)``
    against ``side``, each sorted, whoever stands in the EZOC hexes (the caller lifts those its
    rules open). Kept in ``ctx.lasting(cache)`` (the last ``keep``) by the ZOC plugin's map key
    (``casebook_zoc_map``: it names every enemy unit, the weather and the settings), so a side's
    own moves reuse them; without a ZOC map, by ``fallback_key`` (None: made anew). With
    ``per_hex`` each hex near an enemy unit is asked of ``casebook_zoc`` (the same verdicts as
    the map's, with that answer's rule lines noted in an ``ask`` answer) instead of the map at once.
    Worked out :meth:`apart <casebook.script.ctx.Ctx.apart>`: every hex next to an enemy unit,
    a board-wide map whose ZOC lines no one event owes (the path-block verdicts that read it,
    :func:`path_blocks`, are kept with their lines by the callers)."""
    with ctx.apart():
        answer = ctx.hook.casebook_zoc_map(ctx=ctx, side=side)
        key = (side, answer["key"]) if answer is not None else None if fallback_key is None else (side, fallback_key)
        if key is None:
            return _blocks(ctx, side, answer, per_hex)
        kept, found = lru_get(ctx.lasting(cache), key, keep)
        if not found:
            kept["blocks"] = _blocks(ctx, side, answer, per_hex)
        return kept["blocks"]


def _blocks(ctx: Any, side: str, answer: Mapping[str, Any] | None, per_hex: bool) -> tuple[list[Hex], list[Hex]]:
    occupied: set[Hex] = set()
    near: set[Hex] = set()
    for h, units in units_by_hex(ctx).items():
        if any(u.get("side") != side for u in units):
            occupied.add(h)
            near.update(ctx.board.neighbours(h))
    if answer is not None:  # hexes that are a ZOC themselves, away from enemy units
        near.update(parse_hex(h) for h in answer["exerted_by"])
    if answer is not None and "kind" in answer and not per_hex:  # the ZOC plugin's map says it all at once
        zmap, locks = answer["exerted_by"], answer["kind"] != "none"
        return sorted(occupied), [h for h in sorted(near - occupied) if locks and zmap.get(hex_label(h))]
    return sorted(occupied), [h for h in sorted(near - occupied) if ezoc(ctx, h, side)]


def path_blocks(ctx: Any, side: str, *, through_enemy: str, through_ezoc: str,
                opens: Callable[[Mapping[str, Any]], bool], reasons: tuple[Any, Any], cache: str, keep: int,
                fallback_key: Any = None, per_hex: bool = False) -> dict[Hex, Any]:
    """Hex -> reason for every hex a path of ``side`` cannot pass: enemy-occupied (``reasons[0]``)
    unless the ``through_enemy`` lines allow it, and in an EZOC (``reasons[1]``) unless the
    ``through_ezoc`` lines allow it for the fact ``friendly_combat_unit`` (a unit of ``side``
    for which ``opens`` is true stands there). Enemy hexes first, then EZOC hexes, each sorted;
    the EZOCs are :func:`enemy_blocks`'s (kept in ``cache``; ``per_hex`` as there)."""
    occupied, ezocs = enemy_blocks(ctx, side, cache, keep, fallback_key, per_hex)
    by_hex = units_by_hex(ctx)
    # the through_enemy lines are asked only when an enemy unit stands somewhere, and their lines are
    # noted only where a path search meets an enemy-occupied hex (:func:`met_enemy`), not with this map
    with ctx.apart(recorded=False):
        shut = bool(occupied) and not ctx.allowed(through_enemy, {})
    out: dict[Hex, Any] = dict.fromkeys(occupied, reasons[0]) if shut else {}
    verdicts: dict[bool, bool] = {}  # friendly -> allowed: the same facts give the same verdict
    for h in ezocs:
        units = by_hex.get(h) or []
        friendly = bool(units) and any(u.get("side") == side and opens(u) for u in units)
        passable = verdicts.get(friendly)
        if passable is None:
            passable = verdicts[friendly] = allowed(ctx, through_ezoc, {"friendly_combat_unit": friendly})
        if not passable:
            out[h] = reasons[1]
    return out


def met_enemy(ctx: Any, through_enemy: str, met: bool) -> None:
    """Note the ``through_enemy`` lines (they refused a path an enemy-occupied hex) when ``met``:
    a path search met such a hex (:func:`path_blocks` notes none; an answer names them only then)."""
    if met:
        allowed(ctx, through_enemy, {})


def per_version(ctx: Any, key: Any, make: Callable[[], _T]) -> _T:
    """The value of ``key`` in the state version's memo (``ctx.memo``), made by ``make()`` on a
    miss: a derived value that notes no rule line (else ``ctx.memo_kept``)."""
    memo = ctx.memo
    found = memo.get(key)
    if found is None:
        found = memo[key] = make()
    return found


def weather(ctx: Any) -> tuple[str, str]:
    """``(temperature, ground)`` in force; Warm/Dry before the first Weather Phase (what the
    supply and command maps depend on)."""
    w = ctx.state.weather or {}
    return w.get("temperature", "warm"), w.get("ground", "dry")


def settings(ctx: Any) -> tuple[Any, ...]:
    """Every setting (interpretation) in force, by name, once per state version (what the supply
    and command maps depend on)."""
    memo = ctx.memo  # inlined per_version: asked at every step of a supply trace
    found = memo.get(("supply", "settings"))
    if found is None:
        found = memo[("supply", "settings")] = tuple(ctx.state.setting(n) for n in sorted(ctx.engine.setting_defaults))
    return found


def placement(ctx: Any, fields: tuple[str, ...]) -> tuple[tuple[Any, ...], ...]:
    """The ``fields`` of every unit on a map hex, in state order (once per state version)."""
    key = ("supply", "placement", fields)
    found = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = tuple(tuple(map(u.get, fields)) for u in ctx.state.units if u.get("hex"))
    return found


def zoc_sources(ctx: Any, side: str) -> tuple[tuple[str, str], ...]:
    """``(hex, source id)`` of every hex that is a ZOC against ``side`` by itself, sorted: the ZOC
    area's :func:`~casebook.areas._zoc_map.zoc_sources` (the ``casebook_zoc_sources`` hook, once
    per state version, read without lines) less its cases."""
    return tuple((h, sid) for h, sid, _ in _zoc_sources(ctx, side))


def side_maps(ctx: Any, side: str, name: str, key: Callable[[], Any], keep: int, memo: str) -> dict[Any, Any]:
    """The cache of ``side``'s maps under ``ctx.lasting(name)`` for the key ``key()`` gives (what
    the maps depend on), the last ``keep`` keys kept; found once per state version under
    ``(memo, "store", side)`` of the state version's memo without computing the key again. The store is a
    :class:`~casebook.script.ctx.Lasting`: put its maps in with ``ctx.kept(store, key, compute)``
    (or compute them in an ``apart`` block), so each read notes the lines that made them."""
    mkey = (memo, "store", side)
    # the state version's shared memo, not an event context's own: finding a store notes no line
    # (its values go through kept), and a kept value's frame would otherwise work the key out again
    shared = ctx.engine.memo_for(ctx.state)
    store = shared.get(mkey)
    if store is None:
        if ctx.event_lines is None:
            found = key()
        else:
            with ctx.apart():  # a cache key: the lines of what it reads are no event's
                found = key()
        store = shared[mkey] = lru_get(ctx.lasting(name, pause=False), found, keep, Lasting)[0]
    return store


def line_kinds(ctx: Any, side: str) -> tuple[str, ...]:
    """The kinds of line (:data:`LINE_KINDS`) a supply path of ``side`` may follow: those the
    ``supply_line`` lines allow, asked only of the kinds some hexside of the map carries (a line
    forbidding rail on a map with no rail decides nothing, so no event names it)."""
    drawn = ctx.lasting("supply.drawn-kinds", pause=False)  # board geometry
    if "kinds" not in drawn:
        drawn["kinds"] = tuple(k for k in LINE_KINDS if any(d.get(k) for _, _, d in ctx.board.edge_items()))
    return tuple(k for k in drawn["kinds"] if allowed(ctx, "supply_line", {"side": side, "line_kind": k}))


def _line_edges(ctx: Any, kinds: tuple[str, ...]) -> list[tuple[Hex, Hex, bool]]:
    """The hexsides a line of ``kinds`` crosses, in board order, each with whether only a rail
    crosses it (once per board)."""
    cache = ctx.lasting("supply.line-edges", kinds, pause=False)  # board geometry
    if "edges" not in cache:
        cache["edges"] = [(a, b, not (data.get("road") or data.get("trail")))
                          for a, b, data in ctx.board.edge_items() if any(data.get(k) for k in kinds)]
    return cache["edges"]


def line_network(ctx: Any, side: str) -> tuple[dict[int, list[int]], dict[tuple[int, int], bool]]:
    """The whole line network of ``side`` as board indices (``areas/_supply_search.board_index``;
    once per board and rules): each line hex's neighbours through the hexsides its lines cross,
    in board order — with ``supply_line_off_hexside`` allowed, also any adjacent line hex — and
    whether a step uses a rail-only hexside."""
    mkey = ("supply", "line-network", side)  # asked once per unit answer: once per state version here
    found = ctx.memo.get(mkey)
    if found is not None:
        return found
    kinds = line_kinds(ctx, side)
    off_hexside = allowed(ctx, "supply_line_off_hexside", {})
    cache = ctx.lasting("supply.line-adj", kinds, off_hexside, pause=False)  # board geometry
    if "adj" not in cache:
        index = index_.board_index(ctx)
        ix = index.index
        adj: dict[int, list[int]] = {}
        rail: dict[tuple[int, int], bool] = {}
        for a, b, rail_only in _line_edges(ctx, kinds):
            i, j = ix[a], ix[b]
            adj.setdefault(i, []).append(j)
            adj.setdefault(j, []).append(i)
            rail[i, j] = rail[j, i] = rail_only
        if off_hexside:  # any two adjacent line hexes, whatever their common hexside
            for i in sorted(adj):
                for j in index.adj[i]:
                    if j in adj and (i, j) not in rail:
                        adj[i].append(j)
                        rail[i, j] = False
        cache["adj"], cache["rail"] = adj, rail
    found = ctx.memo[mkey] = (cache["adj"], cache["rail"])
    return found


def radius_reach(ctx: Any, start: Hex, radius: int, blocked: Mapping[Hex, Any]) -> dict[Hex, list[Hex]]:
    """Shortest hex paths from ``start`` (an HQ) up to ``radius`` hexes through no ``blocked``
    hex (``casebook.areas.search.paths_within``; the ends may be blocked). Kept (``ctx.lasting``) by the blocked
    hexes within the radius — the only ones the search reads — so a move elsewhere on the map
    reuses it; give the answer to ``search.path_within`` for one target."""
    disks = ctx.lasting("supply.hq-disks", pause=False)  # board geometry, no line evaluated
    disk = disks.get((start, radius))
    if disk is None:
        disk = disks[(start, radius)] = tuple(paths_within(ctx.board, start, radius))
    shut = frozenset(h for h in disk if h in blocked)
    kept, found = lru_get(ctx.lasting("supply.hq-reach", pause=False), (start, radius, shut), 512)
    if not found:
        kept["paths"] = paths_within(ctx.board, start, radius, shut)
    return kept["paths"]
