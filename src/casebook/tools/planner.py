"""``bot:planner`` — a planning bot that plans whole movement steps and reads the pack's victory data.

At a step where stacks move (any legal action with a ``stack`` and a ``path`` or ``to``), the bot searches a
plan for *every* stack that may move now (:mod:`casebook.tools.planner_search`, scored by
:mod:`casebook.tools.planner_eval` on objectives and guard hexes read from the scenario's victory block,
:mod:`casebook.tools.planner_goals`), plays the plan's most valuable move, and plans again at the next
decision (starting from the plan it had). Overruns are played only at odds where they pay, against the best
move. In combat it concentrates: every legal attack is assessed by the rules' own ``attack`` answer (odds,
DRM, the support a ``support=N`` buys) and the best one that pays is made, else it passes. It **guards** its
automatic-loss hexes (:mod:`casebook.tools.bots_guard`): never emptied, and garrisoned when open under threat
(``planner_eval.GUARD_FILL``). HQ activations go to stacks near the enemy and the objectives, retreats and
advances by the losses and the objectives, reinforcements to the threatened objectives; anything else as
:func:`casebook.tools.bots.action_value` does. Game-neutral, seeded and deterministic (the search's random
numbers come from the seed and the decision's place in the game), so a bot rebuilt from
:meth:`PlannerBot.state_dict` plays on exactly as before.
"""

from __future__ import annotations

import time
from typing import Any

from casebook.core.actions import Action
from casebook.tools.bots import action_value
from casebook.tools.bots_guard import GUARD_CROWD, advance_weakens, crowds, empties, guard_hexes, unstacks
from casebook.tools.planner_combat import IP_COST, expected_value, odds_value, spare_ips, support_options
from casebook.tools.planner_eval import Mover, View, build_view, grab, grabbers, plan_value, pocketed, strength
from casebook.tools.planner_goals import HOLD_WEIGHT, Goals, goals_for, non_combat_of
from casebook.tools.planner_guard import key_hq, rear_short, relief
from casebook.tools.planner_search import Budget, next_move, search_plan

__all__ = ["PlannerBot", "DEFAULT_NODES", "DEFAULT_SECONDS", "attack_value"]

#: Plan evaluations per decision (the deterministic budget; the work cap of the search is its safety net).
DEFAULT_NODES = 400
#: A decision slower than this (wall seconds) is counted in :attr:`PlannerBot.slow`; never cuts a search.
DEFAULT_SECONDS = 5.0
_MOVES = ("move", "rail-move")
#: The action giving the stack just moved a second MP allotment (force march), where a game has it.
_MARCH = "force-march"

#: Expected value an attack must beat (overruns cost MP and risk the panzers: more).
ATTACK_MARGIN = 0.3
OVERRUN_MARGIN = 0.8
#: What activating an overstacked stack adds to an activation's value.
OVERSTACK_CALL = 8.0
#: A defender with no hex to retreat into loses a step per hex it cannot retreat (11.2B-like):
#: its losses count this much more. Each hex the attack would open in the enemy line (at most 3)
#: adds BREACH_ATTACK to the weight of the defender's losses and retreats.
POCKET = 0.5
BREACH_ATTACK = 0.15
#: What a spearhead (a stack among the most advanced towards the objectives in reach) adds to the
#: activation that wakes it; nothing while a guard hex is short of its garrison (:func:`~casebook.tools.planner_guard.rear_short`;
#: docs/planner.md, session 8: per strength it outbid the guard calls and a guard hex fell).
LEAD = 5.0
#: A force march (a second MP allotment, a fatigue risk) is declared when the farther move gains
#: more than FORCE_MARCH_COST + FORCE_MARCH_PER_STRENGTH per 5 strength points of the stack, and
#: only for a stack whose move just covered FORCE_MARCH_MIN_PATH hexes (on the march).
FORCE_MARCH_COST = 1.0
FORCE_MARCH_PER_STRENGTH = 0.8
FORCE_MARCH_MIN_PATH = 3


