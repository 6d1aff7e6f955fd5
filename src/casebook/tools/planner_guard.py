"""The planning bot's guard terms (docs/planner.md, "Guards"): what a movement plan is worth for the
hexes whose entry by an enemy unit wins the game for the enemy (``View.guard_need``,
``View.guard_core``, ``View.open_guard``, read from :mod:`casebook.tools.bots_guard`).

- **area**: each own strength point in a guard hex or next to it is worth ``GUARD_HOLD`` up to
  what the hex needs (:func:`casebook.tools.bots_guard.need`); while short, stacks within
  ``GUARD_RADIUS`` close in;
- **core** (session 13): each own strength point *in* the guard hex is worth ``GUARD_HOLD`` more,
  up to what the hex itself needs (:func:`casebook.tools.bots_guard.core_need`: a share of the
  threat that meets it first, while an attacker can stand next to it), and all of it when every
  hex next to it holds an own combat unit (or is another guard hex): no attacker can stand next
  to it. A hex's stacking limit caps its garrison, so closing the ring is often the only way.
  Before it the planner read only the area: a ring of 29 points on two of the three hexes next to
  a 4-point garrison counted as kept, and an enemy stack of 8 that marched into the third attacked
  at 3:2 and took the hex on Turn 2 (e.g. the October Blitz's Smolensk, seed 2 of session 12);
- **rear** (:func:`rear_short`, moved from ``planner.py``): how far the worst-kept guard hex is from
  its area need; the spearheads' ``LEAD`` waits while it is short (the core is not read there:
  a hex's stacking limit may keep its core need out of reach for the whole game);
- **fill**: a plan that puts a combat unit on an open, threatened guard hex gains ``GUARD_FILL``
  times its pressure, and one that brings a stack nearer ``GUARD_APPROACH`` per hex.

Heuristics for a bot, not rules; this module names no game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from casebook.tools.planner_eval import Mover, View

__all__ = ["guard_value", "rear_short", "GUARD_RADIUS", "GUARD_FILL", "GUARD_APPROACH", "GUARD_HOLD"]

#: Hexes within which enemy strength menaces a guard hex (a hex whose entry wins at once for the
#: enemy): two turns' march of a foot unit and more. It was 3, then 6: deep drives left a one-division
#: garrison that a bypassed enemy army reached before any help (Blitz, session 8; on the true-scale
#: map at 6 the guard lost 3 of 3 games, at 10 it held 3 of 3: BALANCE.md).
GUARD_RADIUS = 10
#: What a plan that puts a combat unit on an open guard hex (no own combat unit on it, an enemy
#: unit near: :attr:`View.open_guard`) gains, times the hex's pressure (1 with an enemy unit within
#: its reach, :func:`casebook.tools.bots_guard.pressure`): above any other term of a plan (session
#: 10: a panzer unit entered an empty Moscow hex on Turn 4 in every German win of session 9).
GUARD_FILL = 60.0
#: What each hex a stack's move brings it nearer to an open guard hex than the nearest own combat
#: stack was gains, times the pressure: a garrison on its way when none can enter this step. For a
#: guard hex short of its need (GUARD_HOLD), each hex a stack within GUARD_RADIUS of it moves nearer
#: gains as much per 5 strength points up to the shortfall (and a hex farther costs as much).
GUARD_APPROACH = 2.0
#: What each own strength point in a guard hex or next to it is worth, up to what the hex needs
#: against the enemy strength within reach of it (:func:`casebook.tools.bots_guard.need`): the
#: nearest stacks gather there until the need is met (session 11: a one-unit garrison fell to
#: bypassed armies in 14 of 40 October Blitz games, BALANCE.md session 10). A hex a stack enters
#: overstacked, or stays in overstacked, counts nothing (an overstack loses steps at the end of
#: the step: a second division kept in an overstacked guard hex was eliminated, seed 5).
GUARD_HOLD = 3.0


def guard_value(view: View, movers: Sequence[Mover], dests: Sequence[str], own: dict[str, float]) -> float:
    """The guard terms of the plan moving ``movers[i]`` to ``dests[i]``, ``own`` the own combat
    strength per hex after it (see the module docstring)."""
    if not (view.guard_core or view.guard_need or view.open_guard):
        return 0.0
    total = 0.0
    crowded = {d for m, d in zip(movers, dests) if d in m.crowded or (m.overstacked and d == m.origin)}
    for g, want in view.guard_core.items():  # strength in the guard hex itself, up to its core need,
        if g in crowded:  # or all of it when no hex next to it is left for an attacker to stand in
            continue
        guards = view.goals.guard(view.side)
        closed = g in own and all(n in own or n in guards for n in view.neighbours(g))
        total += GUARD_HOLD * (want if closed else min(own.get(g, 0.0), want))
    if view.guard_need:  # strength in and next to a guard hex, up to what the threat asks
        for g, want in view.guard_need.items():
            area = sum(own.get(h, 0.0) for h in (g, *view.neighbours(g)) if h not in crowded)
            total += GUARD_HOLD * min(area, want)
            lack = want - sum(view.own.get(h, 0.0) for h in (g, *view.neighbours(g)))
            sent = 0.0
            for m, d in zip(movers, dests):  # short: stacks within GUARD_RADIUS close in (up to the
                if lack <= 0 or not m.strength or m.hq_only or d == m.origin:  # shortfall), none marches off
                    continue
                if view.distance(m.origin, g) <= GUARD_RADIUS:
                    gain = view.distance(m.origin, g) - view.distance(d, g)
                    part = min(m.strength, lack - sent) if gain > 0 else min(m.strength, lack)
                    sent += part if gain > 0 else 0.0
                    total += GUARD_APPROACH * gain * max(0.0, part) / 5.0
    for g, p in view.open_guard.items():  # an open guard hex under threat: a garrison first
        if g in own:
            total += GUARD_FILL * p
        else:  # or on its way: the stack moved nearest to it, against the nearest now
            base = view.guard_near.get(g, 99)
            best = min((view.distance(d, g) for m, d in zip(movers, dests) if m.strength and d != m.origin),
                       default=base)
            total += GUARD_APPROACH * p * max(0, base - best)
    return total


def rear_short(view: View) -> float:
    """0..1: how far the worst-kept guard hex (whose entry wins for the enemy) under threat is from a
    garrison and ring as strong as it needs against the enemy within reach (``View.guard_need``;
    1: unheld, or nothing near it). The spearheads wait while the rear is open (cached on the view)."""
    cached = view.memo.get("rear")
    if cached is not None:
        return cached
    worst = 0.0
    for h, want in view.guard_need.items():
        if view.threat.get(h, 0.0) <= 0:
            continue
        ring = view.own.get(h, 0.0) + sum(view.own.get(n, 0.0) for n in view.neighbours(h))
        worst = max(worst, min(1.0, max(0.0, want - ring) / 5.0 + (h not in view.own)))
    view.memo["rear"] = worst
    return worst
