"""Moscow '41 ZOC computation (private helper of the `zoc` plugin): who exerts a ZOC into which
hexes, and how a moving unit treats an EZOC (the ZOC Chart).

Everything is keyed by printed hex labels (``"0303"``) and unit ids. The ZOC map of a side is
cached in ``ctx.memo`` (dropped by ``ctx.changed()``): movement and supply ask it thousands of
times. Numbers and verdicts come from the rule scripts (``exert_zoc``, ``zoc_into_hex``,
``zoc_column``) and the ``zoc_chart`` table; this module only walks the map.
"""

from __future__ import annotations

from typing import Any, Mapping

from casebook.kernel.cases import implements
from casebook.kernel.hexgrid import hex_label, parse_hex

__all__ = [
    "KIND_ORDER", "weather_facts", "exerts_zoc", "zoc_reach", "zoc_map", "exerted_by",
    "chart_row", "chart_column", "chart_kind", "most_restrictive", "unit_kind",
    "is_combat_unit", "friendly_combat_unit_in",
]

#: ZOC kinds from least to most restrictive (7.0B: a locking ZOC stops a unit, a fluid one costs
#: +1 MP EZOC to EZOC, none has no effect); the most restrictive wins (7.0F).
KIND_ORDER: tuple[str, ...] = ("none", "fluid", "locking")


def weather_facts(ctx: Any) -> dict[str, str]:
    """``{"temperature", "ground"}`` in force (the Weather Display). A position without weather
    (before the first Weather Phase) is read as Warm and Dry, the fixed weather of Turn 1
    (18.2.4A; interpretation blitz-turn1-weather)."""
    w = ctx.state.weather or {}
    return {"temperature": w.get("temperature", "warm"), "ground": w.get("ground", "dry")}


def _facts(ctx: Any, unit: Mapping[str, Any], **extra: Any) -> dict[str, Any]:
    facts: dict[str, Any] = dict(weather_facts(ctx))
    facts.update(side=unit.get("side"), unit_class=unit.get("class"),
                 unit_size=unit.get("size", "none"),
                 no_zoc_scope=ctx.state.setting("no_zoc_scope", "arctic"),
                 road_or_town_hex=False)
    facts.update(extra)
    return facts


@implements("7.1A", "7.1C", "0.2.3.1")
def exerts_zoc(ctx: Any, unit: Mapping[str, Any]) -> tuple[bool, tuple[str, ...]]:
    """Whether ``unit`` (a unit record) has a ZOC at all, with the cases deciding: every unit
    but HQs and remnants (7.1A, 11.3D), none in Arctic turns (7.1C, 4.6A, 0.2.3.1; Snow and Deep
    Snow too under setting ``no_zoc_scope: winter``). Verdicts of the ``exert_zoc`` and
    ``exert_zoc_on_ground`` script lines."""
    facts = _facts(ctx, unit)
    for action in ("exert_zoc", "exert_zoc_on_ground"):
        verdict = ctx.permission(action, facts)
        if not verdict.value:
            return False, tuple(verdict.cases)
    return True, ("7.1A",)


def _road_or_town(ctx: Any, target: Any, source: Any) -> bool:
    """7.1B: is ``target`` a town, city, road or trail hex (as reached from ``source``)?"""
    board = ctx.board
    if board.hex(target).town is not None:
        return True
    if ctx.state.setting("mud_zoc_roads", "road_in_hex") == "road_hexside":
        side = board.side(source, target)
        return side.road or side.trail
    return any(board.side(target, n).road or board.side(target, n).trail
               for n in board.neighbours(target))


@implements("7.0A", "7.0D", "7.1B")
def zoc_reach(ctx: Any, unit: Mapping[str, Any]) -> list[str]:
    """The hexes (labels, board order) ``unit`` exerts a ZOC into: all six adjacent on-map hexes
    (7.0A, 7.0D: no terrain or hexside stops a ZOC), but in Mud (and Drying, 3.1B) an armor or
    mechanized ZOC only into town, city, road and trail hexes (7.1B: script ``zoc_into_hex``).
    Empty if the unit has no ZOC (:func:`exerts_zoc`) or is not on the map."""
    if not unit.get("hex") or not exerts_zoc(ctx, unit)[0]:
        return []
    here = parse_hex(unit["hex"])
    out = []
    for n in ctx.board.neighbours(here):
        facts = _facts(ctx, unit, road_or_town_hex=_road_or_town(ctx, n, here))
        if ctx.rules.allowed("zoc_into_hex", facts, ctx.pack.tables):
            out.append(hex_label(n))
    return out


