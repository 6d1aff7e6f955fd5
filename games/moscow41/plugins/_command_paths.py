"""Command paths for the Moscow '41 `command` plugin (0.2.4.8, 7.4, 8.0-8.4): private helper.

A command path runs from an HQ to a unit in hexes (no MPs, 8.1A), at most the HQ's Command Radius
long counting the unit's hex and not the HQ's (0.2.4.8), through no enemy unit and no EZOC
unless a friendly non-remnant combat unit is in the hex (8.1B, 7.4). Supply and weather do not
matter (8.1D). Derived maps are kept per :func:`command_key` (what they depend on: unit placement,
weather, the settings the ZOC hook reads) in ``ctx.lasting``, so a change that moves nothing
(an activation, IPs, a new step) keeps them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casebook.areas import supply as area
from casebook.areas.search import path_within
from casebook.content.cases import implements
from casebook.core.hexgrid import Hex, parse_hex
from casebook.games.moscow41.plugins._rule_refusals import memo_allowed

__all__ = ["is_panzer", "hqs_of", "may_activate", "path_hexes", "command_key", "command_blocked", "hq_reach", "command_path", "hq_entry",
           "command_answer"]

#: The unit fields command paths and answers read (and the ZOC hook: side, class, size).
_UNIT_FIELDS = ("id", "hex", "side", "class", "size", "mechanized", "radius", "limit", "division")
#: Settings read by the ZOC hook (and the HQ movement class).
_SETTINGS = ("no_zoc_scope", "mud_zoc_roads", "hq_movement_class")
#: How many keys keep their maps.
_KEEP = 32


def command_key(ctx: Any, side: str) -> tuple[Any, ...]:
    """Everything ``side``'s command paths and answers depend on: where each unit stands and
    what it is (enemy units and their ZOCs block, 8.1B; friendly combat units open EZOC hexes,
    7.4; HQs trace, 8.1), the weather, the settings the ZOC hook reads and the hexes that are a
    ZOC by themselves (``casebook_zoc_sources``: Partisan markers, 16.3A)."""
    w = ctx.state.weather or {}
    return (side, area.placement(ctx, _UNIT_FIELDS), w.get("temperature", "warm"), w.get("ground", "dry"),
            tuple(ctx.state.setting(name) for name in _SETTINGS), area.zoc_sources(ctx, side))


def _store(ctx: Any, side: str) -> dict[Any, Any]:
    """The cache of ``side``'s command maps for the current :func:`command_key`."""
    store = ctx.memo.get(("command", "store", side))
    return store if store is not None else area.side_maps(ctx, side, "command.maps", lambda: command_key(ctx, side),
                                                          _KEEP, "command")


def is_panzer(unit: Mapping[str, Any]) -> bool:
    """A German panzer division regiment (0.2.4.1: it carries its division; 2.2C)."""
    return (unit.get("side") == "german" and bool(unit.get("division"))
            and unit.get("class") in ("armor", "mechanized"))


def hqs_of(ctx: Any, side: str) -> list[Mapping[str, Any]]:
    """The HQs of ``side`` on the map, by id (found once per state version)."""
    key = ("command", "hqs", side)
    found = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = sorted((u for u in ctx.state.units if u.get("side") == side
                                        and u.get("class") == "hq" and u.get("hex")), key=lambda u: u["id"])
    return list(found)


def may_activate(ctx: Any, panzer: bool, hq_mechanized: bool, unit_class: Any) -> bool:
    """The ``hq_activate_unit`` verdict (2.2C, 2.2E) for these facts, kept per engine: a rule
    script is a pure function of its facts."""
    cache = ctx.lasting("command.hq_activate_unit")
    key = (panzer, hq_mechanized, unit_class)
    found = cache.get(key)
    if found is None:
        found = cache[key] = bool(ctx.permission("hq_activate_unit", {
            "panzer_division": panzer, "hq_mechanized": hq_mechanized, "unit_class": unit_class}).value)
    return found


def path_hexes(ctx: Any, hq: Mapping[str, Any]) -> int:
    """How many hexes a command path of ``hq`` may run: the script quantity
    ``command_path_hexes`` (command.rules: its current Command Radius, 8.1A, 0.2.4.8; supply
    and weather do not count, 8.1D), kept per engine by the radius."""
    radius = int(hq.get("radius") or 0)
    cache = ctx.lasting("command.path_hexes")
    if radius not in cache:
        cache[radius] = int(ctx.value("command_path_hexes", {"command_radius": radius}))
    return int(cache[radius])


def _support_limit(ctx: Any, side: str, limit: int, radius: int) -> Any:
    """The ``hq_support_limit`` quantity (8.3.1B, 8.3.2B) for these facts, kept per engine."""
    cache = ctx.lasting("command.hq_support_limit")
    key = (side, limit, radius)
    if key not in cache:
        cache[key] = ctx.value("hq_support_limit", {"side": side, "command_limit": limit, "command_radius": radius})
    return cache[key]


def _hq_hexes(ctx: Any, side: str) -> list[tuple[Mapping[str, Any], Hex, int]]:
    """``(HQ, its hex, its radius)`` for every HQ of ``side`` by id (once per version)."""
    key = ("command", "hq-hexes", side)
    found = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = [(hq, parse_hex(hq["hex"]), path_hexes(ctx, hq))
                                 for hq in hqs_of(ctx, side)]
    return found


