"""The reach of a moving stack under MP costs and enemy ZOCs (:func:`zoc_reach`), and the same
rules hex by hex along a given path (:func:`zoc_step`, :func:`zoc_walk`: where and why a path
stops) — searches a game's movement rules parameterise (a module of the shared areas' API, not
a plugin; e.g. Moscow '41's movement plugin uses it). It holds no case id and names no game:
the game gives the MP cost of every step, the hexes in enemy ZOC, the enemy-occupied hexes,
the stack's ZOC treatment, the words its answer uses for why a move ends and the cases each
verdict cites.

ZOC treatments (the field's terms): ``locking`` — a stack stops on entering an enemy ZOC and never
moves directly from one enemy-ZOC hex to another (``same_only``: only when one enemy unit exerts
both), though it may leave one at the start of its movement; ``fluid`` — moving from one
enemy-ZOC hex to another costs the step's ``fluid`` cost; ``none`` — ZOCs are ignored.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from heapq import heappop, heappush
from typing import Any

from casebook.content.packconfig import Cases, CitedCase, Cites
from casebook.content.schema_base import Model

from .force_march import FatigueCites

__all__ = ["Row", "zoc_reach", "Step", "Enter", "zoc_step", "zoc_walk", "case_order", "WalkCites", "ReachStops",
           "MovementCites"]

#: hex label -> ``(neighbour, MP cost or None when prohibited, MP cost from one enemy-ZOC hex to
#: another for a fluid ZOC or None)`` for each neighbour, in label order
Row = Callable[[str], Iterable[tuple[str, int | None, int | None]]]


class WalkCites(Cites):
    """The cases each verdict of :func:`zoc_step` and :func:`zoc_walk` cites, as a game configures
    them (:mod:`casebook.content.packconfig`): a path's hexes (``path``), a hex skipped
    (``adjacent``), an enemy hex (``enemy``), beyond ``max_hexes``, from one EZOC hex to another
    (``ezoc_to_ezoc``), on after entering one (``ezoc_stop``), a prohibited hex (``prohibited``),
    too few MPs (``short``), the fluid and locking costs (``fluid``, ``locking``), the first hex
    entered by spending all MPs (``all_mp``)."""

    path: Cases
    adjacent: Cases
    enemy: Cases
    max_hexes: Cases
    ezoc_to_ezoc: Cases
    ezoc_stop: Cases
    prohibited: Cases
    short: Cases
    fluid: Cases
    locking: Cases
    all_mp: Cases


class ReachStops(Cites):
    """What a :func:`zoc_reach` answer's ``"stop"`` cites when a move must end in a hex."""

    all_mp: CitedCase
    max_hexes: CitedCase
    ezoc: CitedCase


class MovementCites(Model):
    """A game's cases of the movement searches (a config file, :mod:`casebook.content.packconfig`):
    each verdict of a path walked (``walk``), a move's forced stop (``stops``), the force march
    roll (``fatigue``, :func:`casebook.areas.force_march.fatigue_roll`)."""

    walk: WalkCites
    stops: ReachStops
    fatigue: FatigueCites


def zoc_reach(start: str, row: Row, zmap: Any, enemy: frozenset[str], *, budget: int,
              max_hexes: int | None, zoc: str, same_only: bool, fresh: bool, at_start: bool,
              stops: Mapping[str, Any],
              more: Callable[[str, str, frozenset[str]], int | None] | None = None) -> dict[str, dict[str, Any]]:
    """Every hex a stack in ``start`` can end its move in, by Dijkstra over MP spent (ties
    broken by label order, the first hex settled wins): label -> ``{"mp", "path", "spent_all",
    "stop"}`` with the cheapest path (start excluded); the start itself is not listed.

    ``zmap.get(hex)``: the enemy units exerting a ZOC there (falsy: none); ``enemy``: hexes a
    move may not enter; ``budget``: MP left in this allotment; ``max_hexes``: at most that many
    hexes (None: no limit); ``fresh``: nothing spent yet, so the first hex may always be entered
    by spending all the MPs left; ``at_start``: the start of the stack's movement (a locking ZOC
    lets it leave). ``stops``: what ``"stop"`` says when a move must end in a hex — keys
    ``all_mp`` (all MPs spent), ``max_hexes`` and ``ezoc`` (a locking ZOC entered); None where
    the stack may go on. ``more``: for a fluid step into a hex where two or more enemy units exert a
    ZOC, ``more(a, b, those units)`` is its MP instead of the row's fluid cost (None: the row's)."""
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
                    cost = fluid_cost if more is None or len(zb) < 2 else more(a, b, zb)
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


