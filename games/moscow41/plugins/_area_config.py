"""Moscow '41's configuration of the shared supply and command areas
(``casebook.areas.supply_paths``, ``supply_trace``, ``command``): private helper of the `supply`
and `command` plugins.

What is Moscow '41's own: the unit fields its ZOC and movement-cost hooks read, which friendly
units lift an EZOC (combat units: the lines ``counts_as_combat_unit`` of zoc.rules, 0.5.4, 11.3D, as
the zoc area reads them; 5.4B, 7.4, 8.1B), the reasons a blocked supply hex shows (5.4A, 5.2A; 5.4B,
7.4), the TEC row a unit moves on (the quantity ``chart_row`` of zoc.rules, 7.0C, 9.2A, as the zoc
area reads it), the TEC as a fallback when no plugin answers ``casebook_move_cost`` (9.2A-B through the ``move_cost`` script)
and the unit fact ``panzer_division`` the command lines read (2.2C-D); and the phasing side a
step's plugin acts for (:func:`phasing`, the paratroop and partisan plugins').
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from casebook.areas._zoc_map import chart_row, is_combat_unit
from casebook.areas.command import CommandPaths
from casebook.areas.supply_paths import SUPPLY_CONFIG, SupplyPaths
from casebook.areas.terrain_costs import weather
from casebook.content.packconfig import config_reader
from casebook.core.hexgrid import Hex

__all__ = ["non_combat", "FIELDS", "phasing", "is_combat", "is_panzer", "move_class", "tec_cost", "supply_paths",
           "command_paths"]

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


def is_combat(ctx: Any, unit: Mapping[str, Any]) -> bool:
    """A combat unit: the verdict of zoc.rules' ``counts_as_combat_unit`` lines (not an HQ, 0.5.4,
    nor a remnant, 11.3D), read by the zoc area's ``is_combat_unit`` (one reading for all callers)."""
    return is_combat_unit(ctx, unit)


def non_combat(ctx: Any) -> frozenset[str]:
    """The unit classes of the vocabulary that are no combat units (:func:`is_combat`), once per
    state version: what a unit-record predicate without the context (an area's ``opens``) reads."""
    memo = ctx.memo
    found: frozenset[str] | None = memo.get("m41.non_combat")
    if found is None:
        found = memo["m41.non_combat"] = frozenset(
            c for c in ctx.pack.vocabulary.unit_classes if not is_combat_unit(ctx, {"class": c}))
    return found


def _opens(ctx: Any) -> Any:
    """The ``opens`` of the supply and command areas now: a friendly combat unit lifts an EZOC
    (5.4B, 7.4, 8.1B) — a unit whose class is not :func:`non_combat`."""
    excluded = non_combat(ctx)
    return lambda unit: unit.get("class") not in excluded


def is_panzer(unit: Mapping[str, Any]) -> bool:
    """A German panzer division or one of its regiments (counters' ``division`` with armor or
    mechanized class: 0.2.4.1, 2.2C-D)."""
    return (unit.get("side") == "german" and bool(unit.get("division"))
            and unit.get("class") in ("armor", "mechanized"))


def move_class(ctx: Any, unit: Mapping[str, Any]) -> str:
    """The TEC row of ``unit``: zoc.rules' quantity ``chart_row`` (its class; an HQ marked
    mechanized uses the mechanized row, 9.2A, interpretation hq-movement-class), read by the zoc
    area's ``chart_row`` (the row the ZOC Chart and the movement plugin read too)."""
    return chart_row(ctx, unit)


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
#: above (plugin data ``supply``: the Entry Areas entered, 5.1B); ``opens`` is set per state version
_supply_config = config_reader("supply", SUPPLY_CONFIG, SupplyPaths, name="supply", fields=FIELDS,
                               opens=lambda unit: True, row=move_class, fallback=tec_cost)
_COMMAND = CommandPaths(fields=FIELDS, opens=lambda unit: True, unit_facts=lambda u: {"panzer_division": is_panzer(u)})


def supply_paths(ctx: Any) -> SupplyPaths:
    """The supply area as Moscow '41 configures it now (its ``opens``: :func:`_opens`), once per
    state version."""
    memo = ctx.memo
    found: SupplyPaths | None = memo.get("m41.supply_paths")
    if found is None:
        found = memo["m41.supply_paths"] = dataclasses.replace(_supply_config(ctx), opens=_opens(ctx))
    return found


def command_paths(ctx: Any) -> CommandPaths:
    """The command area as Moscow '41 configures it now (8.0-8.4; ``opens``: :func:`_opens`),
    once per state version."""
    memo = ctx.memo
    found: CommandPaths | None = memo.get("m41.command_paths")
    if found is None:
        found = memo["m41.command_paths"] = dataclasses.replace(_COMMAND, opens=_opens(ctx))
    return found