@implements("8.0A", "8.1B", "7.4")
def command_blocked(ctx: Any, side: str) -> dict[Hex, str]:
    """Hex -> reason for every hex a command path of ``side`` cannot pass: enemy-occupied, or in
    an EZOC (asked of ``casebook_zoc``) without a friendly non-remnant combat unit (8.1B, 7.4).
    (Enemy hexes first, then EZOC hexes, each in hex order; the order carries no meaning.)"""
    store = _store(ctx, side)
    if "blocked" not in store:  # 8.0A, 8.1B (command.rules) and 7.4, 8.1B (zoc.rules)
        store["blocked"] = area.path_blocks(
            ctx, side, through_enemy="trace_command_through_enemy", through_ezoc="trace_command_through_ezoc",
            opens=lambda u: u.get("class") not in ("hq", "remnant"), reasons=("enemy unit", "enemy ZOC"),
            cache="command.enemy-blocks", keep=_KEEP, per_hex=True)  # as before the area: per-hex ZOC answers
    return store["blocked"]


def hq_reach(ctx: Any, hq: Mapping[str, Any]) -> dict[Hex, list[Hex]]:
    """Shortest unblocked hex paths from ``hq`` up to its radius (one breadth-first search per
    HQ hex, radius and :func:`command_key`)."""
    return _reach(ctx, hq["side"], parse_hex(hq["hex"]), path_hexes(ctx, hq))


def _reach(ctx: Any, side: str, start: Hex, radius: int) -> dict[Hex, list[Hex]]:
    store = _store(ctx, side)
    key = ("reach", start, radius)
    found = store.get(key)
    if found is None:  # the supply area's radius search, once per HQ and key
        found = store[key] = area.radius_reach(ctx, start, radius, command_blocked(ctx, side))
    return found


@implements("8.1A", "8.1B", "8.1D", "0.2.4.8")
def command_path(ctx: Any, hq: Mapping[str, Any], target: Hex) -> list[Hex] | None:
    """The shortest command path from ``hq`` to ``target`` (8.1A: traced from the HQ) if it is
    at most the HQ's radius in hexes (0.2.4.8), else None. Terrain, weather and supply do not
    count (8.1D)."""
    return path_within(ctx.board, hq_reach(ctx, hq), target, path_hexes(ctx, hq))


@implements("2.2C", "2.2E", "8.3.1B", "8.3.2B")
def hq_entry(ctx: Any, hq: Mapping[str, Any], unit: Mapping[str, Any], distance: int) -> dict[str, Any]:
    """One HQ in the command answer: ``{"hq", "distance" (hexes), "radius", "can_activate"
    (2.2C, 2.2E), "support_limit" (attacks it can support, 8.3.1B / 8.3.2B)}``."""
    support = _support_limit(ctx, hq["side"], int(hq.get("limit") or 0), int(hq.get("radius") or 0))
    return {"hq": hq["id"], "distance": distance, "radius": int(hq.get("radius") or 0),
            "can_activate": may_activate(ctx, is_panzer(unit), bool(hq.get("mechanized")), unit.get("class")),
            "support_limit": support}


@implements("8.0A", "8.0B", "8.1C", "8.4B", "2.2D")
def command_answer(ctx: Any, uid: str) -> dict[str, Any]:
    """Whether ``uid`` is in command: ``{"unit", "in_command": bool, "hqs": [hq entries, nearest
    first], "cases"}``. An HQ is always in command and traces to no other HQ (8.1C, 8.0B). A
    German panzer regiment is in command of any German HQ (for support and supply, 2.2D) but
    only a mechanized HQ can activate it (``can_activate``, 2.2C). KeyError if not on the map."""
    unit = ctx.state.unit(uid)
    store = _store(ctx, unit["side"])
    key = ("answer", uid)
    if key in store:
        return store[key]
    if not memo_allowed(ctx, "trace_command_path", {"unit_class": unit.get("class", "infantry")}):
        answer = {"unit": uid, "in_command": True, "hqs": [], "cases": ["8.1C", "8.0B"]}  # an HQ
    else:
        target = parse_hex(unit["hex"])
        hqs = []
        distance, col, row = ctx.board.grid.distance, target.col, target.row
        for hq, start, radius in _hq_hexes(ctx, unit["side"]):
            if abs(start.col - col) > radius or abs(start.row - row) > radius \
                    or distance(start, target) > radius:
                continue  # a path steps between grid neighbours (the board's edges: column and
                # row change by one at most), so it is never shorter than the distance: none
                # within the radius (0.2.4.8)
            path = path_within(ctx.board, _reach(ctx, hq["side"], start, radius), target, radius)  # 8.1A
            if path is not None:
                hqs.append(hq_entry(ctx, hq, unit, len(path) - 1))
        hqs.sort(key=lambda e: (e["distance"], e["hq"]))
        cases = ["8.0A", "8.1A", "8.1B", "7.4", "0.2.4.8", "8.1D"]
        if is_panzer(unit):
            cases += ["2.2C", "2.2D"]
        answer = {"unit": uid, "in_command": bool(hqs), "hqs": hqs, "cases": cases}
    store[key] = answer
    return answer
