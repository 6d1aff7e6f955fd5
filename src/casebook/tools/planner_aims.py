"""What the planning bot plays for *this decision*: the scenario's goals weighed by what it can reach.

:class:`~casebook.tools.planner_goals.Goals` are read once per game; :func:`aims_for` re-weighs them
per decision from the position (units by hex, control), without naming a game, a side or a town:

- **count conditions** ("hold N of these M hexes", :class:`~casebook.tools.planner_goals.CountGoal`)
  of the deciding side are played for *as a set*: the N objectives cheapest to hold (:func:`cost`:
  held ones first, then by hexes from the nearest own combat stack of some strength, plus the enemy
  strength on and next to each — a defended town costs more), re-chosen at every decision. Each
  chosen objective not held is worth ``COUNT_TOP`` × ``HOLD_WEIGHT`` to the advance after combat
  into it (``COUNT_PULL`` × it to the advance pull of every stack, :func:`pulls`), and a held one
  as much to its garrison; its defenders weigh ``STAKE`` ×
  ``HOLD_WEIGHT`` in the attacks on them and their set-up (a hold hex: 1); the others of the
  condition keep ``SPARE`` × ``HOLD_WEIGHT``, below a main objective (no spearhead or grab calls
  for them). A plan that takes chosen objectives is paid by :func:`count_value`: the
  k-th of N is worth ``k / N`` × ``COUNT_TOP`` × ``HOLD_WEIGHT``, rising as k approaches N (the
  N-th wins the game, as a strike hex does), so a plan completes the set rather than spreads;
- **strike hexes** (whose entry wins at once) are chased at their full weight only when an own
  combat unit stands within ``STRIKE_TURNS`` turns' march of one (the side's largest printed MA a
  turn, no more turns than are left); farther they are worth ``STRIKE_FAR`` × ``HOLD_WEIGHT``, so
  the drive goes for the objectives it can take, not for a hex it cannot reach (session 11: every
  October Blitz German win was 18.1.3B, none 18.1.3A — the planner drove past the towns).

The other side of a count condition (the one that must keep the hexes) weighs them as before:
``HOLD_WEIGHT`` each. Everything here is a heuristic for a bot; the rules decide the result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from casebook.tools.planner_goals import HOLD_WEIGHT, Goals
from casebook.tools.planner_road import open_roads, wanted

__all__ = ["CountAim", "aims_for", "pulls", "cost", "count_value", "taken_by_count", "COUNT_TOP", "COUNT_PULL",
           "SPARE", "STAKE", "LAST_TOP", "STRIKE_TURNS", "STRIKE_FAR", "CHOOSER_STRENGTH", "DEFENCE_PER_HEX"]

#: The N-th objective of a count condition (the one that wins) is worth this many HOLD_WEIGHTs,
#: as a strike hex is (Goals.targets: 4).
COUNT_TOP = 4.0
#: On the scenario's last turn a hex whose control alone decides the game (Goals.keeps) is worth this
#: many HOLD_WEIGHTs, as a strike hex is: its garrison must outlast the enemy's last attacks (session 16:
#: Battle for Moscow's German garrison of Moscow, one panzer corps at 6, fell at 3:1 on Turn 7, seed 9).
LAST_TOP = 4.0
#: The objectives of a count condition beyond the N chosen keep this share of HOLD_WEIGHT.
SPARE = 0.5
#: What a chosen objective not held weighs in the advance pull (HOLD_WEIGHTs): more than a hold hex
#: (1), less than its take value — at COUNT_TOP the rear garrison of a guard hex marched off for the
#: towns and Smolensk fell on Turn 1 in 5 of 10 planner-vs-planner Blitz games (session 12).
COUNT_PULL = 1.5
#: What a chosen objective's defenders weigh in an attack (HOLD_WEIGHTs; a hold hex: 1): their
#: losses count 1 + 2 x STAKE times in the attack's expected result, as a strike hex's (5).
STAKE = 2.0
#: A strike hex keeps its full weight only within this many turns' march of an own combat unit.
STRIKE_TURNS = 2
#: ... and is worth this many HOLD_WEIGHTs farther off.
STRIKE_FAR = 1.0
#: The own stacks that count for the cost of an objective: at least this strength (a lone
#: remnant far ahead does not make a town cheap).
CHOOSER_STRENGTH = 2.0
#: Enemy strength on and next to an objective that costs as much as one hex of distance.
DEFENCE_PER_HEX = 5.0


@dataclass(frozen=True)
class CountAim:
    """One count condition of the deciding side at this decision: the ``chosen`` objectives (the
    ``at_least`` cheapest, in cost order), how many of them the side ``held``, and ``at_least``."""

    chosen: tuple[str, ...]
    held: int
    at_least: int
    hexes: tuple[str, ...]


def _marginal(k: int, n: int) -> float:
    """What the k-th objective of a condition needing n is worth (rising with k)."""
    return HOLD_WEIGHT * COUNT_TOP * min(k, n) / n


def cost(view: Any, label: str) -> float:
    """How dear objective ``label`` is to hold for ``view.side``: 0 when held (and no enemy
    stands on it), else the hexes from the nearest own combat stack of at least
    ``CHOOSER_STRENGTH`` plus the enemy strength on it and next to it per ``DEFENCE_PER_HEX``."""
    if view.control.get(label) == view.side and label not in view.enemy:
        return 0.0
    own = [h for h, s in view.own.items() if s >= CHOOSER_STRENGTH] or list(view.own)
    near = min((view.distance(label, h) for h in own), default=99)
    defence = view.enemy.get(label, 0.0) + view.enemy_next_to(label)
    return float(near) + defence / DEFENCE_PER_HEX


def _reachable(view: Any, label: str, pace: int, turns_left: int | None) -> bool:
    turns = STRIKE_TURNS if turns_left is None else max(1, min(STRIKE_TURNS, turns_left))
    if not pace:
        return True  # no movement allowance printed: nothing to judge by
    return any(view.distance(label, h) <= pace * turns for h in view.own)


def pulls(aims: Mapping[str, float], counts: list[CountAim]) -> dict[str, float]:
    """The weights the advance pull reads: ``aims``, a chosen objective of a count condition at
    ``COUNT_PULL`` x ``HOLD_WEIGHT``."""
    chosen = {h for c in counts for h in c.chosen}
    return {h: (COUNT_PULL * HOLD_WEIGHT if h in chosen else w) for h, w in aims.items()}


def aims_for(view: Any, goals: Goals, pace: int,
             turns_left: int | None) -> tuple[dict[str, float], dict[str, float], list[CountAim]]:
    """The side's objective weights this decision (``goals.targets`` re-weighed as the module says),
    its *stakes* — the hold weights an attack on a hex's defenders reads (``goals.hold``; a chosen
    objective of a count condition ``STAKE`` × ``HOLD_WEIGHT``, the others ``SPARE`` × it) — and its
    count conditions' choices. ``pace`` is the side's largest printed MA, ``turns_left`` the turns
    left in the scenario (None: unknown)."""
    side = view.side
    aims = goals.targets(side)
    stake = dict(goals.hold)
    for h in goals.strike.get(side, ()):
        if not _reachable(view, h, pace, turns_left):
            aims[h] = max(goals.hold.get(h, 0.0), STRIKE_FAR * HOLD_WEIGHT)
    counts: list[CountAim] = []
    for c in goals.counts:
        if c.side not in (None, side):
            continue
        ranked = sorted(c.hexes, key=lambda h: (cost(view, h), h))
        chosen = tuple(ranked[:c.at_least])
        held = sum(1 for h in chosen if view.control.get(h) == side)
        for h in c.hexes:
            stake[h] = SPARE * HOLD_WEIGHT
            if h not in goals.strike.get(side, ()):
                aims[h] = SPARE * HOLD_WEIGHT
        for h in chosen:
            aims[h], stake[h] = HOLD_WEIGHT * COUNT_TOP, HOLD_WEIGHT * STAKE
        counts.append(CountAim(chosen, held, c.at_least, c.hexes))
    if turns_left == 1:  # the last turn: a hex whose control alone decides the game at its end weighs
        for h in goals.keeps():  # what a strike hex does, to take it, garrison it and attack its defenders
            aims[h], stake[h] = max(aims.get(h, 0.0), LAST_TOP * HOLD_WEIGHT), max(stake.get(h, 0.0), STAKE * HOLD_WEIGHT)
    if counts:  # the defenders barring the way to the chosen objectives weigh as stakes (planner_road)
        open_roads(view, stake, wanted(counts, view.control, side), HOLD_WEIGHT)
    return aims, stake, counts


def count_value(counts: list[CountAim], control: Mapping[str, str | None], side: str,
                own: Mapping[str, float]) -> float:
    """What a plan whose own combat strength per hex is ``own`` gains by the chosen objectives it
    takes (stands on, not held yet): the k-th of each condition's N worth ``_marginal(k, N)``."""
    total = 0.0
    for c in counts:
        k = c.held
        for h in c.chosen:
            if h in own and control.get(h) != side:
                k += 1
                total += _marginal(k, c.at_least)
    return total


def taken_by_count(counts: list[CountAim], control: Mapping[str, str | None], side: str) -> frozenset[str]:
    """The chosen objectives not held: :func:`count_value` pays for taking them (not the per-hex
    take term)."""
    return frozenset(h for c in counts for h in c.chosen if control.get(h) != side)
