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
  times its pressure, and one that brings a stack nearer ``GUARD_APPROACH`` per hex;
- **HQs at the front** (session 18, :func:`key_hq`): a stack that carries an HQ marked ``mechanized``
  (the only HQs that may activate some stacks, e.g. Moscow '41's panzer divisions, 2.2C) counts
  for the terms above where a plan puts it, as any stack, but a plan that leaves it in a guard hex
  or next to one pays ``KEY_HQ_GUARD`` a strength point of it: a stack without such an HQ that
  gives the guard as much is preferred, the HQ stack still guards when the need is worth more
  (nothing else near), and leaves once the others meet the need. Before it two panzer corps HQs
  rode on Turn 1 with their divisions to the October Blitz's Smolensk and stayed there to the
  end; counting them where they stood (branch ``hq18``'s first try) kept them with the armour but
  left the ring open: Smolensk fell in 5 of 20 planner games (BALANCE.md, sessions 17–18);
- **the relief's ring** (session 20, :func:`open_ring`): while the side has key HQs on the map, each
  open hex next to a threatened guard hex is owed ``RING_LACK`` by the other stacks (:func:`relief`),
  and each such hex a plan holds is worth ``GUARD_HOLD`` × ``RING_LACK``: the relieved guard met its
  area need with one stack and left ring hexes open to the Soviet planner (Smolensk fell in 5 of 20).

Heuristics for a bot, not rules; this module names no game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from casebook.tools.planner_goals import HOLD_WEIGHT

if TYPE_CHECKING:
    from casebook.tools.planner_eval import Mover, View

__all__ = ["guard_value", "rear_short", "key_hq", "relief", "open_ring", "GUARD_RADIUS", "GUARD_FILL", "GUARD_APPROACH",
           "GUARD_HOLD", "KEY_HQ_GUARD", "RING_LACK"]

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
#: What a plan pays for each strength point of a stack carrying a key HQ (:func:`key_hq`) it leaves
#: in a guard hex or next to one: two thirds of ``GUARD_HOLD``, so the stack still guards a short hex
#: but another stack giving as much is preferred, and it leaves once the need is met (session 18).
KEY_HQ_GUARD = 2.0
#: The strength each open hex next to a threatened guard hex asks of the relief (:func:`open_ring`,
#: session 20): owed as a shortfall (the approach, the HQ activations' guard call) and, times
#: ``GUARD_HOLD``, what a plan that puts a combat stack there gains. A division's worth: the Blitz's
#: relieved guard met its area need with one panzer division in one of Smolensk's three ring hexes,
#: and a 6-point Soviet stack walked through an open one (planner vs planner seed 4, Turn 2).
RING_LACK = 6.0


def key_hq(units: Sequence[Mapping[str, Any]]) -> bool:
    """Whether ``units`` (a stack's) hold an HQ (class ``hq``) marked ``mechanized``: the HQ whose
    activation the stacks only a mechanized HQ may activate need (the content format's field)."""
    return any(u.get("class") == "hq" and u.get("mechanized") for u in units)


def _key_cost(view: View, movers: Sequence[Mover], dests: Sequence[str]) -> float:
    """``KEY_HQ_GUARD`` a strength point of each stack carrying a key HQ (:attr:`Mover.key_hq`)
    that the plan leaves in a guard hex or next to one (see the module docstring)."""
    if not any(m.key_hq for m in movers):
        return 0.0
    area = {h for g in view.guards for h in (g, *view.neighbours(g))}
    return KEY_HQ_GUARD * sum(m.strength for m, d in zip(movers, dests) if m.key_hq and d in area)


def open_ring(view: View, g: str) -> tuple[str, ...]:
    """The hexes next to guard hex ``g`` that hold no own combat unit and are no guard hex, while
    the side relieves key HQs (:attr:`View.keyed` not empty: it has one on the map) and the enemy can
    reach ``g`` (:attr:`View.guard_need`); else ``()``. The relief must close the ring the key HQs'
    stacks no longer close (session 20)."""
    if not view.keyed or g not in view.guard_need:
        return ()
    return tuple(n for n in view.neighbours(g) if n not in view.own and n not in view.guards)


def relief(view: View, g: str) -> float:
    """The own strength in guard hex ``g`` and next to it in stacks carrying a key HQ
    (:attr:`View.keyed`, :func:`key_hq`): what other stacks should relieve, so the HQ can leave
    (session 19); and ``RING_LACK`` for each hex of its :func:`open_ring` (session 20). The guard's
    approach and the HQ activations' guard call read the need as short by it."""
    kept = sum(view.own.get(h, 0.0) for h in (g, *view.neighbours(g)) if h in view.keyed)
    return kept + RING_LACK * len(open_ring(view, g))


def guard_value(view: View, movers: Sequence[Mover], dests: Sequence[str], own: dict[str, float],
                weights: tuple[float, float] | None = None) -> float:
    """The guard terms of the plan moving ``movers[i]`` to ``dests[i]``, ``own`` the own combat
    strength per hex after it (see the module docstring); with ``weights`` (``planner_eval.W``'s
    ``guard`` and ``screen``) also a garrison as strong as half the enemy strength within
    ``GUARD_RADIUS`` and a ring of own stacks, by the hex's threat."""
    if not view.guards:
        return 0.0
    total = -_key_cost(view, movers, dests)
    held, screen = weights or (0.0, 0.0)
    for g in view.guards if weights else ():
        t, menace = view.threat.get(g, 0.0), view.menace.get(g, 0.0)
        if g in own:  # a garrison, as strong as half the enemy strength within three hexes
            total += 4 * HOLD_WEIGHT * held * (0.2 + t) * min(1.0, own[g] / max(1.0, 0.5 * menace))
        if t > 0:
            ring = sum(own.get(n, 0.0) for n in view.neighbours(g))
            total += 4 * HOLD_WEIGHT * screen * t * min(1.0, ring / max(3.0, menace))
    if not (view.guard_core or view.guard_need or view.open_guard):
        return total
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
            if view.keyed:  # the relief's ring (session 20): each hex next to it held, RING_LACK's worth
                total += GUARD_HOLD * RING_LACK * sum(1 for n in view.neighbours(g)
                                                      if n in own and n not in crowded and n not in view.guards)
            lack = want - sum(view.own.get(h, 0.0) for h in (g, *view.neighbours(g))) + relief(view, g)
            sent = 0.0
            for m, d in zip(movers, dests):  # short: stacks within GUARD_RADIUS close in (up to the
                if lack <= 0 or not m.strength or m.hq_only or m.key_hq or d == m.origin:  # shortfall, a
                    continue  # key HQ's stack relieved, not sent), none marches off
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