def _answer(state: Any, ctx: Any, action: Action, cache: dict[Any, Any]) -> tuple[Any, ...] | None:
    """The rules' ``attack`` answer to ``action`` (with its support), reduced to (expected value
    at objective weight 0, at weight 1, effective odds, net DRM); None if refused. Kept in
    ``cache`` by state version, hex, attackers, support and kind."""
    hex_ = action.get("hex")
    overrun = action.kind == "overrun"
    with_ = tuple(action.get("with") or ())
    if overrun:  # an overrun names the overrunning stack's hex: its units attack
        with_ = tuple(u["id"] for u in state.data.units_at(action.get("stack") or "")
                      if u.get("side") == action.side)
    ips = int(action.get("support") or 0)
    key = (state.data.version, hex_, with_, ips, overrun)
    if key not in cache:
        options: dict[str, Any] = {"with": list(with_), "support": [ips, 0]}
        if overrun:
            options["overrun"] = True
        try:
            answer = ctx.hook.casebook_answer(ctx=ctx, question="attack", args=[hex_], options=options)
        except Exception:  # a question the game cannot answer for this action: not worth it
            answer = None
        if not answer or answer.get("refusals"):
            cache[key] = None
        else:
            cache[key] = (expected_value(answer, 0.0), expected_value(answer, 1.0), odds_value(answer),
                          int((answer.get("drm") or {}).get("net") or 0))
    found: tuple[Any, ...] | None = cache[key]
    return found


def attack_value(state: Any, ctx: Any, action: Action, goals: Goals, cache: dict[Any, Any],
                 view: View | None = None) -> float:
    """What an ``attack`` or ``overrun`` action is worth to its side, above a margin (0.3 for an
    attack, 0.8 for an overrun): the expected result of the rules' ``attack`` answer with the
    action's combat support (:func:`casebook.tools.planner_combat.expected_value`; defender steps
    weighted by the hex's objective weight), less ``IP_COST`` per support IP; a game whose answer
    has no readable outcomes falls back on effective odds above 2 (3 for an overrun). -1 if the
    answer refuses it. Answers are kept in ``cache``. With the attacker's ``view``, a defender
    with no hex to retreat into (a pocket) counts its losses ``1 + POCKET`` times, and one whose
    hex is a weak point of the line (:attr:`View.breach`) ``BREACH_ATTACK`` more per hex opened."""
    found = _answer(state, ctx, action, cache)
    if found is None:
        return -1.0
    hex_ = action.get("hex")
    overrun = action.kind == "overrun"
    ips = int(action.get("support") or 0)
    n_with = len(action.get("with") or ())
    stake = goals.hold if view is None else view.stake  # a defender pushed off an objective hands it over
    weight = 1.0 + 2.0 * stake.get(hex_, 0.0) / HOLD_WEIGHT + 4.0 * (hex_ in goals.strike.get(action.side, ()))
    if view is not None and hex_ in view.enemy:
        weight += BREACH_ATTACK * min(3, view.breach.get(hex_, 0))
        if pocketed(view.own, view.enemy, view.neighbours, hex_):
            weight *= 1.0 + POCKET
    ev0, ev1, odds, _ = found
    if ev0 is None or ev1 is None:
        if odds is None:
            return -1.0
        defence = sum(strength(u) for u in state.data.units_at(hex_) if u.get("side") != action.side)
        threshold = 3.0 if overrun else 2.0
        return (odds - threshold) * weight * (0.5 + min(defence, 10.0) / 5.0) - 0.1 * ips - 0.02 * n_with
    margin = OVERRUN_MARGIN if overrun else ATTACK_MARGIN
    return ev0 + weight * (ev1 - ev0) - margin - IP_COST * ips - 0.02 * n_with


