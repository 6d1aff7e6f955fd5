"""Bots: players that choose among a :class:`~casebook.core.play.State`'s legal actions.

- :class:`RandomBot` — seeded, uniform over the legal actions.
- :class:`GreedyBot` — a one-step heuristic: each legal action gets a value from
  :func:`action_value` (attacks by their odds column and DRM from the rules' own ``attack``
  answer, moves by how much closer they bring a stack to an objective it does not hold — towns by
  their IP value, the hexes the victory block makes decisive —, activations by the stacks they wake, retreats by the losses they
  avoid), and the best is played; ties break by the legal-action order, so the bot is
  deterministic. It **guards** its side's automatic-loss hexes (:mod:`casebook.tools.bots_guard`:
  hexes whose entry wins at once for the enemy, from the scenario's victory block): it never
  marches their last combat unit away, and sends a unit into one left empty when an enemy unit is
  within reach. :func:`score` rates a whole position the same way, for reports and tests.

Bots use only the public game API; they know no rule beyond what :func:`score` reads from the
state and the pack.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from casebook.core.actions import Action
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.tools.bots_guard import (
    GUARD_BOLSTER,
    GUARD_CALL,
    GUARD_CROWD,
    GUARD_LEAVE,
    GUARD_SEND,
    advance_weakens,
    bolsters,
    crowded_guards,
    crowds,
    empties,
    fills,
    guard_call,
    guard_hexes,
    open_guards,
    short_call,
    unstacks,
    weakens,
)
from casebook.tools.planner_goals import HOLD_WEIGHT, goals_for, non_combat_of

__all__ = ["Bot", "RandomBot", "GreedyBot", "make_bot", "score", "BOT_KINDS"]

BOT_KINDS = ("random", "greedy", "planner")


class Bot(Protocol):
    """A player: ``choose(state) -> Action`` among ``state.legal_actions()``."""

    side: str

    def choose(self, state: Any) -> Action: ...


class RandomBot:
    """Uniform over the legal actions; ``seed`` makes it repeatable.

    The bot keeps no state between choices: each draw comes from a generator seeded with the
    seed, the side and the state's next trace number (``trace_seq``, in every save), so a game
    saved and resumed (``play --load``) makes the same choices as one played through.
    """

    def __init__(self, side: str, seed: int = 0) -> None:
        self.side = side
        self.seed = seed

    def choose(self, state: Any) -> Action:
        actions = state.legal_actions()
        rng = random.Random(f"{self.side}:{self.seed}:{state.data.trace_seq}")
        return actions[rng.randrange(len(actions))]


def _strength(unit: dict[str, Any]) -> float:
    losses = int(unit.get("losses") or 0)
    return max(0.0, float(unit.get("strength") or 0) - 0.5 * losses)


#: What the greedy bot adds to the value of holding a hex the victory block makes decisive on its
#: own: a hex whose entry wins at once (any side's strike hex) or a capital hex the block scores.
KEY_HEX = 5.0


def _key_hexes(state: Any, board: Any) -> frozenset[str]:
    """The hexes the scenario's victory block makes decisive on their own, read as the planner
    reads them (:func:`casebook.tools.planner_goals.goals_for`): every side's strike hexes, and the
    map's capital hexes that the block names as control objectives (per hex or by target)."""
    goals = goals_for(state.data.scenario, board, state.data.sides)
    strike = frozenset(h for hexes in goals.strike.values() for h in hexes)
    return strike | frozenset(h for h in goals.capital if goals.hold.get(h, 0.0) >= HOLD_WEIGHT)


def _objectives(state: Any) -> dict[str, float]:
    """Hex label -> value of holding it: a town's IP value, +``KEY_HEX`` for a hex the victory
    block makes decisive (:func:`_key_hexes`; cached per board and scenario)."""
    cache = state.game.__dict__.setdefault("_bot_objectives", {})
    board = state.game.engine.board_for(state.data)
    key = (id(board), repr(state.data.scenario.get("victory")) if state.data.scenario else None)
    if key not in cache:
        values = {hex_label(h): float(t.get("ip") or 1) for h, t in board.towns().items()}
        for label in sorted(_key_hexes(state, board)):
            values[label] = values.get(label, 1.0) + KEY_HEX
        cache[key] = values
    return cache[key]


