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
position and objective (:class:`_Position`: the enemy stands still through a side's movement step, and moves
only by combat), so the cost is paid once per enemy position; each enemy hex's clearing re-prices only the
hexes whose way it shortens (:func:`_repair`), and is not priced at all for an objective the nearest strong
stack's way reaches in as many steps as hexes (no clearing can shorten a way below its hexes); a field is
searched only as far as the nearest strong stack until a clearing must be priced (:class:`_Search`).
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
#: Enemy positions whose fields and repairs are kept per board (the oldest dropped first).
_KEEP = 8
#: The steps of a hex with no way to the objective.
_FAR = 999
#: Beyond any way's steps: a hex the field has not reached yet.
_UNSEEN = 1 << 60


class _Table(dict[str, tuple[str, ...]]):
    """Label -> its neighbours, filled from ``neighbours`` on first use (read as a dict: the searches' hot path)."""

    def __init__(self, neighbours: Callable[[str], tuple[str, ...]]) -> None:
        super().__init__()
        self.neighbours = neighbours

    def __missing__(self, label: str) -> tuple[str, ...]:
        found = self[label] = self.neighbours(label)
        return found


def _table(neighbours: Callable[[str], tuple[str, ...]] | _Table) -> _Table:
    return neighbours if isinstance(neighbours, _Table) else _Table(neighbours)


def _zoc(enemy: frozenset[str], adj: _Table) -> frozenset[str]:
    """The hexes next to an ``enemy`` hex (what costs ``ZOC_STEP`` to enter)."""
    return frozenset(n for e in enemy for n in adj[e])


class _Search:
    """Dijkstra backwards from ``target`` (entering a hex costs 1, ``ZOC_STEP`` when it is in ``zoc``, next
    to an ``enemy`` hex; enemy hexes are never entered), run only as far as asked: :meth:`nearest` stops at
    the first of the hexes asked for, :meth:`complete` runs to the end. ``done``: the hexes settled so far,
    their steps final (each at most the steps of any hex not settled yet)."""

    def __init__(self, target: str, enemy: frozenset[str], adj: _Table, zoc: frozenset[str]) -> None:
        self.enemy, self.adj, self.zoc, self.target = enemy, adj, zoc, target
        self.dist = dict.fromkeys(enemy, -1)  # never entered: no step count beats -1
        self.dist[target] = 0
        self.heap = [(0, target)]
        self.done: dict[str, int] = {}

    def _run(self, stop: frozenset[str]) -> int:
        """Settle hexes until one of ``stop`` is settled (its steps) or none is left (``_FAR``)."""
        dist, heap, done, adj, zoc = self.dist, self.heap, self.done, self.adj, self.zoc
        pop, push, get = heapq.heappop, heapq.heappush, dist.get
        while heap:
            d, h = pop(heap)
            if d > dist[h]:
                continue
            done[h] = d
            into = d + (ZOC_STEP if h in zoc else 1)  # the cost of entering h, paid by whoever stands next to it
            for n in adj[h]:
                if into < get(n, _UNSEEN):
                    dist[n] = into
                    push(heap, (into, n))
            if h in stop:
                return d
        return _FAR

    def nearest(self, hexes: list[str]) -> int:
        """The fewest steps from any of ``hexes`` to the target (``_FAR``: no way)."""
        done = self.done
        found = [done[h] for h in hexes if h in done]
        return min(found) if found else self._run(frozenset(hexes))

    def complete(self) -> dict[str, int]:
        """Steps from every hex with a way to the target (the whole field)."""
        if self.heap:
            self._run(frozenset())
        return self.done


def _field(target: str, enemy: frozenset[str], neighbours: Callable[[str], tuple[str, ...]] | _Table,
           zoc: frozenset[str] | None = None) -> dict[str, int]:
    """Steps from every hex to ``target`` (:class:`_Search` run to the end): entering a hex costs 1,
    ``ZOC_STEP`` when it is next to an ``enemy`` hex (``zoc``: those hexes, :func:`_zoc`, when known); enemy
    hexes are never entered."""
    adj = _table(neighbours)
    return _Search(target, enemy, adj, _zoc(enemy, adj) if zoc is None else zoc).complete()


