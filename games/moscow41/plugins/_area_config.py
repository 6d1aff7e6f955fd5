"""Moscow '41's configuration of the shared supply and command areas
(``casebook.areas.supply_paths``, ``supply_trace``, ``command``): private helper of the `supply`
and `command` plugins.

What is Moscow '41's own: the unit fields its ZOC and movement-cost hooks read, which friendly
units lift an EZOC (combat units: neither HQs, 0.5.4, nor remnants, 11.3D; 5.4B, 7.4, 8.1B), the
reasons a blocked supply hex shows (5.4A, 5.2A; 5.4B, 7.4), the TEC row a unit moves on (9.2A; an
HQ marked mechanized uses the mechanized row, interpretation hq-movement-class), the TEC as a
fallback when no plugin answers ``casebook_move_cost`` (9.2A-B through the ``move_cost`` script)
and the unit fact ``panzer_division`` the command lines read (2.2C-D); and the phasing side a
step's plugin acts for (:func:`phasing`, the paratroop and partisan plugins').
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casebook.areas.command import CommandPaths
from casebook.areas.supply_paths import SUPPLY_CONFIG, SupplyPaths
from casebook.areas.terrain_costs import weather
from casebook.content.packconfig import config_reader
from casebook.core.hexgrid import Hex

__all__ = ["NON_COMBAT", "FIELDS", "phasing", "is_combat", "is_panzer", "move_class", "tec_cost", "supply_paths", "COMMAND"]

#: Classes that are not combat units: HQs (0.5.4) and remnants (11.3D).
NON_COMBAT = frozenset({"hq", "remnant"})
#: The unit fields supply and command answers depend on (and the ZOC and movement cost hooks read).
FIELDS = ("id", "hex", "side", "class", "size", "mechanized", "radius", "limit", "division")


def phasing(ctx: Any, phase: str) -> str | None:
    """The phasing side during ``phase`` (the state's, else the first player in a ``first…`` phase
    and the other side in a ``second…`` one; None before the first player is known)."""
    if ctx.state.phasing:
        return ctx.state.phasing
    first = ctx.state.first_player
    if first is None:
        return None
    return first if phase.startswith("first") else ctx.state.other_side(first)


def is_combat(unit: Mapping[str, Any]) -> bool:
    """A combat unit: neither an HQ nor a remnant (11.3D: a remnant is not a combat unit)."""
    return unit.get("class") not in NON_COMBAT


def is_panzer(unit: Mapping[str, Any]) -> bool:
    """A German panzer division or one of its regiments (counters' ``division`` with armor or
    mechanized class: 0.2.4.1, 2.2C-D)."""
    return (unit.get("side") == "german" and bool(unit.get("division"))
            and unit.get("class") in ("armor", "mechanized"))


def move_class(ctx: Any, unit: Mapping[str, Any]) -> str:
    """The TEC row of ``unit``: its class; an HQ marked mechanized uses the mechanized row
    (interpretation hq-movement-class, setting ``hq_movement_class``)."""
    cls = unit.get("class", "infantry")
    if cls == "hq" and unit.get("mechanized") and \
            ctx.state.setting("hq_movement_class", "by_mechanized") == "by_mechanized":
        return "mechanized"
    return cls


def tec_cost(ctx: Any, unit: Mapping[str, Any], a: Hex, b: Hex) -> int | None:
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
    temperature, ground = weather(ctx)
    cost = ctx.value("move_cost", {
        "hex_terrain": terrain, "move_class": move_class(ctx, unit), "hexside_feature": feature,
        "ground": ground, "temperature": temperature, "fluid_ezoc_to_ezoc": False, "overrun": False})
    return None if cost >= 99 else cost


#: The supply area as Moscow '41 configures it: the reasons of config/supply.yaml and the functions
#: above (plugin data ``supply``: the Entry Areas entered, 5.1B)
supply_paths = config_reader("supply", SUPPLY_CONFIG, SupplyPaths, name="supply", fields=FIELDS, opens=is_combat,
                             row=move_class, fallback=tec_cost)

#: The command area as Moscow '41 configures it (8.0-8.4).
COMMAND = CommandPaths(fields=FIELDS, opens=is_combat, unit_facts=lambda u: {"panzer_division": is_panzer(u)})
