"""Strategic rail movement from railhead to railhead under a rail capacity — a module of the
shared areas' API (not a plugin): a game's movement plugin calls it to find where a stack can
go by rail and which rail moves to offer (e.g. Moscow '41's). It holds no case id and no
number: the game's lines decide, and its answers cite them.

What it reads of the game (its vocabulary):

- the board's railheads (``railhead`` hexes) and ``rail`` hexsides;
- permission ``rail_from_hex`` (facts ``railhead``, and ``in_ezoc`` asked only if a line reads
  it): whether a rail move may start in a hex;
- quantity ``rail_capacity`` (fact ``ground``): units a side may move by rail this phase;
- quantity ``rail_units_counted`` (fact ``units``: ``[{"class"}]``): how many of a stack's units
  count against the capacity.

A rail path follows rail hexsides through hexes neither enemy-occupied nor in an enemy ZOC
(:mod:`casebook.areas.terrain_costs`), except that the railhead at its end may be in one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from casebook.core.actions import Action
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.core.templates import ActionTemplate
from casebook.script import AskedFacts

from .terrain_costs import enemy_hexes, ezoc, weather

__all__ = ["railhead_reach", "counted", "capacity_left", "rail_moves", "rail_templates"]


def railhead_reach(ctx: Any, side: str, start: str) -> tuple[dict[str, list[str]], str | None]:
    """Railheads a stack of ``side`` in ``start`` can reach by rail: ``({railhead: path of the
    hexes entered}, refusal)``, railheads in label order, the path the breadth-first one (label
    order at each depth). ``refusal`` says why no rail move starts in ``start`` (the
    ``rail_from_hex`` lines forbid it), with an empty map."""
    railheads = {hex_label(h) for h in ctx.board.railheads}
    at_railhead = start in railheads
    if not ctx.allowed("rail_from_hex", AskedFacts({"railhead": at_railhead},
                                                   {"in_ezoc": lambda: bool(ezoc(ctx, start, side))})):
        return {}, (f"the railhead {start} is in an EZOC" if at_railhead else
                    f"{start} is not a railhead (a city or town on a rail line)")
    enemy = enemy_hexes(ctx, side)
    board = ctx.board
    prev: dict[str, str | None] = {start: None}
    frontier = [start]
    while frontier:
        nxt = []
        for a in frontier:
            if a != start and ezoc(ctx, a, side):
                continue  # an enemy-ZOC hex may only end the rail move
            ha = parse_hex(a)
            for b in board.label_neighbours(a):
                if b in prev or b in enemy or not board.edge(ha, parse_hex(b)).get("rail"):
                    continue
                prev[b] = a
                nxt.append(b)
        frontier = sorted(nxt)
    out = {}
    for dest in sorted(railheads & set(prev)):
        if dest == start:
            continue
        path, h = [], dest
        while h != start:
            path.append(h)
            h = prev[h]  # type: ignore[assignment]
        out[dest] = path[::-1]
    return out, None


def counted(ctx: Any, units: Sequence[str]) -> int:
    """How many of ``units`` count against the rail capacity (quantity ``rail_units_counted``)."""
    return int(ctx.value("rail_units_counted", {"units": [
        {"class": ctx.state.unit(u).get("class", "infantry")} for u in units]}))


def capacity_left(ctx: Any, used: int) -> int:
    """Units that may still move by rail: quantity ``rail_capacity`` for the ground in force,
    less the ``used`` already moved."""
    return int(ctx.value("rail_capacity", {"ground": weather(ctx)[1]})) - int(used)


def rail_moves(ctx: Any, side: str, hex_: str, units: Sequence[str], left: int,
               may_end: Callable[[str, list[str]], bool]) -> list[Action]:
    """The ``rail-move stack=HEX to=HEX [units=U,…]`` actions of the stack ``units`` in ``hex_``:
    to each railhead :func:`railhead_reach` finds, the whole stack when the units it counts fit
    the capacity ``left`` and ``may_end(railhead, units)`` (e.g. stacking); otherwise
    ``units=`` each choice of as many counted units as both allow (the others stay), in the
    order of the sorted ids. None when counted units have no capacity left."""
    combat = sorted(u for u in units if counted(ctx, [u]))
    if combat and left <= 0:
        return []
    dests, why = railhead_reach(ctx, side, hex_)
    if why:
        return []
    out: list[Action] = []
    for dst in dests:
        if len(combat) <= left and may_end(dst, list(units)):
            out.append(Action.make("rail-move", side, stack=hex_, to=dst))
            continue
        for n in range(min(len(combat), left), 0, -1):
            fit = [list(c) for c in combinations(combat, n) if may_end(dst, list(c))]
            if fit:
                out += [Action.make("rail-move", side, stack=hex_, to=dst, units=c) for c in fit]
                break
    return out


def rail_templates(ctx: Any, listed: Sequence[Action], limit: str, cases: Sequence[str]) -> list[ActionTemplate]:
    """The player's choice of which units of a stack move by rail, and where: for each stack a
    listed ``rail-move`` starts from, a template whose ``units`` are any of its side's units
    there (``limit``: the game's words for the capacity left) and ``to`` any railhead its rail
    path reaches, citing ``cases`` (the game's). The validators judge a filling."""
    out, seen = [], set()
    for a in listed:
        if a.kind != "rail-move" or a.get("stack") in seen:
            continue
        seen.add(a.get("stack"))
        here = sorted(u["id"] for u in ctx.state.units_at(a.get("stack")) if u.get("side") == a.side)
        hint = f"U,… any of {','.join(here)}: {limit}"
        out.append(ActionTemplate.of(a, {"units": hint, "to": "HEX, a railhead its rail path reaches"}, tuple(cases)))
    return out
