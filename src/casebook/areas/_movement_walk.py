"""Why a typed move of the shared movement area (``area_movement``) is illegal, hex by hex.

:func:`path_refusal` walks the path a ``move`` action gives with the same lines
:func:`casebook.areas.movement.reach` searches with — ``move_cost`` for each hex entered, ``ma``,
``max_hexes``, ``enter_enemy_hex`` and ``stacking_limit`` — so the validator that refuses a move
(one code path with play and ``ask reach``) can say which hex and which number refuse it: "the
path costs 7 MP (…), MA 6", "0506 holds enemy units". A path going on after entering an enemy ZOC
is the shared ``zoc`` area's refusal (its own validator). It holds no case id: every citation is
the lines' own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from casebook.core.hexgrid import hex_label, parse_hex

from ._zoc_cites import line_cases

__all__ = ["path_refusal"]


def path_refusal(ctx: Any, unit: Mapping[str, Any], path: Sequence[str], facts: Mapping[str, Any],
                 enemy: Callable[[str], bool], room: Callable[[str], bool]) -> tuple[str, tuple[str, ...]] | None:
    """``(reason, cases)`` why ``unit`` may not move along ``path`` (the hex labels entered, in
    order) now, or None when every step is legal. ``facts`` are the move's facts (side, class,
    MA, step, weather); ``enemy(hex)`` and ``room(hex)`` say whether enemy units stand in a hex
    and whether a move may end in it (stacking). Checked in the order a move is made: each hex
    adjacent to the last and not enemy-occupied; then the MP spent against ``ma`` (MP from ``move_cost``), the hexes
    entered against ``max_hexes`` and the last hex's room."""
    start = str(unit["hex"])
    ma = ctx.quantity("ma", facts)
    if not path:
        return "a move enters at least one hex", tuple(ma.cases)
    no_enemy = not ctx.allowed("enter_enemy_hex", facts)
    here, spent, costs = start, 0, []
    cost_cases: list[str] = []
    for there in path:
        if there not in {hex_label(n) for n in ctx.board.neighbours(parse_hex(here))}:
            start_too = " (list only the hexes entered, not the unit's own)" * (there == here == start)
            return f"{there} is not adjacent to {here}{start_too}", tuple(ma.cases)
        if no_enemy and enemy(there):
            return f"{there} holds enemy units", tuple(line_cases(ctx, ("enter_enemy_hex",)))
        cost = ctx.quantity("move_cost", {**facts, "hex_terrain": ctx.board.hex(parse_hex(there)).terrain})
        spent += int(cost.value)
        costs.append(f"{there} {int(cost.value)}")
        cost_cases += [c for c in cost.cases if c not in cost_cases]
        here = there
    if spent > int(ma.value):
        return (f"the path costs {spent} MP ({', '.join(costs)}), MA {int(ma.value)}",
                tuple(dict.fromkeys([*ma.cases, *cost_cases])))
    max_hexes = ctx.quantity("max_hexes", facts)
    if len(path) > int(max_hexes.value):
        return f"the path enters {len(path)} hexes, at most {int(max_hexes.value)}", tuple(max_hexes.cases)
    if path[-1] == start:
        return f"the path ends where it started ({start})", tuple(ma.cases)
    if not room(path[-1]):
        limit = ctx.quantity("stacking_limit", {"side": facts["side"]})
        return (f"{path[-1]} already holds {int(limit.value)} friendly unit(s), the stacking limit",
                tuple(limit.cases))
    return None