class PlannerBot:
    """The planning bot (see the module docstring). ``nodes`` plan evaluations per decision (with
    the search's work cap, :data:`casebook.tools.planner_search.DEFAULT_WORK`: the whole budget,
    counted, never timed); ``seconds`` a wall time per decision above which the decision is counted
    in :attr:`slow` (it changes no choice). :attr:`last_nodes` is what the last decision used,
    :attr:`capped` how many searches the work cap ended."""

    def __init__(self, side: str, seed: int = 0, nodes: int = DEFAULT_NODES,
                 seconds: float = DEFAULT_SECONDS) -> None:
        self.side = side
        self.seed = int(seed)
        self.nodes = int(nodes)
        self.seconds = float(seconds)
        self.last_nodes = self.slow = self.capped = 0
        self._goals: dict[int, Goals] = {}
        self._answers: dict[Any, Any] = {}

    # ------------------------------------------------------------------ saveable state
    def state_dict(self) -> dict[str, Any]:
        """The bot's state as plain data (all its choices derive from it and the game state)."""
        return {"kind": "planner", "side": self.side, "seed": self.seed, "nodes": self.nodes,
                "seconds": self.seconds}

    def load_state_dict(self, data: dict[str, Any]) -> None:
        """Restore :meth:`state_dict` output (ValueError if it is another bot's)."""
        if data.get("kind") != "planner":
            raise ValueError(f"not a planner bot's state: kind {data.get('kind')!r}")
        self.side, self.seed = str(data["side"]), int(data["seed"])
        self.nodes, self.seconds = int(data["nodes"]), float(data["seconds"])

    # ------------------------------------------------------------------ deciding
    def goals(self, state: Any) -> Goals:
        """The scenario's :class:`Goals` (read once per game)."""
        key = id(state.game)
        if key not in self._goals:
            board = state.game.engine.board_for(state.data)
            self._goals[key] = goals_for(state.data.scenario, board, state.data.sides)
        return self._goals[key]

    def _seed(self, state: Any) -> str:
        d = state.data
        return f"planner:{self.side}:{self.seed}:{d.turn}:{d.phase}:{d.step}:{len(state.history)}"

    def choose(self, state: Any) -> Action:
        """The action to play now (one of ``state.legal_actions()``): a function of the position,
        the seed and the budget only (the wall time is measured, :attr:`slow`, never read)."""
        started = time.perf_counter()
        action = self._choose(state)
        self.slow += time.perf_counter() - started > self.seconds
        return action

    def _choose(self, state: Any) -> Action:
        actions = state.legal_actions()
        self.last_nodes = 0
        if len(actions) == 1:
            return actions[0]
        goals = self.goals(state)  # a guard hex, or a held hex whose control decides the game, is never emptied
        actions = [a for a in actions if not empties(state, a) and not empties(state, a, goals.keeps())] or actions
        if len(self._answers) > 2048:
            self._answers.clear()
        if any((a.kind in _MOVES or a.kind == _MARCH) and a.get("stack") for a in actions):
            return self._move(state, actions, goals)
        ctx = state.ctx()
        view: View | None = None
        best, best_value = actions[0], float("-inf")
        attacks = [a for a in actions if a.kind == "attack"]
        if attacks:  # combat support: every amount the side can spare (IPs kept for grabs), in the template
            view = build_view(state, self.side, goals)
            def net(a: Action) -> int | None:
                found = _answer(state, ctx, a, self._answers)
                return None if found is None else int(found[3])
            actions = [a for a in actions if a.kind != "attack"] + support_options(
                attacks, max(0, spare_ips(state, self.side) - grabbers(state, view)), net)
        for action in actions:
            if action.kind in ("attack", "overrun"):
                value = attack_value(state, ctx, action, goals, self._answers, view)
            elif action.kind in ("activate-hq", "activate-stack", "retreat", "advance", "place-reinforcement"):
                view = view or build_view(state, self.side, goals)
                value = self._other(state, ctx, view, action)
            else:
                value = action_value(state, ctx, action)
            if value > best_value:
                best, best_value = action, value
        return best

    def _other(self, state: Any, ctx: Any, view: View, action: Action) -> float:
        kind = action.kind
        if kind == "activate-hq":  # overstacked stacks first: each step they stay costs losses (6.2E-like)
            stacks = action.get("stacks") or ()
            return (action_value(state, ctx, action) + sum(_priority(view, h) for h in stacks)
                    + OVERSTACK_CALL * sum(_overstacked(state, ctx, h, None) for h in stacks))
        if kind == "activate-stack":
            label = str(action.get("stack") or "")
            return (action_value(state, ctx, action) + _lead(view, label) + grab(view, label)
                    + OVERSTACK_CALL * _overstacked(state, ctx, action.get("stack"), None))
        if kind == "retreat":
            path = action.get("path") or ()
            end = path[-1] if path else None
            value = 1.0 - 2.5 * int(action.get("losses") or 0)
            if end and _overstacked_after(state, action, end):
                value -= 2.0  # an overstack at the end of the step costs fatigue and losses
                value -= GUARD_CROWD if crowds(state, action) else 0.0  # in a guard hex: its garrison too
            if end:
                value -= 0.5 * sum(1 for n in view.neighbours(end) if n in view.enemy)
                value += view.goals.hold.get(end, 0.0) / HOLD_WEIGHT
            return value
        if kind == "advance":
            path = action.get("path") or ()
            if not path or advance_weakens(state, action) > 0:  # never out of a guard hex's ring below
                return -1.0 if path else 0.0                    # its need: staying (0) is worth more
            end = path[-1]
            pull = 2.0 * view.aims.get(path[0], 0.0) / HOLD_WEIGHT
            return 0.5 + pull + view.advance_pull(end) - 0.3 * (view.enemy_next_to(end) > 0)
        # place-reinforcement: near threatened objectives (action_value: +GUARD_SEND on an open guard hex)
        where = action.get("hex")
        if not where:
            return 1.0
        need = max((view.threat.get(h, 0.0) * w / HOLD_WEIGHT / (1 + view.distance(where, h))
                    for h, w in {**view.goals.hold, **dict.fromkeys(view.goals.guard(self.side), 4 * HOLD_WEIGHT)}
                    .items()), default=0.0)
        return action_value(state, ctx, action) + need - 0.5 * (view.enemy_next_to(where) > 0)

    def _move(self, state: Any, actions: list[Action], goals: Goals) -> Action:
        view = build_view(state, self.side, goals)
        by_stack: dict[str, dict[str, Action]] = {}
        others: list[Action] = []
        marching = _force_marching(state, self.side)
        if marching is not None and any(a.kind in _MOVES and a.get("stack") == marching for a in actions):
            # a stack that declared a force march goes on at once (another stack's move would end it)
            actions = [a for a in actions if a.kind in _MOVES and a.get("stack") == marching]
        clear = [a for a in actions if unstacks(state, a)]  # an overstacked guard hex first (6.2F-like)
        if clear:
            return max(clear, key=lambda a: action_value(state, state.ctx(), a))
        for a in actions:
            if a.kind in _MOVES and a.get("stack"):
                path = a.get("path") or (a.get("to"),)
                dest = path[-1]
                kept = by_stack.setdefault(str(a.get("stack")), {})
                if dest and (dest not in kept or len(path) < len(kept[dest].get("path") or ())):
                    kept[dest] = a
            else:
                others.append(a)
        movers = []
        ctx = state.ctx()
        skip = non_combat_of(state)
        for origin in sorted(by_stack):
            units = [u for u in state.data.units_at(origin) if u.get("side") == self.side]
            combat = [u for u in units if u.get("class") not in skip]  # a remnant moves as an HQ does
            dests = (origin, *sorted(by_stack[origin]))
            ids = [u["id"] for u in units]
            crowded = frozenset(d for d in dests[1:] if _overstacked(state, ctx, d, ids))
            movers.append(Mover(origin, sum(max(strength(u), 0.5) for u in combat), not combat, dests,
                                _overstacked(state, ctx, origin, None), crowded, key_hq(units)))
        budget = Budget(self.nodes)
        march = [a for a in others if a.kind == _MARCH]
        if march and self._force_march_pays(state, view, march[0]):
            self.last_nodes = 1
            return march[0]
        # no warm start from the previous decision's plan: every choice is a function of the game
        # state and the seed alone, so a game resumed from a save plays on exactly (#19)
        plan, value = search_plan(view, movers, budget, self._seed(state))
        pick = next_move(view, movers, plan, value, budget)
        best: tuple[float, Action] | None = None
        for a in others:
            if a.kind == "overrun":
                v = attack_value(state, ctx, a, goals, self._answers, view)
                if v > 0 and (best is None or v > best[0]):
                    best = (v, a)
        self.last_nodes, self.capped = budget.used, self.capped + budget.capped
        if pick is not None and (best is None or pick[1] >= best[0]):
            m = movers[pick[0]]
            return by_stack[m.origin][plan[pick[0]]]
        if best is not None:
            return best[1]
        passes = [a for a in actions if a.kind == "pass"]
        if passes:
            return passes[0]
        return max(actions, key=lambda a: action_value(state, ctx, a))

    def _force_march_pays(self, state: Any, view: View, action: Action) -> bool:
        """Whether the stack just moved gains enough from a second MP allotment (the rules' ``force-march``
        action, peeked): its best destination then, alone in the plan, against staying where it is, must be
        worth more than FORCE_MARCH_COST plus FORCE_MARCH_PER_STRENGTH per 5 strength (the fatigue risk grows
        with what it puts at stake). A stack next to the enemy does not force march: it has arrived; nor one
        whose move covered fewer than FORCE_MARCH_MIN_PATH hexes (it went where the plan wanted)."""
        origin = str(action.get("stack") or "")
        if not origin or view.enemy_next_to(origin) > 0 or origin in guard_hexes(state, self.side):
            return False  # arrived: next to the enemy, or on a guard hex it keeps
        last = state.history[-1] if state.history else None
        path: tuple[str, ...] | list[str] = (last.get("path") or ()) if last is not None and last.kind in _MOVES else ()
        if len(path) < FORCE_MARCH_MIN_PATH or path[-1] != origin:
            return False
        units = [u for u in state.data.units_at(origin) if u.get("side") == self.side]
        combat = [u for u in units if u.get("class") != "hq"]
        if not combat:
            return False
        try:
            after = state.peek(action)
            dests = sorted({(a.get("path") or (a.get("to"),))[-1] for a in after.legal_actions()
                            if a.kind in _MOVES and a.get("stack") == origin} - {None, origin})
        except Exception:  # the peek or its listing failed: no force march
            return False
        if not dests:
            return False
        power = sum(max(strength(u), 0.5) for u in combat)
        mover = Mover(origin, power, False, (origin, *dests))
        stay = plan_value(view, [mover], [origin])
        best = max(plan_value(view, [mover], [d]) for d in dests)
        return best - stay > FORCE_MARCH_COST + FORCE_MARCH_PER_STRENGTH * power / 5.0


