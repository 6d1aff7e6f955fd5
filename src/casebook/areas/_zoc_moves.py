"""ZOC effects on moves and retreats (private helper of the `zoc` area): the refusals of a
locking ZOC and of retreats into an EZOC (e.g. Moscow '41 7.2, 7.5A), checked on an action's path.

A path is the list of hex labels entered, in order, after the starting hex. The moving units are
the action's ``units`` (or ``unit``) argument, else every unit of the acting side in the starting
hex (``stack``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from casebook.core.hooks import Refusal

from ._game_cases import given_or
from ._zoc_chart import chart_row, kind_in_effect
from ._zoc_cites import closes, effect_cases, line_cases, note_binding
from ._zoc_map import exerted_by, friendly_combat_unit_in, hex_lines, most_restrictive, unit_kind

__all__ = ["moving_units", "stack_kind", "locking_refusals", "retreat_refusals",
           "retreat_allowed_into", "retreat_cases"]

SOURCE = "zoc"


def moving_units(ctx: Any, action: Any, start: str | None) -> list[Mapping[str, Any]]:
    """The unit records an action moves (see the module docstring); unknown ids are skipped
    (the owning plugin refuses them)."""
    ids = action.get("units") or action.get("unit")
    if isinstance(ids, str):
        ids = (ids,)
    if ids:
        return [ctx.state.unit(i) for i in ids if ctx.state.has_unit(i)]
    if start is None:
        return []
    return [u for u in ctx.state.units_at(start) if u.get("side") == action.side]


def stack_kind(ctx: Any, units: Sequence[Mapping[str, Any]]) -> tuple[str, tuple[str, ...]]:
    """How a stack moving together treats EZOCs: the most restrictive kind of its units
    (a stack moves as one, so each unit's limits bind it; 7.0B-C, 7.0F)."""
    kinds = [unit_kind(ctx, u) for u in units]
    kind = most_restrictive(k for k, _ in kinds)
    cases = tuple(dict.fromkeys(c for k, cs in kinds if k == kind for c in cs))
    return kind, cases


def locking_refusals(ctx: Any, side: str, start: str, path: Sequence[str],
                     units: Sequence[Mapping[str, Any]]) -> list[Refusal]:
    """The 7.2 refusals of moving ``units`` (of ``side``) from ``start`` along ``path`` when they
    treat EZOCs as locking: a unit stops on entering an EZOC (no hex may follow it on the path),
    and may leave an EZOC at the start of its move but never directly into another EZOC (any
    enemy unit's, or only the same enemy unit's under setting ``locking_ezoc_to_ezoc:
    same_unit``; interpretation locking-ezoc-to-ezoc). Fluid and none kinds: no refusal here
    (7.3's +1 MP is a cost, script ``move_cost``)."""
    if not units or not path:
        return []
    kind, cases = stack_kind(ctx, units)
    if kind_in_effect(ctx, kind) != "locking":  # as the game's move_on_in_ezoc lines bind it
        return []
    same_only = ctx.state.setting("locking_ezoc_to_ezoc", "any") == "same_unit"
    hexes = [start, *path]
    for i in range(1, len(hexes)):
        before, here = exerted_by(ctx, hexes[i - 1], side), exerted_by(ctx, hexes[i], side)
        if before and here and (not same_only or set(before) & set(here)):
            return [Refusal(f"a unit treating ZOCs as locking cannot move directly from one EZOC "
                            f"({hexes[i - 1]}, of {', '.join(before)}) to another ({hexes[i]}, of "
                            f"{', '.join(here)})", _cited(ctx, units, cases, hexes[i - 1:i + 1], side), SOURCE)]
        if here and i < len(hexes) - 1:
            return [Refusal(f"a unit treating ZOCs as locking must stop on entering the EZOC in "
                            f"{hexes[i]} (of {', '.join(here)}); the path goes on to {hexes[i + 1]}",
                            _cited(ctx, units, cases, hexes[i:i + 1], side), SOURCE)]
    return []


def _cited(ctx: Any, units: Sequence[Mapping[str, Any]], cases: tuple[str, ...], hexes: Sequence[str],
           side: str) -> tuple[str, ...]:
    """The cases of a 7.2 refusal, its deciding lines noted (:func:`note_binding`): the locking
    lines (the game's ``area_cases: zoc: locking``, else its ``move_on_in_ezoc`` lines), the ZOC
    Chart cells of the movers' own rows (``cases``: those of the column and cells) and the lines
    that put ``hexes`` (the EZOCs that stopped the move) in an EZOC of ``side``'s enemies."""
    lines = hex_lines(ctx, side) or {}
    rows = [chart_row(ctx, u) for u in units]
    noted = note_binding(ctx, rows, "locking", tuple(e for h in hexes for e in lines.get(h, ())))
    return tuple(dict.fromkeys((*given_or(ctx, SOURCE, "locking", lambda c: effect_cases(c, "locking")), *cases,
                                *noted)))


def retreat_allowed_into(ctx: Any, hex_: str, side: str) -> bool:
    """Whether a retreating unit of ``side`` may enter ``hex_`` as far as ZOCs go: not an EZOC, or
    one the game's ``retreat_into_ezoc`` lines open for fact ``friendly_combat_unit`` (a friendly
    combat unit, :func:`~._zoc_map.is_combat_unit`, is in the hex; e.g. Moscow '41 7.5A), naming
    those lines only; a game without such lines: open where a friendly combat unit is."""
    if not exerted_by(ctx, hex_, side):
        return True
    friendly = friendly_combat_unit_in(ctx, hex_, side)
    return not closes(ctx, "blocks_retreat", friendly, otherwise=not friendly)


def retreat_cases(ctx: Any) -> tuple[str, ...]:
    """What a retreat an EZOC closes cites: the cases the game gives (``area_cases: zoc:
    retreat_blocked``), else those of its ``retreat_into_ezoc`` lines."""
    return given_or(ctx, SOURCE, "retreat_blocked", lambda c: line_cases(c, ("retreat_into_ezoc",)))


def retreat_refusals(ctx: Any, side: str, path: Sequence[str]) -> list[Refusal]:
    """The first hex of a retreat ``path`` that is an EZOC the game's lines close
    (:func:`retreat_allowed_into`; e.g. 7.5A: without a friendly combat unit) refuses the retreat
    (the unit takes losses instead, 7.5B/11.2B)."""
    for h in path:
        if not retreat_allowed_into(ctx, h, side):
            held = " even with" if friendly_combat_unit_in(ctx, h, side) else " without"
            return [Refusal(f"a retreating unit cannot enter the EZOC in {h} (of "
                            f"{', '.join(exerted_by(ctx, h, side))}){held} a friendly combat "
                            f"unit there", retreat_cases(ctx), SOURCE)]
    return []