@dataclass(frozen=True)
class Step:
    """The verdict on entering one hex (:func:`zoc_step`): ``ok``; ``cost`` (MP charged);
    ``reason`` and ``cases`` (the game's); ``terminal`` (the move must end there: a locking ZOC
    entered, the hex limit reached, all MPs spent) and ``spent_all`` (entered for all MPs left)."""

    ok: bool
    cost: int | None
    reason: str
    cases: tuple[str, ...]
    terminal: bool = False
    spent_all: bool = False


#: hexes ``(a, b)`` and whether the fluid cost applies -> ``(MP or None when prohibited, the
#: cases of that cost)``
Enter = Callable[[str, str, bool], tuple[int | None, Sequence[str]]]


def zoc_step(a: str, b: str, spent: int, hexes: int, *, near: Sequence[str], enter: Enter, zmap: Any,
             enemy: frozenset[str], budget: int, max_hexes: int | None, zoc: str, same_only: bool,
             fresh: bool, at_start: bool, cites: Mapping[str, Sequence[str]]) -> Step:
    """May a stack in ``a``, after ``spent`` MP and ``hexes`` hexes, enter ``b`` (``near``:
    ``a``'s neighbours)? The rules of :func:`zoc_reach`, one hex at a time, with the reason:
    adjacent hexes only; never an enemy-occupied hex; at most ``max_hexes``; a locking ZOC
    forbids moving directly from one enemy-ZOC hex to another and stops the stack in the
    first, a fluid one charges the fluid cost; the MP cost (``enter``) must fit the budget,
    but a ``fresh`` stack may always enter its first hex by spending all its MPs.

    ``cites``: the game's cases, by key — ``adjacent``, ``enemy``, ``max_hexes``,
    ``ezoc_to_ezoc``, ``ezoc_stop`` (refusals), ``prohibited``, ``short`` (no cost or too
    costly; a step too costly cites its cost's cases after them), ``fluid`` and ``locking`` (added to the cost's cases), ``all_mp``."""
    if b not in near:
        own = " (list only the hexes entered, not the stack's own)" * (a == b and hexes == 0)
        return Step(False, None, f"{b} is not adjacent to {a}: no hex can be skipped{own}", tuple(cites["adjacent"]))
    if b in enemy:
        return Step(False, None, f"{b} is occupied by enemy units (only an overrun attacks them)",
                    tuple(cites["enemy"]))
    if max_hexes is not None and hexes >= max_hexes:
        return Step(False, None, _limit(max_hexes), tuple(cites["max_hexes"]))
    fluid = False
    zb: frozenset[str] = frozenset()
    if zoc != "none":
        za, zb = zmap.get(a) or frozenset(), zmap.get(b) or frozenset()
        if za and zb:
            if zoc == "locking":
                if not same_only or za & zb:
                    return Step(False, None, f"cannot move directly from the EZOC in {a} to the EZOC "
                                f"in {b} (of {', '.join(sorted(za & zb or zb))})", tuple(cites["ezoc_to_ezoc"]))
            elif zoc == "fluid":
                fluid = True
        if za and zoc == "locking" and not (hexes == 0 and at_start):
            return Step(False, None, f"the stack stopped on entering the EZOC in {a}", tuple(cites["ezoc_stop"]))
    cost, cost_cases = enter(a, b, fluid)
    if cost is None:
        return Step(False, None, f"the TEC prohibits entering {b} from {a}", tuple(cites["prohibited"]))
    cases = [*cost_cases, *(cites["fluid"] if fluid else ())]
    locked = zoc == "locking" and bool(zb)
    if locked:
        cases += cites["locking"]
    last = max_hexes is not None and hexes + 1 >= max_hexes
    if spent + cost <= budget:
        return Step(True, cost, "", tuple(cases), terminal=locked or last)
    if hexes == 0 and fresh:
        return Step(True, max(budget - spent, 0), f"enters {b} by spending all its MPs",
                    tuple(cases + list(cites["all_mp"])), terminal=True, spent_all=True)
    return Step(False, None, f"{cost} MP needed to enter {b}, {budget - spent} left",  # the cost's cases too
                tuple(dict.fromkeys((*cites["short"], *cost_cases))))