@implements("7.0E")
def zoc_map(ctx: Any, side: str) -> dict[str, tuple[str, ...]]:
    """The enemy ZOC affecting units of ``side``: hex label -> ids of the enemy units exerting a
    ZOC into it (sorted). EZOCs do not affect an enemy unit's own ZOC (7.0E): every enemy unit
    is counted wherever it stands, even in a hex of ``side``'s ZOC. Cached per context."""
    key = ("zoc.map", side)
    cached = ctx.memo.get(key)
    if cached is not None:
        return cached
    found: dict[str, list[str]] = {}
    for u in ctx.state.units:
        if u.get("side") == side or not u.get("hex"):
            continue
        for h in zoc_reach(ctx, u):
            found.setdefault(h, []).append(u["id"])
    result = {h: tuple(sorted(ids)) for h, ids in found.items()}
    ctx.memo[key] = result
    return result


def exerted_by(ctx: Any, hex_: str, side: str) -> tuple[str, ...]:
    """Ids of the enemy units exerting a ZOC into ``hex_`` against ``side`` (empty: no EZOC)."""
    return zoc_map(ctx, side).get(hex_, ())


def chart_row(ctx: Any, unit: Mapping[str, Any]) -> str:
    """The ZOC Chart row of a unit: its class; an HQ marked mechanized uses the mechanized row
    under interpretation hq-movement-class (setting ``hq_movement_class``)."""
    cls = unit.get("class", "infantry")
    if cls == "hq" and unit.get("mechanized") and \
            ctx.state.setting("hq_movement_class", "by_mechanized") == "by_mechanized":
        return "mechanized"
    return cls


@implements("7.0C")
def chart_column(ctx: Any) -> tuple[str, tuple[str, ...]]:
    """The ZOC Chart column in force and its cases: the Arctic column whenever the temperature
    is Arctic (4.6A, 7.1C), else the column of the ground condition (script ``zoc_column``)."""
    w = weather_facts(ctx)
    if w["temperature"] == "arctic":
        return "arctic", ("7.0C", "4.6A")
    q = ctx.quantity("zoc_column", w)
    return str(q.value), tuple(q.cases)


def _cases_of(provenance: str | None) -> tuple[str, ...]:
    """The case ids a ``rulebook:``/``errata:`` provenance names (none for reconstructed)."""
    if not provenance or not provenance.startswith(("rulebook:", "errata:")):
        return ()
    head = provenance.split(":", 1)[1]
    return tuple(c.strip().split(" ")[0] for c in head.split(",") if c.strip())


def _errata_cases(ctx: Any, table_id: str, path: list[str]) -> tuple[str, ...]:
    """The cases of the errata patches that set this cell of table ``table_id`` (the loader
    keeps a patched value's provenance beside the table, not in the cell)."""
    return tuple(p["case"] for _, _, p in ctx.pack.errata
                 if list(p.get("path") or []) == path and str(p.get("file", "")).endswith(f"/{table_id}.yaml"))


@implements("7.0B", "7.0C", "0.2.3.1")
def chart_kind(ctx: Any, row: str) -> tuple[str, tuple[str, ...]]:
    """How a moving unit of chart row ``row`` treats an EZOC now: ``"locking"``, ``"fluid"`` or
    ``"none"`` (7.0B-C), from ``zoc_chart`` (its Arctic column is ``none`` for every row after
    errata 0.2.3.1), with the cases: the column's and the cell's provenance."""
    key = ("zoc.kind", row)
    if key not in ctx.memo:
        column, cases = chart_column(ctx)
        table = ctx.table("zoc_chart")
        kind = table.lookup(unit=row, weather=column)
        cell_cases = (_cases_of(table.provenance_of(unit=row, weather=column))
                      + _errata_cases(ctx, table.id, ["cells", row, column]))
        ctx.memo[key] = (kind, tuple(dict.fromkeys(("7.0C", *cases, *cell_cases))))
    return ctx.memo[key]


def most_restrictive(kinds: Any) -> str:
    """The most restrictive of ``kinds`` (7.0F: several ZOCs or units add nothing more)."""
    return max(kinds, key=KIND_ORDER.index, default="none")


def unit_kind(ctx: Any, unit: Mapping[str, Any]) -> tuple[str, tuple[str, ...]]:
    """How ``unit`` (a record) treats an EZOC now (its chart row, :func:`chart_kind`)."""
    return chart_kind(ctx, chart_row(ctx, unit))


def is_combat_unit(unit: Mapping[str, Any]) -> bool:
    """A combat unit for 7.4/7.5A: not an HQ, and not a remnant (11.3D)."""
    return unit.get("class") not in ("hq", "remnant")


def friendly_combat_unit_in(ctx: Any, hex_: str, side: str) -> bool:
    """Whether a non-remnant combat unit of ``side`` is in ``hex_`` (7.4, 7.5A)."""
    return any(u.get("side") == side and is_combat_unit(u) for u in ctx.state.units_at(hex_))
