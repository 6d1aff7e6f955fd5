"""The planning bot's operational plan: the scenario's ``bot_plan`` objectives, when its pack gives one.

Commercial wargames give their AI a scenario's plan as data ("AI objectives"). A scenario may carry
an optional ``bot_plan:`` block (schema: :mod:`casebook.content.schema_plan`; e.g. the October Blitz's
German pincers meeting at Vyazma by Turn 2): per side, hexes its spearheads drive for until the end
of a turn, each with a weight. It is guidance for the bot, never a rule: the rules do not read it.

- :func:`plan_aims` reads the block once per game into :class:`PlanAim`\\ s (``Goals.plan``);
- :func:`plan_for` keeps, per decision, the objectives of the deciding side whose turn has not passed
  and the own stacks they pull (:class:`Plan`: per objective, the strength of each own hex's combat
  units of the ``classes`` it names — e.g. the armour, the spearheads — or of all of them);
- :func:`plan_pull` is the term the plan's evaluation adds (``planner_eval.plan_value``): for every
  stack a plan moves, ``PLAN_PULL`` × its pulled strength / 5 × the largest of ``weight`` × (the map's
  larger dimension − the hexes from its destination to the objective) — every hex nearer counts alike,
  as the advance pull does (``View.advance_pull``), so a spearhead takes the road to the objective.

Game-neutral: no game, side or town is named here; a scenario without the block (Battle for Moscow,
Kestrel Pass, the Campaign) gives no objectives and the term is 0 (the bot plays as before).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["PlanAim", "Plan", "plan_aims", "plan_for", "plan_pull", "PLAN_PULL"]

#: What one hex nearer a plan objective is worth per 5 strength points pulled and per HOLD_WEIGHT of
#: the objective's weight: the advance pull's own weight (planner_eval.W["advance"]).
PLAN_PULL = 0.4


@dataclass(frozen=True)
class PlanAim:
    """One ``bot_plan`` objective: ``side`` drives for ``hex`` until the end of turn ``by_turn`` at
    ``weight`` (HOLD_WEIGHTs), pulling the units of ``classes`` (None: every combat unit)."""

    side: str
    hex: str
    by_turn: int
    weight: float
    classes: frozenset[str] | None = None


@dataclass(frozen=True)
class Plan:
    """The plan of one side at one decision: ``targets`` objective hex -> (weight, own hex -> the
    strength of the units there it pulls), ``reach`` the map's larger dimension (hexes)."""

    targets: Mapping[str, tuple[float, Mapping[str, float]]]
    reach: int


def plan_aims(scenario: Mapping[str, Any] | None) -> tuple[PlanAim, ...]:
    """The objectives of a scenario's ``bot_plan`` block (validated at load: schema_plan), in block
    order; () without one."""
    plan = (scenario or {}).get("bot_plan")
    objectives = plan.get("objectives") if isinstance(plan, Mapping) else None
    return tuple(PlanAim(str(o["side"]), str(o["hex"]), int(o["by_turn"]), float(o["weight"]),
                         frozenset(map(str, o["classes"])) if o.get("classes") else None)
                 for o in objectives or () if isinstance(o, Mapping))


def plan_for(state: Any, view: Any, aims: Sequence[PlanAim], skip: frozenset[str],
             strength: Callable[[Mapping[str, Any]], float]) -> Plan | None:
    """``view.side``'s :class:`Plan` in ``state`` (its turn ``state.data.turn``): the objectives of
    ``aims`` of that side whose ``by_turn`` has not passed, each with the strength (``strength`` of each
    unit, at least 0.5) of the combat units (classes not in ``skip``) of its ``classes`` per own hex;
    None when no objective is left. The enemy stacks barring the way to an objective the side does not
    hold become road openers in ``view.stake`` (:func:`casebook.tools.planner_road.open_roads`, as for
    a count condition's chosen towns): the attacks that open the spearheads' road weigh more."""
    from casebook.tools.planner_goals import HOLD_WEIGHT
    from casebook.tools.planner_road import open_roads

    data, side = state.data, view.side
    turn = int(data.turn or 1)
    live = [a for a in aims if a.side == side and turn <= a.by_turn]
    if not live:
        return None
    targets: dict[str, tuple[float, dict[str, float]]] = {}
    for a in live:
        pulled: dict[str, float] = {}
        for u in data.units:
            where, cls = u.get("hex"), u.get("class")
            if where and u.get("side") == side and cls not in skip and (a.classes is None or cls in a.classes):
                pulled[where] = pulled.get(where, 0.0) + max(strength(u), 0.5)
        targets[a.hex] = (a.weight, pulled)
    open_roads(view, view.stake, sorted(t for t in targets if data.control(t) != side), HOLD_WEIGHT)
    grid = state.game.engine.board_for(data).grid
    return Plan(targets, max(grid.columns, grid.rows))


def plan_pull(view: Any, movers: Sequence[Any], dests: Sequence[str]) -> float:
    """What the plan of ``view`` (``view.plan``, a :class:`Plan` or None) pays for moving each of
    ``movers`` (planner_eval.Mover: ``origin``, ``hq_only``) to ``dests``: see the module docstring."""
    plan: Plan | None = view.plan
    if plan is None:
        return 0.0
    total = 0.0
    for m, d in zip(movers, dests):
        if m.hq_only:
            continue
        best = 0.0
        for t, (w, by_hex) in plan.targets.items():
            pulled = by_hex.get(m.origin, 0.0)
            if pulled:
                best = max(best, pulled / 5.0 * w * max(0, plan.reach - view.distance(d, t)))
        total += PLAN_PULL * best
    return total