def score(state: Any, side: str) -> float:
    """How good the position of ``state`` is for ``side`` (higher is better); a heuristic, not a
    rule: the game result, objectives held, strength balance, closeness to enemy objectives."""
    result = state.result()
    if result is not None and result.get("winner") is not None:
        return 1e6 if result["winner"] == side else -1e6
    data = state.data
    grid = state.game.engine.board_for(data).grid
    values = _objectives(state)
    total = 0.0
    targets = []
    for label, value in values.items():
        owner = data.control(label)
        if owner == side:
            total += 3.0 * value
        elif owner is not None:
            total -= 3.0 * value
            targets.append(parse_hex(label))
    for u in data.units:
        if not u.get("hex"):
            continue
        if u.get("side") == side:
            total += _strength(u)
            if targets and u.get("class") != "hq":
                here = parse_hex(u["hex"])
                total += 2.0 / (1 + min(grid.distance(here, t) for t in targets))
        else:
            total -= 1.2 * _strength(u)
    return total


class GreedyBot:
    """A one-step heuristic (see the module docstring): every legal action gets a value from
    :func:`action_value` without simulating it, and the best is played (ties: the first in the
    legal order), so the bot is deterministic and fast enough for bulk play."""

    def __init__(self, side: str, seed: int = 0) -> None:
        self.side = side
        self._rng = random.Random(f"greedy:{side}:{seed}")

    def choose(self, state: Any) -> Action:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        ctx = state.ctx()
        best, best_value = actions[0], float("-inf")
        for action in actions:
            value = action_value(state, ctx, action)
            if action.kind in ("activate-hq", "activate-stack", "react"):  # stacks that can bolster a short guard
                value += short_call(state, self.side, action.get("stacks") or (action.get("stack"),))
            if value > best_value:
                best, best_value = action, value
        return best


def _nearest_objective(state: Any, side: str, label: str) -> int:
    """Hexes from ``label`` to the nearest objective ``side`` does not hold (a large number if none)."""
    cache = state.__dict__.setdefault("_bot_targets", {})
    key = (state.data.version, side)
    if key not in cache:
        cache.clear()
        cache[key] = tuple(h for h in _objectives(state) if state.data.control(h) != side)
    targets = cache[key]
    if not targets:
        return 99
    # distances kept per set of objectives (they change only when control does)
    kept = state.__dict__.setdefault("_bot_distances", {})
    found = kept.get(targets)
    if found is None:
        if len(kept) >= 8:  # both sides' objective sets, and a few older ones
            kept.pop(next(iter(kept)))
        found = kept[targets] = {}
    d = found.get(label)
    if d is None:
        grid = state.game.engine.board_for(state.data).grid
        here = parse_hex(label)
        d = found[label] = min(grid.distance(here, parse_hex(t)) for t in targets)
    return d


def _overstacked(state: Any, ctx: Any, label: str | None) -> bool:
    """Whether the stack in ``label`` is overstacked now (the stacking hook; cached per version)."""
    if not label:
        return False
    cache = state.__dict__.setdefault("_bot_overstacked", {})
    key = (state.data.version, label)
    if key not in cache:
        if len(cache) > 4096:
            cache.clear()
        answer = ctx.hook.casebook_stacking(ctx=ctx, hex=label, units=None)  # a query hook: one answer
        cache[key] = bool(answer and answer.get("overstacked"))
    return cache[key]


def _attack_value(ctx: Any, action: Action) -> float:
    answer = ctx.hook.casebook_answer(ctx=ctx, question="attack", args=[action.get("hex")],
                                      options={"with": list(action.get("with") or ())})
    if not answer or answer.get("refusals"):
        return -1.0
    column = str(answer.get("column") or "1:1")
    try:
        a, d = (float(x) for x in column.split(":"))
    except ValueError:
        return 0.0
    odds = a / d + 0.5 * int((answer.get("drm") or {}).get("net") or 0)
    return 4.0 * (odds - 2.0) - 0.2 * int(action.get("support") or 0)


def _places_combat(state: Any, action: Action) -> bool:
    """Whether a reinforcement placement puts a combat unit on the map (the victory block's
    ``non_combat`` classes and HQs are none: an HQ placed on an open guard hex is no garrison)."""
    ids = {action.get("unit"), *(action.get("units") or ())} - {None}
    counters = getattr(getattr(state.game.engine, "pack", None), "counters", None) or {}
    units = [u for u in state.data.units if u.get("id") in ids] + [counters[i] for i in sorted(ids) if i in counters]
    return any(u.get("class") not in non_combat_of(state) for u in units)


