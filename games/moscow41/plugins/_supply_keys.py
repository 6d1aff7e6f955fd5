"""What a side's supply depends on, and where its maps are kept: private helper of `supply`.

A side's supply (5.1-5.4, 7.4) is a function of

- where every unit stands and what it is — id, hex, side, class, size, mechanized, radius,
  limit, division: enemy units block paths (5.4A) and exert ZOCs (the ZOC hook reads side,
  class and size, 7.1A-C), friendly non-remnant combat units open EZOC hexes (5.4B, 7.4), HQs
  lend their radius (5.3), the TEC row follows class and mechanized (9.2A);
- the weather and the settings read by the ZOC and movement cost hooks (:data:`SETTINGS`);
- the Entry Areas German units entered (5.1B) and who controls the cities (5.1C);
- the hexes that are a ZOC by themselves (``casebook_zoc_sources``: Partisan markers, 16.3A;
  scattered paratroops, 15.3B), which block paths like any EZOC.

:func:`side_store` returns a dict for the maps of one such key, kept across state changes in
``ctx.lasting`` (the last :data:`KEEP` keys): an activation, an IP, a marker or a new step
keeps them; any move, loss or weather change makes a new key. Within one state version the
store is found again through ``ctx.memo`` without recomputing the key.
"""

from __future__ import annotations

from typing import Any

from casebook.areas import supply as area
from casebook.areas.supply import lru_get
from casebook.core.hexgrid import hex_label

__all__ = ["UNIT_FIELDS", "SETTINGS", "KEEP", "placement", "weather", "settings", "zoc_sources", "side_key",
           "side_store", "lru_get"]

#: The unit fields supply and the hooks it asks (ZOC, movement costs) read.
UNIT_FIELDS = ("id", "hex", "side", "class", "size", "mechanized", "radius", "limit", "division")
#: Settings (interpretations) read by supply, the ZOC hook and the movement cost hook.
SETTINGS = ("road_bridges", "hq_movement_class", "no_zoc_scope", "mud_zoc_roads", "locking_ezoc_to_ezoc")
#: How many keys keep their maps.
KEEP = 48


def placement(ctx: Any) -> tuple[tuple[Any, ...], ...]:
    """The :data:`UNIT_FIELDS` of every unit on a map hex, in state order (the supply area's
    ``placement``, once per version)."""
    return area.placement(ctx, UNIT_FIELDS)


def weather(ctx: Any) -> tuple[str, str]:
    """``(temperature, ground)`` in force; Warm/Dry before the first Weather Phase."""
    w = ctx.state.weather or {}
    return w.get("temperature", "warm"), w.get("ground", "dry")


def settings(ctx: Any) -> tuple[Any, ...]:
    """The :data:`SETTINGS` in force (once per state version)."""
    memo = ctx.memo
    found = memo.get(("supply", "settings"))
    if found is None:
        found = memo[("supply", "settings")] = tuple(ctx.state.setting(name) for name in SETTINGS)
    return found


def _cities(ctx: Any) -> list[str]:
    cache = ctx.lasting("supply.cities")
    if "cities" not in cache:
        cache["cities"] = [hex_label(h) for h, t in ctx.board.towns().items() if t.get("kind") == "city"]
    return cache["cities"]


zoc_sources = area.zoc_sources


def side_key(ctx: Any, side: str) -> tuple[Any, ...]:
    """Everything ``side``'s supply maps depend on (see the module docstring)."""
    if side == "german":
        extra: tuple[Any, ...] = tuple((ctx.state.plugin_data("supply") or {}).get("entered", ()))
    else:
        extra = tuple(ctx.state.control(h) for h in _cities(ctx))
    return (side, placement(ctx), weather(ctx), settings(ctx), extra, zoc_sources(ctx, side))


def side_store(ctx: Any, side: str) -> dict[Any, Any]:
    """The cache of ``side``'s supply maps for the current :func:`side_key` (asked hundreds of
    times per answer set: the state version's memo first)."""
    store = ctx.memo.get(("supply", "store", side))
    return store if store is not None else area.side_maps(ctx, side, "supply.maps", lambda: side_key(ctx, side),
                                                          KEEP, "supply")
