"""The ZOC Chart (private helper of the `zoc` area, split from :mod:`._zoc_map`): how a moving
unit treats an EZOC — its chart row, the column in force and the cell (e.g. Moscow '41 7.0B-C,
7.0F and errata 0.2.3.1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._game_cases import given_or

__all__ = ["KIND_ORDER", "weather_facts", "chart_row", "chart_column", "chart_kind", "most_restrictive", "unit_kind",
           "kind_in_effect"]

#: ZOC kinds from least to most restrictive (7.0B: a locking ZOC stops a unit, a fluid one costs
#: +1 MP EZOC to EZOC, none has no effect); the most restrictive wins (7.0F).
KIND_ORDER: tuple[str, ...] = ("none", "fluid", "locking")


def weather_facts(ctx: Any) -> dict[str, str]:
    """``{"temperature", "ground"}`` in force (the Weather Display). A position without weather
    (before the first Weather Phase) is read as Warm and Dry, the fixed weather of Turn 1
    (e.g. Moscow '41 18.2.4A; interpretation blitz-turn1-weather): the first temperature and
    ground of the game's vocabulary."""
    w = ctx.state.weather or {}
    if "temperature" in w and "ground" in w:
        return {"temperature": w["temperature"], "ground": w["ground"]}
    vocabulary = ctx.pack.vocabulary
    return {"temperature": w.get("temperature", (*vocabulary.temperatures, "none")[0]),
            "ground": w.get("ground", (*vocabulary.grounds, "none")[0])}


def chart_row(ctx: Any, unit: Mapping[str, Any]) -> str:
    """The ZOC Chart row of a unit: the game's ``chart_row`` quantity (facts ``unit_class``,
    ``unit_mechanized``; e.g. Moscow '41: an HQ marked mechanized uses the mechanized row, 9.2A,
    interpretation hq-movement-class), else its class (a unit without one: the vocabulary's
    first class). Once per class, flag and state version."""
    cls = unit.get("class") or (*ctx.pack.vocabulary.unit_classes, "none")[0]
    if "chart_row" not in ctx.rules.quantities:
        return str(cls)
    key = ("zoc.row", cls, bool(unit.get("mechanized")))
    memo = ctx.memo
    found = memo.get(key)
    if found is None:
        engine = ctx.engine  # read as a fact of the unit: not cited (the chart's cell and column are)
        found = memo[key] = str(engine.rules.value("chart_row", {"unit_class": cls, "unit_mechanized": key[2]},
                                                   engine.script_tables, ctx.standard))
    return found


def chart_column(ctx: Any) -> tuple[str, tuple[str, ...]]:
    """The ZOC Chart column in force and its cases: a column named for the temperature in force
    whenever the chart has one (e.g. Moscow '41's Arctic column, 4.6A, 7.1C: the cases the game
    gives as ``area_cases: zoc: temperature_column``, else the header of ``zoc_column``), else the
    column of the ground condition (script ``zoc_column``: the cases of its header and of the
    line that gave the column)."""
    w = weather_facts(ctx)
    header = ctx.rules.quantities["zoc_column"].code.cases   # `quantity zoc_column = first by …`
    if w["temperature"] in dict(ctx.table("zoc_chart").dims).get("weather", ()):
        return w["temperature"], given_or(ctx, "zoc", "temperature_column", lambda _: header)
    q = ctx.quantity("zoc_column", w)
    return str(q.value), tuple(dict.fromkeys((*header, *q.cases)))


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


def chart_kind(ctx: Any, row: str) -> tuple[str, tuple[str, ...]]:
    """How a moving unit of chart row ``row`` treats an EZOC now: ``"locking"``, ``"fluid"`` or
    ``"none"`` (7.0B-C), from ``zoc_chart`` (its Arctic column is ``none`` for every row after
    errata 0.2.3.1), with the cases: the column's and the cell's provenance."""
    return ctx.kept(("zoc.kind", *weather_facts(ctx).values()), row,  # the column: weather only
                    lambda: _chart_kind(ctx, row))


def _chart_kind(ctx: Any, row: str) -> tuple[str, tuple[str, ...]]:
    column, cases = chart_column(ctx)
    table = ctx.table("zoc_chart")
    kind = table.lookup(unit=row, weather=column)
    cell_cases = (_cases_of(table.provenance_of(unit=row, weather=column))
                  + _errata_cases(ctx, table.id, ["cells", row, column]))
    return kind, tuple(dict.fromkeys((*cases, *cell_cases)))


def kind_in_effect(ctx: Any, kind: str) -> str:
    """How an EZOC of chart kind ``kind`` (``"locking"``, ``"fluid"``, ``"none"``) binds a moving
    unit by the game's lines of ``move_on_in_ezoc`` (fact ``zoc_kind``), so that editing those
    lines changes play: forbidden — the unit stops on entering and never moves EZOC to EZOC
    (``"locking"``, e.g. Moscow '41 7.2); permitted — a fluid kind keeps its +1 MP EZOC to EZOC
    (7.3, a ``move_cost`` line), a permitted locking kind binds no more than ``"none"`` (7.0B). A
    game without those lines: ``kind`` as charted. Read without noting lines (the cases are cited
    by :func:`._zoc_cites.effect_cases`); once per kind and state version."""
    rules = ctx.rules
    if "move_on_in_ezoc" not in rules.permissions:
        return kind
    memo = ctx.memo
    key = ("zoc.kind_in_effect", kind)
    found = memo.get(key)
    if found is None:
        engine = ctx.engine
        stops = not engine.rules.allowed("move_on_in_ezoc", {"zoc_kind": kind}, engine.script_tables, ctx.standard)
        found = memo[key] = "locking" if stops else ("none" if kind == "locking" else kind)
    return str(found)


def most_restrictive(kinds: Any) -> str:
    """The most restrictive of ``kinds`` (7.0F: several ZOCs or units add nothing more)."""
    return max(kinds, key=KIND_ORDER.index, default="none")


def unit_kind(ctx: Any, unit: Mapping[str, Any]) -> tuple[str, tuple[str, ...]]:
    """How ``unit`` (a record) treats an EZOC now (its chart row, :func:`chart_kind`)."""
    return chart_kind(ctx, chart_row(ctx, unit))