def _limit(max_hexes: int) -> str:
    return f"the move may enter only {max_hexes} hex" + ("" if max_hexes == 1 else "es")


def case_order(case: str) -> tuple[Any, ...]:
    """A sort key putting case ids in reading order (numbers as numbers: 1.2C before 1.10A)."""
    return tuple((int(p) if p.isdigit() else p) for p in re.findall(r"\d+|[A-Z]+", case))


def zoc_walk(start: str, path: Sequence[str], step: Callable[[str, str, int, int], Step], *, budget: int,
             max_hexes: int | None, cites: Mapping[str, Sequence[str]]) -> dict[str, Any]:
    """Walk ``path`` (the hexes after ``start``) with ``step(a, b, spent, hexes)`` (e.g.
    :func:`zoc_step` bound to a stack): ``{"legal", "mp_spent", "mp_left", "stops_at",
    "spent_all", "steps": [{"hex", "cost", "cases"}], "cases"}``; an illegal path also has
    ``"refused": {"hex", "reason", "cases"}`` (where and why it stops; too few MPs, ``short``:
    with the cases of every step walked, whose MPs decided it). ``cites["path"]`` is
    cited by every walk; after a terminal hex the next is refused citing ``max_hexes``,
    ``all_mp`` or ``ezoc_stop``. Cases sorted by :func:`case_order`."""
    spent, here, cases = 0, start, list(cites["path"])
    steps: list[dict[str, Any]] = []
    terminal: Step | None = None
    spent_all = False
    for i, b in enumerate(path):
        s = _ended(here, terminal, i, max_hexes, cites) if terminal else step(here, b, spent, i)
        if not s.ok:  # too few MPs left: every MP spent decided it too (the steps' cost cases)
            short = s.cases[:len(cites["short"])] == tuple(cites["short"])
            said = list(dict.fromkeys((*s.cases, *(c for st in steps for c in st["cases"] if short))))
            return {"legal": False, "mp_spent": spent, "mp_left": budget - spent, "stops_at": here,
                    "spent_all": spent_all, "steps": steps,
                    "refused": {"hex": b, "reason": s.reason, "cases": said},
                    "cases": sorted(set(cases) | set(s.cases), key=case_order)}
        spent += s.cost or 0
        spent_all = s.spent_all
        steps.append({"hex": b, "cost": s.cost, "cases": list(s.cases)})
        cases += list(s.cases)
        here = b
        if s.terminal:
            terminal = s
    return {"legal": True, "mp_spent": spent, "mp_left": budget - spent, "stops_at": here,
            "spent_all": spent_all, "steps": steps, "cases": sorted(set(cases), key=case_order)}


def _ended(here: str, last: Step, hexes: int, max_hexes: int | None, cites: Mapping[str, Sequence[str]]) -> Step:
    """Why no hex may follow ``here``: the hex limit, all MPs spent, a locking ZOC entered."""
    if max_hexes is not None and hexes >= max_hexes:
        return Step(False, None, _limit(max_hexes), tuple(cites["max_hexes"]))
    if last.spent_all:
        return Step(False, None, f"the stack spent all its MPs to enter {here}", tuple(cites["all_mp"]))
    return Step(False, None, f"the stack must stop on entering the EZOC in {here}", tuple(cites["ezoc_stop"]))
