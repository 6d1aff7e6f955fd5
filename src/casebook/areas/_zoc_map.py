"""ZOC computation (private helper of the `zoc` area; e.g. Moscow '41 7.0-7.1): who exerts a ZOC into which
hexes, and how a moving unit treats an EZOC (the ZOC Chart).

Everything is keyed by printed hex labels (``"0303"``) and unit ids. Numbers and verdicts come
from the rule scripts (``exert_zoc``, ``zoc_into_hex``, ``zoc_column``) and the ``zoc_chart``
table; this module only walks the map.

Caches (movement and supply ask for ZOCs thousands of times per decision): the ZOC map of a side
is kept across state changes under its :func:`map_key` — exactly what the map is computed from:
the weather, the settings read, and ``(id, hex, side, class, size)`` of every unit of the other
sides (:data:`UNIT_FIELDS`, the only unit fields the rule scripts are given). Below it, one
unit's ZOC hexes are kept by (hex, unit fields, weather, settings) and the 7.1B road-or-town test
by hexside, once per board; so one stack's move recomputes the map from cached pieces.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casebook.core.hexgrid import hex_label, parse_hex
from casebook.script.ctx import Lasting

from ._zoc_chart import KIND_ORDER, chart_column, chart_kind, chart_row, most_restrictive, unit_kind, weather_facts

__all__ = [
    "KIND_ORDER", "UNIT_FIELDS", "map_key", "conditions", "weather_facts", "exerts_zoc",
    "zoc_reach", "stopped_cases", "zoc_sources", "source_cases", "zoc_map", "hex_lines", "exerted_by", "collecting",
    "chart_row", "chart_column", "chart_kind", "most_restrictive", "unit_kind",
    "is_combat_unit", "friendly_combat_unit_in",
]

#: The unit fields a ZOC is computed from (the facts of :func:`_facts`); a cache key names them.
UNIT_FIELDS: tuple[str, ...] = ("side", "class", "size")
#: Settings the ZOC of a unit reads (7.1B, 0.2.3.1 interpretations) and their defaults.
_SETTINGS: tuple[tuple[str, str], ...] = (("no_zoc_scope", "arctic"), ("mud_zoc_roads", "road_in_hex"))
#: How many ZOC maps (distinct placements) are kept across state changes.
_MAPS_KEPT = 64



def conditions(ctx: Any) -> tuple[str, ...]:
    """What a unit's ZOC reads besides the unit and the board: temperature, ground and the
    settings of :data:`_SETTINGS`, in that order (memo per state version)."""
    key = "zoc.conditions"
    memo = ctx.memo
    found = memo.get(key)
    if found is None:
        w = weather_facts(ctx)
        found = memo[key] = (w["temperature"], w["ground"],
                             *(str(ctx.state.setting(n, d)) for n, d in _SETTINGS))
    return found


def _facts(ctx: Any, unit: Mapping[str, Any], **extra: Any) -> dict[str, Any]:
    facts: dict[str, Any] = dict(weather_facts(ctx))
    facts.update(side=unit.get("side"), unit_class=unit.get("class"),
                 unit_size=unit.get("size", "none"),
                 no_zoc_scope=ctx.state.setting("no_zoc_scope", "arctic"),
                 road_or_town_hex=False)
    facts.update(extra)
    return facts


def _fields(unit: Mapping[str, Any]) -> tuple[Any, ...]:
    """The :data:`UNIT_FIELDS` of a unit record, in order."""
    return unit.get("side"), unit.get("class"), unit.get("size")


def exerts_zoc(ctx: Any, unit: Mapping[str, Any]) -> tuple[bool, tuple[str, ...]]:
    """Whether ``unit`` (a unit record) has a ZOC at all, with the cases deciding: the verdicts
    of the ``exert_zoc`` and ``exert_zoc_on_ground`` script lines (kept per unit fields and
    conditions; e.g. Moscow '41: every unit but HQs and remnants, 7.1A, 11.3D, none in Arctic
    turns, 7.1C, 4.6A, 0.2.3.1)."""
    return ctx.kept(("zoc.exerts", conditions(ctx)), _fields(unit), lambda: _exerts_zoc(ctx, unit))


def _exerts_zoc(ctx: Any, unit: Mapping[str, Any]) -> tuple[bool, tuple[str, ...]]:
    facts = _facts(ctx, unit)
    cases: list[str] = []
    for action in ("exert_zoc", "exert_zoc_on_ground"):
        verdict = ctx.permission(action, facts)
        if not verdict.value:
            return False, tuple(verdict.cases)
        cases += verdict.cases
    return True, tuple(dict.fromkeys(cases))


def _road_or_town(ctx: Any, target: Any, source: Any) -> bool:
    """7.1B: is ``target`` a town, city, road or trail hex (as reached from ``source``)?
    Board geometry and one setting: kept once per board."""
    mode = ctx.state.setting("mud_zoc_roads", "road_in_hex")
    cache = ctx.lasting("zoc.road_or_town", mode, pause=False)
    key = (target, source)
    found = cache.get(key)
    if found is None:
        found = cache[key] = _road_or_town_now(ctx.board, target, source, mode)
    return found


def _road_or_town_now(board: Any, target: Any, source: Any, mode: str) -> bool:
    if board.node(target)["town"] is not None:
        return True
    if mode == "road_hexside":
        side = board.side(source, target)
        return side.road or side.trail
    return any(board.side(target, n).road or board.side(target, n).trail
               for n in board.neighbours(target))


def zoc_reach(ctx: Any, unit: Mapping[str, Any]) -> list[str]:
    """The hexes (labels, board order) ``unit`` exerts a ZOC into: all six adjacent on-map hexes
    (7.0A, 7.0D: no terrain or hexside stops a ZOC), but in Mud (and Drying, 3.1B) an armor or
    mechanized ZOC only into town, city, road and trail hexes (7.1B: script ``zoc_into_hex``).
    Empty if the unit has no ZOC (:func:`exerts_zoc`) or is not on the map. Kept across state
    changes by (hex, unit fields, conditions)."""
    if not unit.get("hex"):
        return []
    found = ctx.kept(("zoc.reach", conditions(ctx)), (unit["hex"], _fields(unit)), lambda: tuple(_zoc_reach(ctx, unit)))
    return list(found)


def _zoc_reach(ctx: Any, unit: Mapping[str, Any]) -> list[str]:
    if not exerts_zoc(ctx, unit)[0]:
        return []
    here = parse_hex(unit["hex"])
    out = []
    for n in ctx.board.neighbours(here):
        facts = _facts(ctx, unit, road_or_town_hex=_road_or_town(ctx, n, here))
        if ctx.allowed("zoc_into_hex", facts):
            out.append(hex_label(n))
    return out


def stopped_cases(ctx: Any, hex_: str, side: str) -> tuple[str, ...]:
    """The cases of the lines that keep an adjacent enemy unit's ZOC out of ``hex_`` (a unit
    with a ZOC, :func:`exerts_zoc`, whose ``zoc_into_hex`` is forbidden into it; e.g. Moscow
    '41 7.1B: armor in Mud), for the answer to ``ask zoc``: the verdicts that decided, so the
    forbid line is named beside the ``exert_zoc`` permit. Empty where nothing is stopped."""
    perm = ctx.rules.permissions.get("zoc_into_hex")
    if perm is None or not any(v == "forbid" for v, _, _ in perm.lines):
        return ()
    target = parse_hex(hex_)
    out: list[str] = []
    for n in ctx.board.neighbours(target):
        for unit in ctx.state.units_at(hex_label(n)):
            if unit.get("side") == side or not exerts_zoc(ctx, unit)[0]:
                continue
            verdict = ctx.permission("zoc_into_hex", _facts(ctx, unit, road_or_town_hex=_road_or_town(ctx, target, n)))
            if not verdict.value:
                out += verdict.cases
    return tuple(dict.fromkeys(out))


def collecting(ctx: Any) -> bool:
    """Whether ``ctx`` collects lines (an event's or a recording answer's): else no line is kept."""
    return ctx.event_lines is not None or ctx.engine._recording[0] is not None


def _capture(ctx: Any, compute: Any) -> tuple[Any, tuple[dict[str, Any], ...] | None]:
    """``(compute(), the lines that fired in it)`` without noting them for the event (None: nothing
    collects); the caller keeps them with the value and notes those of the part an event reads."""
    tmp = Lasting()
    with ctx.apart():
        value = ctx.kept(tmp, 0, compute)
    return value, tmp.lines.get(0)


def zoc_sources(ctx: Any, side: str) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """The hexes that are a ZOC against ``side`` by themselves, not projected by a unit into its
    neighbours: ``((hex, source id, cases), …)`` sorted, from the ``casebook_zoc_sources`` hook
    (e.g. Moscow '41: a Partisan marker's hex, 16.3A; a scattered paratroop's own hex, 15.3B). Once
    per state version; read without lines (the map keeps each source's with its hex)."""
    return _sources(ctx, side)[0]


def _sources(ctx: Any, side: str) -> tuple[Any, dict[str, tuple[dict[str, Any], ...]] | None]:
    key = ("zoc.sources", side)
    memo = ctx.memo
    found = memo.get(key)
    if found is None or (found[1] is None and collecting(ctx)):
        hook = getattr(ctx.hook, "casebook_zoc_sources", None)
        lists, fired = _capture(ctx, lambda: hook(ctx=ctx, side=side)) if hook is not None else ([], ())
        sources = tuple(sorted(
            (str(s["hex"]), str(s["id"]), tuple(s.get("cases") or ())) for lst in lists for s in (lst or ())))
        per = None if fired is None else {  # a source's lines: those citing its cases
            sid: tuple(e for e in fired if set(cases).intersection(e["cases"])) for _, sid, cases in sources}
        found = memo[key] = (sources, per)
    return found


def source_cases(ctx: Any, side: str, ids: Any) -> tuple[str, ...]:
    """The cases of the :func:`zoc_sources` among ``ids`` (exerters of one hex), in order."""
    wanted = set(ids)
    return tuple(dict.fromkeys(c for _, sid, cases in zoc_sources(ctx, side) if sid in wanted for c in cases))


def map_key(ctx: Any, side: str) -> tuple[Any, ...]:
    """What the ZOC map against ``side`` is computed from (see the module docstring): the
    conditions, then ``(id, hex, side, class, size)`` of every other side's unit on the map, in
    state order, then the :func:`zoc_sources`. Equal keys give equal maps, so a consumer may key
    its own caches by it."""
    key = ("zoc.map_key", side)
    memo = ctx.memo
    found = memo.get(key)
    if found is None:
        found = memo[key] = (conditions(ctx), tuple(
            (u.get("id"), u["hex"], *_fields(u)) for u in ctx.state.units
            if u.get("side") != side and u.get("hex")), zoc_sources(ctx, side))
    return found


def zoc_map(ctx: Any, side: str) -> dict[str, tuple[str, ...]]:
    """The enemy ZOC affecting units of ``side``: hex label -> ids of the enemy units exerting a
    ZOC into it and of the :func:`zoc_sources` of the hex (sorted). EZOCs do not affect an
    enemy unit's own ZOC (7.0E): every enemy unit is counted wherever it stands, even in a hex
    of ``side``'s ZOC. Kept by :func:`map_key` (treat the result as read-only: it is shared).
    Read without lines: :func:`exerted_by` names those of the hex it reads (:func:`hex_lines`)."""
    return _map(ctx, side)[0]


def hex_lines(ctx: Any, side: str) -> dict[str, tuple[dict[str, Any], ...]] | None:
    """Hex label -> the lines that decided its ZOC against ``side``: those of every enemy unit
    adjacent (whether it exerts a ZOC and into which hexes: ``exert_zoc``, ``zoc_into_hex``) and
    of the :func:`zoc_sources` in it — the same whatever the caches held. None: nothing collects."""
    return _map(ctx, side)[1]


def _map(ctx: Any, side: str) -> tuple[dict[str, tuple[str, ...]], Any]:
    key = ("zoc.map", side)
    memo = ctx.memo
    found = memo.get(key)
    if found is None or (found[1] is None and collecting(ctx)):
        found = memo[key] = _kept_map(ctx, side)
    return found


def _kept_map(ctx: Any, side: str) -> tuple[dict[str, tuple[str, ...]], Any]:
    """:func:`_zoc_map` kept across state changes by its :func:`map_key` (the last
    :data:`_MAPS_KEPT` maps; one made while nothing collected is made again with its lines)."""
    maps = ctx.lasting("zoc.maps", pause=False)  # lines kept hex by hex in the value
    key = map_key(ctx, side)
    found = maps.get(key)
    if found is None or (found[1] is None and collecting(ctx)):
        with ctx.apart():  # the board-wide map: an event names the lines of the hexes it reads
            found = maps[key] = _zoc_map(ctx, side)
        while len(maps) > _MAPS_KEPT:  # bounded: the oldest maps go
            maps.pop(next(iter(maps)))
    return found


def _zoc_map(ctx: Any, side: str) -> tuple[dict[str, tuple[str, ...]], Any]:
    found: dict[str, list[str]] = {}
    lines: dict[str, dict[str, dict[str, Any]]] | None = {} if collecting(ctx) else None
    reach_lines = ctx.lasting("zoc.reach", conditions(ctx), pause=False).lines  # zoc_reach's own
    for u in ctx.state.units:
        if u.get("side") == side or not u.get("hex"):
            continue
        for h in zoc_reach(ctx, u):
            found.setdefault(h, []).append(u["id"])
        if lines is not None:  # the unit's lines decided each adjacent hex, reached or not
            fired = reach_lines.get((u["hex"], _fields(u)))
            if fired is None:  # not kept with its lines: no lines for the map (made again)
                lines = None
                continue
            for n in ctx.board.label_neighbours(u["hex"]):
                _add(lines, n, fired)
    sources, per = _sources(ctx, side)
    if per is None:
        lines = None
    for h, sid, _ in sources:  # a hex that is a ZOC itself (16.3A, 15.3B)
        if ctx.board.contains(parse_hex(h)):
            found.setdefault(h, []).append(sid)
            if lines is not None and per is not None:
                _add(lines, h, per.get(sid, ()))
    by_hex = None if lines is None else {h: tuple(d.values()) for h, d in lines.items() if d}
    return {h: tuple(sorted(ids)) for h, ids in found.items()}, by_hex


def _add(lines: dict[str, dict[str, dict[str, Any]]], hex_: str, fired: Any) -> None:
    here = lines.setdefault(hex_, {})
    for e in fired:
        here.setdefault(e["source"], e)


def exerted_by(ctx: Any, hex_: str, side: str) -> tuple[str, ...]:
    """Ids of the enemy units exerting a ZOC into ``hex_`` against ``side`` (empty: no EZOC);
    the lines that decided the hex (:func:`hex_lines`) are noted for the event."""
    found, lines = _map(ctx, side)
    if lines is not None:
        fired = lines.get(hex_)
        if fired:
            ctx.note_lines(fired)
    return found.get(hex_, ())


def is_combat_unit(ctx: Any, unit: Mapping[str, Any]) -> bool:
    """Whether ``unit`` is a combat unit: the verdict of the game's ``counts_as_combat_unit``
    lines (fact ``unit_class``; e.g. Moscow '41: neither an HQ nor a remnant, 0.5.4, 11.3D);
    every unit in a game without such lines (once per class and state version; the lines are
    read without being cited, as :func:`~._results_losses.steps_left` reads ``combat_loss``)."""
    if "counts_as_combat_unit" not in ctx.rules.permissions:
        return True
    key = ("zoc.combat_unit", unit.get("class"))
    memo = ctx.memo
    found = memo.get(key)
    if found is None:
        engine = ctx.engine  # read as a fact of the unit: not cited (the answers cite what it decides)
        found = memo[key] = bool(engine.rules.allowed("counts_as_combat_unit", {"unit_class": unit.get("class")},
                                                      engine.script_tables, ctx.standard))
    return found


def friendly_combat_unit_in(ctx: Any, hex_: str, side: str) -> bool:
    """Whether a combat unit of ``side`` (:func:`is_combat_unit`) is in ``hex_`` (e.g. 7.4, 7.5A).
    None, while units of ``side`` are there: the ``counts_as_combat_unit`` lines that decided for
    each are noted for the event or answer (e.g. Moscow '41 11.3D: a remnant is none)."""
    units = [u for u in ctx.state.units_at(hex_) if u.get("side") == side]
    if any(is_combat_unit(ctx, u) for u in units):
        return True
    if units and "counts_as_combat_unit" in ctx.rules.permissions:
        for cls in dict.fromkeys(u.get("class") for u in units):
            ctx.allowed("counts_as_combat_unit", {"unit_class": cls})
    return False