def _force_marching(state: Any, side: str) -> str | None:
    """The hex of the own stack whose force march was the last action played, else None."""
    last = state.history[-1] if state.history else None
    if last is not None and last.kind == _MARCH and last.side == side:
        return str(last.get("stack") or "") or None
    return None


def _overstacked(state: Any, ctx: Any, label: str, ids: list[str] | None) -> bool:
    """Whether ``ids`` (moving in) with the own units already in ``label`` — or, with ``ids``
    None, the stack there now — would be overstacked, by the game's stacking answer (False in a
    game without one, or for a hex it cannot judge)."""
    if ids is not None:
        here = [u["id"] for u in state.data.units_at(label)]
        if not here:
            return False
        ids = here + [i for i in ids if i not in here]
    try:
        answer = ctx.hook.casebook_stacking(ctx=ctx, hex=label, units=ids)
    except Exception:  # a hex or unit list the game's stacking answer refuses: no judgement
        return False
    return bool(answer and answer.get("overstacked"))


def _overstacked_after(state: Any, action: Action, end: str) -> bool:
    """Whether ``end`` is overstacked once ``action`` (a retreat) is applied (a peek)."""
    try:
        after = state.peek(action)
    except Exception:  # not applicable as listed: no judgement
        return False
    return _overstacked(after, after.ctx(), end, None)