def _repair(base: Mapping[str, int], target: str, rest: frozenset[str], cleared: str,
            neighbours: Callable[[str], tuple[str, ...]] | _Table, zoc: frozenset[str] | None = None) -> dict[str, int]:
    """The hexes whose steps to ``target`` fall once enemy hex ``cleared`` is gone (``rest``: the enemy
    hexes left; ``zoc``: the hexes next to them, :func:`_zoc`, when known), from the field ``base`` of
    :func:`_field` with it: only the hexes next to a hex whose cost changed (``cleared`` becomes
    enterable, its neighbours may leave every zone of control) are re-priced, and only improvements
    spread (removing an enemy hex never lengthens a way). Equal to ``_field(target, rest, …)`` where it
    differs from ``base``."""
    adj = _table(neighbours)
    zoc = _zoc(rest, adj) if zoc is None else zoc
    better: dict[str, int] = {}
    bget, get = base.get, better.get
    changed = {cleared, *adj[cleared]}
    heap: list[tuple[int, str]] = []
    for u in sorted({n for c in changed for n in adj[c]} | changed):
        if u == target or u in rest:
            continue
        d = min(((ZOC_STEP if v in zoc else 1) + get(v, bget(v, _FAR)) for v in adj[u]
                 if v not in rest or v == target), default=_FAR)
        if d < get(u, bget(u, _FAR)):
            better[u] = d
            heapq.heappush(heap, (d, u))
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        d, h = pop(heap)
        if d > better[h]:
            continue
        into = d + (ZOC_STEP if h in zoc else 1)
        for n in adj[h]:
            if n in rest or n == target or into >= get(n, bget(n, _FAR)):
                continue
            better[n] = into
            push(heap, (into, n))
    return better


class _Position:
    """What the road gains read of one enemy position (its hexes, ``enemy``) on one board, kept while the
    enemy stands still: the zone-of-control hexes, each target's field, each (target, cleared hex)'s
    repair and each own hex's enemy hexes within ``NEAR``. Values of the key alone (the board's
    neighbours, the enemy hexes, the labels asked for): no unit is read or kept."""

    def __init__(self, enemy: frozenset[str], adj: _Table) -> None:
        self.enemy, self.adj = enemy, adj
        self.zoc = _zoc(enemy, adj)
        self.searches: dict[str, _Search] = {}
        self.repairs: dict[tuple[str, str], dict[str, int]] = {}
        self.close: dict[str, frozenset[str]] = {}

    def search(self, target: str) -> _Search:
        found = self.searches.get(target)
        if found is None:
            found = self.searches[target] = _Search(target, self.enemy, self.adj, self.zoc)
        return found

    def field(self, target: str) -> dict[str, int]:
        return self.search(target).complete()

    def repair(self, target: str, cleared: str) -> dict[str, int]:
        found = self.repairs.get((target, cleared))
        if found is None:
            rest, adj = self.enemy - {cleared}, self.adj  # its neighbours next to no other enemy hex leave the zoc
            gone = {n for n in adj[cleared] if not any(m in rest for m in adj[n])}
            found = self.repairs[(target, cleared)] = _repair(self.field(target), target, rest, cleared, adj,
                                                              self.zoc - gone)
        return found

    def near(self, view: Any, own: str) -> frozenset[str]:
        """The enemy hexes within ``NEAR`` hexes of ``own`` (``view.distance``)."""
        found = self.close.get(own)
        if found is None:
            found = self.close[own] = frozenset(e for e in self.enemy if view.distance(e, own) <= NEAR)
        return found


def _position(board: Any, enemy: frozenset[str]) -> _Position:
    """The :class:`_Position` of ``enemy`` on ``board``, kept on the board (the last ``_KEEP`` positions)."""
    cache: dict[frozenset[str], _Position] = board.__dict__.setdefault("_planner_roads", {})
    found = cache.get(enemy)
    if found is None:
        if len(cache) >= _KEEP:
            del cache[next(iter(cache))]
        adj = board.__dict__.setdefault("_planner_road_table", _Table(board.label_neighbours))
        found = cache[enemy] = _Position(enemy, adj)
    return found


def _kept(board: Any, target: str, enemy: frozenset[str], neighbours: Any = None) -> dict[str, int]:
    """The field of ``target`` with ``enemy`` on ``board``, kept (``neighbours``: unused, the board's)."""
    return _position(board, enemy).field(target)


def road_gains(view: Any, targets: list[str]) -> dict[str, float]:
    """Enemy hex -> the most steps (over ``targets``, the objectives wanted) by which clearing it brings the
    nearest own stack of at least ``STRONG`` strength nearer: ``min over stacks of steps now`` less the same
    with the hex cleared (0 entries left out; a way opened where there was none counts from ``_FAR``).
    Only enemy hexes within ``NEAR`` of an own combat stack (not a target itself) are judged. ``view`` gives
    ``own``/``enemy`` (hex -> strength), ``board`` and ``distance``. The fields, repairs and nearness are
    kept per enemy position (:class:`_Position`): the views of a side's movement step share them."""
    own = [h for h, s in view.own.items() if s >= STRONG]
    if not own or not targets or not view.enemy:
        return {}
    kept = _position(view.board, frozenset(view.enemy))
    near = sorted(frozenset().union(*(kept.near(view, h) for h in own)).difference(targets))
    owned = frozenset(own)
    gains: dict[str, float] = {}
    for t in sorted(targets):
        now = kept.search(t).nearest(own)  # the field searched only as far as the nearest own stack
        if now <= min(view.distance(h, t) for h in own):
            continue  # a way as short in steps as in hexes: no clearing shortens it (each step costs 1 at least)
        for e in near:
            better = kept.repair(t, e)
            hit = better.keys() & owned  # only a hex whose way shortened can stand nearer than now
            then = min((better[h] for h in hit), default=_FAR)
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
