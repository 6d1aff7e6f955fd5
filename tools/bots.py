"""Bots: players that choose among a :class:`~casebook.kernel.game.State`'s legal actions.

- :class:`RandomBot` — seeded, uniform over the legal actions.
- :class:`GreedyBot` — a one-ply heuristic: it tries each candidate action on a clone of the
  state and keeps the one whose resulting position scores best for its side (:func:`score`):
  objectives held (towns' IP values, Moscow hexes, the scenario's victory towns), enemy strength
  destroyed and own strength kept, closeness of its combat units to the enemy's objectives, and
  the game result when an action ends the game. Candidates are capped (``max_candidates``) by a
  cheap ordering so a large Movement Step stays fast; ties break by the legal-action order, so
  the bot is deterministic.

Bots use only the public game API; they know no rule beyond what :func:`score` reads from the
state and the pack.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from casebook.kernel.actions import Action
from casebook.kernel.hexgrid import hex_label, parse_hex

__all__ = ["Bot", "RandomBot", "GreedyBot", "make_bot", "score", "BOT_KINDS"]

BOT_KINDS = ("random", "greedy")


class Bot(Protocol):
    """A player: ``choose(state) -> Action`` among ``state.legal_actions()``."""

    side: str

    def choose(self, state: Any) -> Action: ...


class RandomBot:
    """Uniform over the legal actions; ``seed`` makes it repeatable."""

    def __init__(self, side: str, seed: int = 0) -> None:
        self.side = side
        self._rng = random.Random(f"{side}:{seed}")

    def choose(self, state: Any) -> Action:
        actions = state.legal_actions()
        return actions[self._rng.randrange(len(actions))]


def _strength(unit: dict[str, Any]) -> float:
    losses = int(unit.get("losses") or 0)
    return max(0.0, float(unit.get("strength") or 0) - 0.5 * losses)


def _objectives(state: Any) -> dict[str, float]:
    """Hex label -> value of holding it: a town's IP value, +5 for a Moscow hex (cached per game)."""
    cache = state.game.__dict__.setdefault("_bot_objectives", {})
    board = state.game.engine.board_for(state.data)
    key = id(board)
    if key not in cache:
        values = {hex_label(h): float(t.get("ip") or 1) for h, t in board.towns().items()}
        for h in board.moscow:
            values[hex_label(h)] = values.get(hex_label(h), 1.0) + 5.0
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
    """One-ply greedy over at most ``max_candidates`` actions (see the module docstring)."""

    def __init__(self, side: str, seed: int = 0, max_candidates: int = 12) -> None:
        self.side = side
        self.max_candidates = max_candidates
        self._rng = random.Random(f"greedy:{side}:{seed}")

    def _candidates(self, actions: list[Action]) -> list[Action]:
        if len(actions) <= self.max_candidates:
            return actions
        passes = [a for a in actions if a.kind == "pass"]
        others = [a for a in actions if a.kind != "pass"]
        picked = self._rng.sample(others, self.max_candidates - len(passes))
        keep = set(picked) | set(passes)
        return [a for a in actions if a in keep]

    def choose(self, state: Any) -> Action:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        best, best_value = actions[0], float("-inf")
        for action in self._candidates(actions):
            try:
                trial = state.peek(action)
            except Exception:  # an action the rules refuse on application: skip it
                continue
            value = score(trial, self.side)
            if action.kind == "pass":
                value -= 0.01  # prefer doing something when it is as good
            if value > best_value:
                best, best_value = action, value
        return best


def make_bot(kind: str, side: str, seed: int = 0) -> Bot:
    """A bot by kind (``random`` or ``greedy``); ValueError naming the known kinds otherwise."""
    if kind == "random":
        return RandomBot(side, seed)
    if kind == "greedy":
        return GreedyBot(side, seed)
    raise ValueError(f"unknown bot {kind!r}: expected one of {', '.join(BOT_KINDS)}")