def action_value(state: Any, ctx: Any, action: Action) -> float:
    """How much ``action`` seems to help its side (a heuristic, not a rule): attacks by their odds
    and DRM, moves by how much closer they bring the stack to an objective it does not hold,
    activations by how many stacks they wake (overstacked ones first, 6.2F), losses avoided,
    advances and recoveries taken, paratroop drops and partisans placed near objectives; an
    action that empties a guard hex is worth ``GUARD_LEAVE`` (never played while anything else is
    legal), a move or reinforcement that garrisons an open, threatened one ``GUARD_SEND`` more, an activation
    ``GUARD_CALL`` more per stack it wakes that can reach one; a move or reinforcement that brings
    strength into a guard hex short of what the threat asks, or next to it, ``GUARD_BOLSTER`` more per
    point of the shortfall it covers, and a move that takes strength out below it as much less;
    an own guard hex overstacked is cleared first (6.2F): an activation that wakes its stack is
    worth ``GUARD_SEND`` more, a move out of it that leaves a garrison ``GUARD_CALL`` more, and a
    retreat into it ``GUARD_CROWD`` less (:mod:`casebook.tools.bots_guard`). :class:`GreedyBot` adds
    :func:`~casebook.tools.bots_guard.short_call` to activations (stacks that can bolster a short guard)."""
    side, kind = action.side, action.kind
    if kind == "pass":
        return 0.0
    if kind in ("move", "rail-move", "overrun", "advance", "retreat") and empties(state, action):
        return GUARD_LEAVE
    if kind == "attack":
        return _attack_value(ctx, action)
    if kind in ("move", "rail-move"):
        origin = action.get("stack")
        dest = (action.get("path") or (action.get("to"),))[-1]
        if not origin or not dest:
            return 0.0
        gain = _nearest_objective(state, side, origin) - _nearest_objective(state, side, dest)
        # 6.2F: an overstack must be corrected at the earliest instant
        return (1.5 * gain - 0.25 + (3.0 if _overstacked(state, ctx, origin) else 0.0)
                + (GUARD_SEND if fills(state, action) else 0.0) + (GUARD_CALL if unstacks(state, action) else 0.0)
                + GUARD_BOLSTER * (bolsters(state, action) - weakens(state, action)))
    if kind == "activate-hq":
        stacks = action.get("stacks") or ()
        crowded = crowded_guards(state, side)  # 6.2F: an overstacked guard hex first (its garrison's losses)
        return (1.0 + len(stacks) + 2.0 * sum(_overstacked(state, ctx, h) for h in stacks)
                + guard_call(state, side, stacks) + GUARD_SEND * sum(h in crowded for h in stacks))
    if kind in ("activate-stack", "react"):
        stack = action.get("stack")
        if stack in guard_hexes(state, side) and not _overstacked(state, ctx, stack):
            return -0.1  # the garrison it would wake stays where it is
        return (0.5 + (2.0 if _overstacked(state, ctx, stack) else 0.0)
                + guard_call(state, side, (stack,) if stack else ())
                + (GUARD_SEND if stack in crowded_guards(state, side) else 0.0))
    if kind == "drop":  # above an ordinary placement (1.0): paratroops are worth dropping (15.1)
        where = action.get("hex")
        return 1.2 - 0.01 * min(_nearest_objective(state, side, where), 20) if where else 1.0
    if kind == "place-partisan":
        where = action.get("hex")
        return 0.8 - 0.05 * min(_nearest_objective(state, side, where), 20) if where else 0.3
    if kind == "retreat":  # not into an own guard hex overstacked while another path is open (6.2E)
        return 1.0 - 2.0 * int(action.get("losses") or 0) - (GUARD_CROWD if crowds(state, action) else 0.0)
    if kind == "advance":  # not out of a guard hex's ring below its need
        return 0.5 - GUARD_BOLSTER * advance_weakens(state, action) if action.get("path") else 0.0
    if kind == "negate-fatigue":
        return 0.5 if action.get("negate") and state.data.track("ip", side) >= 6 else -0.5
    if kind == "place-reinforcement" and action.get("hex") in open_guards(state, side) and _places_combat(state, action):
        return 1.0 + GUARD_SEND + GUARD_BOLSTER * bolsters(state, action)  # it garrisons an open guard hex
    if kind == "place-reinforcement":  # into a short guard hex or next to it: per point of the shortfall
        return 1.0 + GUARD_BOLSTER * bolsters(state, action)
    if kind in ("recover", "place-reinforcement", "assign-rp", "rebuild", "build-fort", "raise-guards"):
        return 1.0
    if kind == "overrun":
        return 2.0
    if kind == "support":
        return -0.1 * int(action.get("ips") or 0)
    return -0.1  # force march, hedgehog, breakdown: only when nothing better


def make_bot(kind: str, side: str, seed: int = 0) -> Bot:
    """A bot by kind (``random``, ``greedy`` or ``planner``, :mod:`casebook.tools.planner`);
    ValueError naming the known kinds otherwise."""
    if kind == "planner":
        from casebook.tools.planner import PlannerBot

        return PlannerBot(side, seed)
    if kind == "random":
        return RandomBot(side, seed)
    if kind == "greedy":
        return GreedyBot(side, seed)
    raise ValueError(f"unknown bot {kind!r}: expected one of {', '.join(BOT_KINDS)}")
