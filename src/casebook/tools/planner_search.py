"""The planning bot's search over whole movement plans (online evolutionary planning).

A *plan* gives every stack that may move in the current step one destination (or its own hex:
it stays). :func:`search_plan` prunes each stack's destinations to the few best on their own,
then evolves a small population of plans — mutating one or two stacks' destinations at a time —
scored by :func:`casebook.tools.planner_eval.plan_value`, until the node budget (plan evaluations)
or the work cap (stacks evaluated: a plan evaluation costs about one unit per stack) is spent. Both
are counts, never the clock: the same view, movers, seed and budget give the same plan on any machine
under any load (session 15; until then a wall-clock cap could cut a search short under load).
:func:`next_move` picks which stack of the plan moves first: the one whose move is worth most against the same plan with that stack staying.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from casebook.tools.planner_eval import Mover, View, plan_value

__all__ = ["Budget", "search_plan", "next_move", "KEEP_DESTS", "POPULATION", "DEFAULT_WORK"]

#: Destinations kept per stack after pruning (besides staying).
KEEP_DESTS = 5
#: Plans kept per generation.
POPULATION = 8
#: The work cap per decision: stacks evaluated (each plan evaluation counts the stacks it places).
#: A safety net for a pack far larger than the shipped ones, never reached in them: an October Blitz
#: decision plans for at most 20 stacks and spends at most 8,000 (session 15, seed 1, Turns 1–2); the
#: cap binds before the 400 nodes only when more than 500 stacks may move at once.
DEFAULT_WORK = 200_000


@dataclass
class Budget:
    """A deterministic budget per decision: ``nodes`` plan evaluations, and ``work`` stacks
    evaluated (the safety net for a pack with very many stacks; see :data:`DEFAULT_WORK`). The
    search stops at whichever runs out first; no clock is read, so the choice never depends on
    the machine or its load (docs/planner.md, "Budget"). ``capped`` tells whether the work cap
    (not the nodes) ended the last search."""

    nodes: int
    work: int = DEFAULT_WORK
    used: int = 0
    spent: int = 0
    capped: bool = False

    def start(self) -> None:
        self.used, self.spent, self.capped = 0, 0, False

    def spend(self, n: int = 1, stacks: int = 0) -> None:
        """Count ``n`` nodes that evaluated ``stacks`` stacks in all."""
        self.used += n
        self.spent += stacks

    def left(self, reserve: int = 0) -> bool:
        """More than ``reserve`` nodes remain and the work cap is not reached."""
        if self.used >= self.nodes - reserve:
            return False
        if self.spent >= self.work:
            self.capped = True
            return False
        return True


def _value(view: View, movers: Sequence[Mover], plan: tuple[str, ...], budget: Budget) -> float:
    budget.spend(1, len(movers))
    return plan_value(view, movers, plan)


def _prune(view: View, movers: Sequence[Mover], budget: Budget) -> list[tuple[str, ...]]:
    """Each stack's own hex and its KEEP_DESTS best destinations alone (others staying)."""
    stay = tuple(m.origin for m in movers)
    out: list[tuple[str, ...]] = []
    for i, m in enumerate(movers):
        scored = []
        for d in m.dests:
            if d == m.origin:
                continue
            if not budget.left(reserve=3):  # the three seed plans of the search come next
                break
            plan = stay[:i] + (d,) + stay[i + 1:]
            scored.append((-_value(view, movers, plan, budget), d))
        scored.sort()
        out.append((m.origin, *(d for _, d in scored[:KEEP_DESTS])))
    return out


def search_plan(view: View, movers: Sequence[Mover], budget: Budget, seed: str,
                warm: tuple[str, ...] | None = None) -> tuple[tuple[str, ...], float]:
    """(the best plan found, its value): one destination per mover, in ``movers`` order.
    ``warm`` (a plan from an earlier decision of the same step) joins the first population."""
    budget.start()
    if not movers:
        return (), 0.0
    options = _prune(view, movers, budget)
    rng = random.Random(seed)
    stay = tuple(m.origin for m in movers)
    greedy = tuple(o[1] if len(o) > 1 else o[0] for o in options)
    seeds = [greedy, stay]
    if warm and len(warm) == len(movers):  # destinations no longer legal stay home
        seeds.append(tuple(d if d in m.dests else m.origin for m, d in zip(movers, warm)))
    pool: dict[tuple[str, ...], float] = {}
    for plan in seeds:
        if plan not in pool:
            pool[plan] = _value(view, movers, plan, budget)
    movable = [i for i, o in enumerate(options) if len(o) > 1]
    while movable and budget.left():
        parents = sorted(pool.items(), key=lambda kv: (-kv[1], kv[0]))[:POPULATION]
        pool = dict(parents)
        for parent, _ in parents:
            if not budget.left():
                break
            child = list(parent)
            for _ in range(1 + (rng.random() < 0.4)):
                i = movable[rng.randrange(len(movable))]
                child[i] = options[i][rng.randrange(len(options[i]))]
            plan = tuple(child)
            if plan in pool:
                budget.spend()  # a plan tried already costs a node too: the search always ends
            else:
                pool[plan] = _value(view, movers, plan, budget)
    best = min(pool.items(), key=lambda kv: (-kv[1], kv[0]))
    return best[0], best[1]


def next_move(view: View, movers: Sequence[Mover], plan: tuple[str, ...], value: float,
              budget: Budget) -> tuple[int, float] | None:
    """(index of the mover to move now, what its move adds to the plan), or None if the plan
    keeps every stack where it is or no move adds anything. Ties: the first in mover order."""
    best: tuple[int, float] | None = None
    for i, (m, d) in enumerate(zip(movers, plan)):
        if d == m.origin:
            continue
        without = plan[:i] + (m.origin,) + plan[i + 1:]
        budget.spend(1, len(movers))
        gain = value - plan_value(view, movers, without)
        if gain > 1e-9 and (best is None or gain > best[1]):
            best = (i, gain)
    return best