def _lead(view: View, label: str) -> float:
    """LEAD for an own combat stack in ``label`` within 4 hexes of the most advanced own
    stack's distance to a main objective in reach (a spearhead), tapering to 0."""
    if label not in view.own:
        return 0.0
    front = view.front()
    if front is None:
        return 0.0
    behind = view.objective_distance(label) - front
    return LEAD * max(0.0, 1.0 - behind / 4.0) * (1.0 - rear_short(view))


def _priority(view: View, label: str) -> float:
    """How much activating the stack in ``label`` seems worth: its strength, more near the enemy,
    plus the threat to objectives within four hexes (guard hexes: eight) that no own stack stands
    on, so a garrison is sent before the enemy gets there."""
    s = view.own.get(label, 0.0) / 5.0
    near = min((view.distance(label, e) for e in view.enemy), default=99)
    value = s * (1.0 + 2.0 * max(0.0, 1.0 - (near - 1) / 6.0)) + _lead(view, label) + grab(view, label)
    for h, t in view.threat.items():
        if t <= 0 or not s:
            continue
        d = view.distance(label, h)
        if h in view.menace and d <= 8 and label not in view.keyed:  # a guard hex short (a key HQ relieved)?
            short = min(1.0, (view.guard_short.get(h, 0.0) + relief(view, h)) / 5.0 + (h not in view.own))
            value += 24.0 * t * short / (1 + d)
        elif h not in view.own and d <= 4:
            value += 2.0 * t * view.goals.hold.get(h, 0.0) / HOLD_WEIGHT
    return value
