"""Supply path search for the Moscow '41 `supply` plugin (5.1-5.4, 7.4): private helper.

Hexes are :class:`~casebook.core.hexgrid.Hex` inside this module, labels (``"0303"``) at its
edges. Every derived map of a side is kept in the side's store (``_supply_keys.side_store``:
keyed by what the map depends on — unit placement, weather, settings, entered areas, city
control — so it survives state changes that touch none of these):

- ``blocked(ctx, side)`` — hexes a supply path of ``side`` cannot pass (5.4A enemy units; 5.4B,
  7.4 EZOCs without a friendly non-remnant combat unit), each with its reason and cases;
- ``sources(ctx, side)`` — supply source hexes and whether each is usable (5.1A-C);
- ``radius_path`` — an HQ's radius path (5.3).

The line network and the units' traces are in ``_supply_trace``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casebook.areas import _supply_search as index_
from casebook.areas import supply as supply_area
from casebook.areas.search import path_within
from casebook.content.cases import implements
from casebook.core.hexgrid import Hex, hex_label, parse_hex
from casebook.games.moscow41.plugins._rule_refusals import memo_allowed
from casebook.games.moscow41.plugins._supply_keys import placement, side_store, weather

__all__ = [
    "NON_COMBAT", "is_combat", "side_of", "unit_hex", "move_class", "ezoc", "blocked", "sources",
    "usable", "closed_indices", "radius_path",
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


_units_by_hex = supply_area.units_by_hex
_weather = weather


@implements("7.4")
def ezoc(ctx: Any, h: Hex, side: str) -> bool:
    """Whether an enemy ZOC lies in ``h`` for ``side`` (the supply area's ``ezoc``: asks
    ``casebook_zoc``; without a ZOC plugin, any adjacent enemy unit allowed to exert a ZOC by the
    ``exert_zoc`` permission, 7.1A, 7.1C, 4.6A)."""
    return supply_area.ezoc(ctx, h, side)


@implements("5.2A", "5.4A", "5.4B", "7.4")
def blocked(ctx: Any, side: str) -> dict[Hex, tuple[str, tuple[str, ...]]]:
    """Hex -> (reason, cases) for every hex a supply or command path of ``side`` cannot pass:
    enemy-occupied (5.4A) or in an EZOC without a friendly non-remnant combat unit (5.4B, 7.4).
    Only hexes next to enemy units are asked about ZOCs (a ZOC extends to adjacent hexes, 7.0D)."""
    store = side_store(ctx, side)
    if "blocked" not in store:  # 5.4A, 5.2A (supply.rules) and 5.4B, 7.4 (zoc.rules)
        store["blocked"] = supply_area.path_blocks(
            ctx, side, through_enemy="trace_supply_through_enemy", through_ezoc="trace_supply_through_ezoc",
            opens=is_combat, reasons=(_ENEMY, _EZOC), cache="supply.enemy-blocks", keep=16,
            fallback_key=(placement(ctx), _weather(ctx)))
    return store["blocked"]


def _enemy_blocks(ctx: Any, side: str) -> tuple[list[Hex], list[Hex]]:
    """``(enemy-occupied hexes, EZOC hexes next to them)`` against ``side`` (the supply area's
    ``enemy_blocks``, kept by the ZOC plugin's map key; without a ZOC plugin, by every unit's
    placement and the weather); :func:`blocked` lifts the EZOCs friendly combat units stand in."""
    return supply_area.enemy_blocks(ctx, side, "supply.enemy-blocks", 16, (placement(ctx), _weather(ctx)))


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

    def kind_ok(kind: str, entered: bool = False) -> bool:  # the supply_source lines (5.1A-C)
        return memo_allowed(ctx, "supply_source", {"side": side, "source_kind": kind, "area_entered": entered})

    if kind_ok("west_edge"):
        for h in _edge(ctx, "west"):
            found.setdefault(h, ("west map edge", ("5.1A",)))
    entered = set((ctx.state.plugin_data("supply") or {}).get("entered", []))
    for area in sorted(ctx.board.entry_areas):
        if kind_ok("entry_area", area in entered):
            for h in sorted(ctx.board.entry_areas.get(area, ())):
                found.setdefault(h, (f"Entry Area {area}, entered by German units", ("5.1B",)))
    if kind_ok("east_edge"):
        for h in _edge(ctx, "east"):
            found.setdefault(h, ("east map edge", ("5.1C",)))
    if kind_ok("friendly_city"):
        for h, town in ctx.board.towns().items():
            if town.get("kind") == "city" and ctx.state.control(hex_label(h)) == side:
                found.setdefault(h, (f"friendly city {town.get('name', '')}".strip(), ("5.1C",)))
    by_hex = _units_by_hex(ctx)
    ezocs = set(_enemy_blocks(ctx, side)[1])
    out: dict[Hex, tuple[bool, str, tuple[str, ...]]] = {}
    for h, (why, cases) in found.items():
        units = by_hex.get(h, ())
        enemy = any(u.get("side") != side for u in units)
        if memo_allowed(ctx, "use_supply_source", {"enemy_occupied": enemy, "in_ezoc": h in ezocs,
                                                   "friendly_unit": bool(units) and not enemy}):
            out[h] = (True, why, cases)
        elif enemy:
            out[h] = (False, f"{why}: occupied by an enemy unit", (*cases, "5.1C"))
        else:
            out[h] = (False, f"{why}: unoccupied and in an enemy ZOC", (*cases, "5.1C"))
    store["sources"] = out
    return out


def usable(ctx: Any, side: str) -> set[Hex]:
    """The usable supply sources of ``side`` (:func:`sources`)."""
    store = side_store(ctx, side)
    if "usable" not in store:
        store["usable"] = {h for h, (ok, _, _) in sources(ctx, side).items() if ok}
    return store["usable"]


def closed_indices(ctx: Any, side: str) -> frozenset[int]:
    """Board indices of the blocked hexes a path may end in but not pass: all but usable sources."""
    store = side_store(ctx, side)
    if "closed" not in store:
        ix = index_.board_index(ctx).index
        open_sources = usable(ctx, side)
        store["closed"] = frozenset(ix[h] for h in blocked(ctx, side) if h not in open_sources)
    return store["closed"]


def _hq_reach(ctx: Any, side: str, hq_hex: Hex, radius: int) -> dict[Hex, list[Hex]]:
    """Shortest hex paths from an HQ through unblocked hexes, up to ``radius`` hexes (the supply
    area's ``radius_reach``), once per side store."""
    store = side_store(ctx, side)
    key = ("hq-reach", hq_hex, radius)
    if key not in store:
        store[key] = supply_area.radius_reach(ctx, hq_hex, radius, blocked(ctx, side))
    return store[key]


@implements("5.3", "8.1A", "8.1B")
def radius_path(ctx: Any, side: str, hq_hex: Hex, target: Hex, radius: int) -> list[Hex] | None:
    """The shortest path of hexes from an HQ to ``target`` of at most ``radius`` hexes (0.2.4.8:
    the target's hex counts, the HQ's does not), through no blocked hex but its two ends
    (5.2A, 5.4, 7.4, 8.1B); None if there is none. Terrain and weather do not count (8.1A, 8.1D)."""
    return path_within(ctx.board, _hq_reach(ctx, side, hq_hex, radius), target, radius)
