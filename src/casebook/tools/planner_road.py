"""The planning bot's road openers: which enemy stacks bar the way to the objectives a count condition needs.

A side playing for "N of these M hexes" (a :class:`~casebook.tools.planner_aims.CountAim`) needs its
stacks on N objectives before the scenario ends; the enemy line between them is what stops the drive
(session 12's reach study, ``benchmarks/balance/s12/REACH.md``: the October Blitz's panzers are stopped at
the Mozhaisk Line towns, and an enemy zone of control ends a move). :func:`road_gains` reads, for each enemy
stack within ``NEAR`` hexes of an own combat stack, how many *steps* nearer the own side's nearest strong
stack would stand to a chosen objective it does not hold if that enemy hex were cleared (destroyed or
retreated): the length of the shortest way over the map, where an enemy-held hex cannot be entered and a hex
next to an enemy stack (its zone of control: a move ends there) costs ``ZOC_STEP`` steps, with and without
that stack. :func:`open_roads` turns the gains into stakes: the defenders whose fall opens a road weigh up to
``ROAD`` × ``HOLD_WEIGHT`` in the attacks on them and in the attack set-up (what ``View.stake`` feeds), so
the bot attacks the hex that blocks the way, not only the weakest one, and the panzers can drive through at
their next activation.

Game-neutral: it reads the board's neighbours, the view's own and enemy strength per hex and the count
aims; terrain costs are not read (a heuristic for a bot, not a rule: a road through a forest counts as
clear). Deterministic (sorted hexes, no randomness). The distance fields are kept on the board per enemy
position and objective (the enemy stands still through a side's movement step), so the cost is paid once
per enemy position; each enemy hex's clearing re-prices only the hexes whose way it shortens (:func:`_repair`).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["road_gains", "open_roads", "wanted", "ROAD", "ROAD_FULL", "ROAD_MIN", "ZOC_STEP", "NEAR", "STRONG"]

#: What a defender whose fall opens a road of ROAD_FULL steps or more weighs in the attacks on it
#: (HOLD_WEIGHTs; a chosen objective's own defenders weigh STAKE, 2).
ROAD = 1.5
#: The gain (steps) at which a road opener weighs its full ROAD.
ROAD_FULL = 8.0
#: What entering a hex next to an enemy stack costs in steps (a move ends there: about half of a fast
#: stack's turn).
ZOC_STEP = 4
#: A smaller gain is a detour round a stack (going past it costs a zone-of-control hex or two), not a
#: road barred: it weighs nothing (a 3-step gain on a lone stack outbid a 1:1 attack on a town the side
#: needs, tests/test_planner_towns.py).
ROAD_MIN = ZOC_STEP
#: Enemy stacks farther than this from every own combat stack are not judged (they cannot be attacked
#: before the next activation).
NEAR = 2
#: The own stacks a road is measured from: at least this strength (as planner_aims' chooser).
STRONG = 2.0
#: Distance fields and repairs kept per board before the cache is cleared.
_KEEP = 1024
#: The steps of a hex with no way to the objective.
_FAR = 999


def _field(target: str, enemy: frozenset[str], neighbours: Callable[[str], tuple[str, ...]]) -> dict[str, int]:
    """Steps from every hex to ``target`` (Dijkstra backwards): entering a hex costs 1, ``ZOC_STEP`` when
    it is next to an ``enemy`` hex; enemy hexes are never entered."""
    zoc: dict[str, bool] = {}

    def step(h: str) -> int:
        z = zoc.get(h)
        if z is None:
            z = zoc[h] = any(n in enemy for n in neighbours(h))
        return ZOC_STEP if z else 1

    dist = {target: 0}
    heap = [(0, target)]
    while heap:
        d, h = heapq.heappop(heap)
        if d > dist.get(h, d):
            continue
        if h in enemy and h != target:
            continue
        into = d + step(h)  # the cost of entering h, paid by whoever stands next to it
        for n in neighbours(h):
            if n in enemy or into >= dist.get(n, into + 1):
                continue
            dist[n] = into
            heapq.heappush(heap, (into, n))
    return dist


def _repair(base: Mapping[str, int], target: str, rest: frozenset[str], cleared: str,
            neighbours: Callable[[str], tuple[str, ...]]) -> dict[str, int]:
    """The hexes whose steps to ``target`` fall once enemy hex ``cleared`` is gone (``rest``: the enemy
    hexes left), from the field ``base`` of :func:`_field` with it: only the hexes next to a hex whose
    cost changed (``cleared`` becomes enterable, its neighbours may leave every zone of control) are
    re-priced, and only improvements spread (removing an enemy hex never lengthens a way). Equal to
    ``_field(target, rest, …)`` where it differs from ``base``."""
    zoc: dict[str, int] = {}

    def step(h: str) -> int:
        z = zoc.get(h)
        if z is None:
            z = zoc[h] = ZOC_STEP if any(n in rest for n in neighbours(h)) else 1
        return z

    better: dict[str, int] = {}

    def now(h: str) -> int:
        return better.get(h, base.get(h, _FAR))

    changed = {cleared, *neighbours(cleared)}
    heap: list[tuple[int, str]] = []
    for u in sorted({n for c in changed for n in neighbours(c)} | changed):
        if u == target or (u in rest):
            continue
        d = min((step(v) + now(v) for v in neighbours(u) if v not in rest or v == target), default=_FAR)
        if d < now(u):
            better[u] = d
            heapq.heappush(heap, (d, u))
    while heap:
        d, h = heapq.heappop(heap)
        if d > now(h):
            continue
        into = d + step(h)
        for n in neighbours(h):
            if n in rest or n == target or into >= now(n):
                continue
            better[n] = into
            heapq.heappush(heap, (into, n))
    return better


def _kept(board: Any, target: str, enemy: frozenset[str],
          neighbours: Callable[[str], tuple[str, ...]]) -> dict[str, int]:
    cache: dict[Any, dict[str, int]] = board.__dict__.setdefault("_planner_roads", {})
    key = (target, enemy)
    found = cache.get(key)
    if found is None:
        if len(cache) > _KEEP:
            cache.clear()
        found = cache[key] = _field(target, enemy, neighbours)
    return found


def _kept_repair(board: Any, base: Mapping[str, int], target: str, enemy: frozenset[str], cleared: str,
                 neighbours: Callable[[str], tuple[str, ...]]) -> dict[str, int]:
    cache: dict[Any, dict[str, int]] = board.__dict__.setdefault("_planner_roads", {})
    key = (target, enemy, cleared)
    found = cache.get(key)
    if found is None:
        if len(cache) > _KEEP:
            cache.clear()
        found = cache[key] = _repair(base, target, enemy - {cleared}, cleared, neighbours)
    return found


def road_gains(view: Any, targets: list[str]) -> dict[str, float]:
    """Enemy hex -> the most steps (over ``targets``, the objectives wanted) by which clearing it brings the
    nearest own stack of at least ``STRONG`` strength nearer: ``min over stacks of steps now`` less the same
    with the hex cleared (0 entries left out; a way opened where there was none counts from ``_FAR``).
    Only enemy hexes within ``NEAR`` of an own combat stack (not a target itself) are judged. ``view`` gives
    ``own``/``enemy`` (hex -> strength), ``board`` and ``distance``."""
    own = [h for h, s in view.own.items() if s >= STRONG]
    if not own or not targets or not view.enemy:
        return {}
    enemy = frozenset(view.enemy)
    near = sorted(e for e in enemy if e not in targets and any(view.distance(e, h) <= NEAR for h in own))
    neighbours = view.board.label_neighbours
    gains: dict[str, float] = {}
    for t in sorted(targets):
        base = _kept(view.board, t, enemy, neighbours)
        now = min((base.get(h, _FAR) for h in own), default=_FAR)
        for e in near:
            better = _kept_repair(view.board, base, t, enemy, e, neighbours)
            then = min((better.get(h, base.get(h, _FAR)) for h in own), default=_FAR)
            if then < now:
                gains[e] = max(gains.get(e, 0.0), float(now - then))
    return gains


def open_roads(view: Any, stake: dict[str, float], targets: list[str], hold_weight: float) -> dict[str, float]:
    """``stake`` with every road opener of :func:`road_gains` raised to at least ``ROAD`` × ``hold_weight``
    × min(1, gain / ``ROAD_FULL``) (never lowered) when the gain is at least ``ROAD_MIN``; returns those
    gains (enemy hex -> steps)."""
    gains = {e: g for e, g in road_gains(view, targets).items() if g >= ROAD_MIN}
    for e, g in gains.items():
        stake[e] = max(stake.get(e, 0.0), ROAD * hold_weight * min(1.0, g / ROAD_FULL))
    return gains


def wanted(counts: list[Any], control: Mapping[str, str | None], side: str) -> list[str]:
    """The chosen objectives of the side's count aims it does not hold yet (what a road must reach)."""
    return sorted({h for c in counts for h in c.chosen if control.get(h) != side})
