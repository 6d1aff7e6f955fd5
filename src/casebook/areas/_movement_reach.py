"""The reach of a moving stack under MP costs and enemy ZOCs — a search a game's movement rules
parameterise (a module of the shared areas' API, not a plugin; e.g. Moscow '41's movement plugin
uses it). It holds no case id and names no game: the game gives the MP cost of every step, the
hexes in enemy ZOC, the enemy-occupied hexes, the stack's ZOC treatment and the words its
answer uses for why a move ends.

ZOC treatments (the field's terms): ``locking`` — a stack stops on entering an enemy ZOC and never
moves directly from one enemy-ZOC hex to another (``same_only``: only when one enemy unit exerts
both), though it may leave one at the start of its movement; ``fluid`` — moving from one
enemy-ZOC hex to another costs the step's ``fluid`` cost; ``none`` — ZOCs are ignored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from heapq import heappop, heappush
from typing import Any

__all__ = ["Row", "zoc_reach"]

#: hex label -> ``(neighbour, MP cost or None when prohibited, MP cost from one enemy-ZOC hex to
#: another for a fluid ZOC or None)`` for each neighbour, in label order
Row = Callable[[str], Iterable[tuple[str, int | None, int | None]]]


def zoc_reach(start: str, row: Row, zmap: Any, enemy: frozenset[str], *, budget: int,
              max_hexes: int | None, zoc: str, same_only: bool, fresh: bool, at_start: bool,
              stops: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Every hex a stack in ``start`` can end its move in, by Dijkstra over MP spent (ties
    broken by label order, the first hex settled wins): label -> ``{"mp", "path", "spent_all",
    "stop"}`` with the cheapest path (start excluded); the start itself is not listed.

    ``zmap.get(hex)``: the enemy units exerting a ZOC there (falsy: none); ``enemy``: hexes a
    move may not enter; ``budget``: MP left in this allotment; ``max_hexes``: at most that many
    hexes (None: no limit); ``fresh``: nothing spent yet, so the first hex may always be entered
    by spending all the MPs left; ``at_start``: the start of the stack's movement (a locking ZOC
    lets it leave). ``stops``: what ``"stop"`` says when a move must end in a hex — keys
    ``all_mp`` (all MPs spent), ``max_hexes`` and ``ezoc`` (a locking ZOC entered); None where
    the stack may go on."""
    locking, fluid_kind, zoc_on = zoc == "locking", zoc == "fluid", zoc != "none"
    best: dict[str, int] = {start: 0}
    nhex: dict[str, int] = {start: 0}
    prev: dict[str, str] = {}
    how: dict[str, int] = {}  # 0 ordinary, 1 must stop there, 2 all MPs spent
    heap: list[tuple[int, str]] = [(0, start)]
    done: set[str] = set()
    while heap:
        spent, a = heappop(heap)
        if a in done:
            continue
        done.add(a)
        if how.get(a):
            continue  # the move ends there
        hexes = nhex[a]
        if max_hexes is not None and hexes >= max_hexes:
            continue
        za = zmap.get(a) if zoc_on else None
        if za and locking and not (hexes == 0 and at_start):
            continue  # stopped on entering an enemy ZOC
        last = max_hexes is not None and hexes + 1 >= max_hexes
        for b, cost, fluid_cost in row(a):
            if b in done or b in enemy:
                continue
            zb = zmap.get(b) if zoc_on else None
            if za and zb:
                if locking:
                    if not same_only or za & zb:
                        continue  # never directly from one enemy ZOC to another
                elif fluid_kind:
                    cost = fluid_cost
            if cost is None:
                continue  # prohibited
            if spent + cost <= budget:
                total, end = spent + cost, 1 if (locking and zb) or last else 0
            elif hexes == 0 and fresh:
                total, end = spent + max(budget - spent, 0), 2  # the first hex, for all MPs left
            else:
                continue
            old = best.get(b)
            if old is None or total < old:
                best[b], nhex[b], prev[b], how[b] = total, hexes + 1, a, end
                heappush(heap, (total, b))
    out = {}
    for h in sorted(best):
        if h == start:
            continue
        path = [h]
        while prev[path[-1]] != start:
            path.append(prev[path[-1]])
        end = how[h]
        stop = None if not end else stops["all_mp"] if end == 2 else stops["max_hexes" if max_hexes else "ezoc"]
        out[h] = {"mp": best[h], "path": path[::-1], "spent_all": end == 2, "stop": stop}
    return out
