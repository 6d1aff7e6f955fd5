"""Stepping through a trace: the position at any event, rebuilt by re-executing the trace.

A :class:`Watch` reads a trace (JSON Lines starting with the ``setup`` event of a play from a
scenario), starts the game its setup names from its seed and applies every recorded ``action``
again, as ``casebook replay`` does, keeping the units, markers and header after each decision.
Event *i* belongs to the decision whose ``action`` event comes last at or before it; the map at
event *i* shows the position once that decision (and the automatic work after it) is done, or the
starting position for the events before the first decision. A trace that does not replay
identically is refused with the first divergence.
"""

from __future__ import annotations

import bisect
from pathlib import Path
from typing import Any

from casebook.tools.web.session import ServeError
from casebook.tools.web.views import event_view, header_view, units_view

__all__ = ["Watch"]


class Watch:
    """A trace opened for stepping: ``events`` (the recorded events), ``index`` (the first event
    of every turn, phase and step), :meth:`at` (event *i* with the position at it)."""

    def __init__(self, path: Path, game: Any = None) -> None:
        from casebook.core.actions import parse_action
        from casebook.core.errors import CasebookError
        from casebook.core.game import Game
        from casebook.core.trace import Trace

        try:
            recorded = Trace.read(path)
        except (CasebookError, ValueError, OSError) as exc:
            raise ServeError(f"{path}: not a trace: {str(exc).splitlines()[0] if str(exc) else exc}") from None
        if len(recorded) == 0 or recorded[0].kind != "setup":
            raise ServeError(f"{path}: the trace does not start with a setup event (a play from a scenario)")
        setup = recorded[0].data
        if game is not None and game.engine.pack.id != setup.get("game"):
            raise ServeError(f"{path}: a trace of {setup.get('game')!r}; this server plays {game.engine.pack.id!r} "
                             f"(serve that game to watch it)")
        try:
            if game is not None:
                game = Game(game.engine, setup["scenario"])
            else:
                game = Game.load(setup["game"], setup["scenario"])
            state = game.new_initial_state(int(setup["seed"]))
        except (CasebookError, KeyError, ValueError, TypeError) as exc:
            raise ServeError(f"{path}: cannot start the game of its setup event: {exc}") from None
        self.path = path
        self.game = game
        self.events = list(recorded)
        self._action_at: list[int] = []  # index in events of each action event
        self._positions: list[dict[str, Any]] = [self._position(state)]
        for i, event in enumerate(self.events):
            if event.kind != "action":
                continue
            try:
                state.apply(parse_action(event.data["action"]))
            except (CasebookError, ValueError, KeyError) as exc:
                raise ServeError(f"{path}: seq {event.seq}: the recorded action was refused on replay: {exc}") from None
            self._action_at.append(i)
            self._positions.append(self._position(state))
        for old, new in zip(self.events, state.trace):
            if old != new:
                raise ServeError(f"{path}: seq {old.seq}: the trace does not replay identically on this game")
        self.index = self._index()

    @staticmethod
    def _position(state: Any) -> dict[str, Any]:
        return {"units": units_view(state.data), "markers": [dict(m) for m in state.data.markers],
                "header": header_view(state)}

    def _index(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        last = None
        for i, e in enumerate(self.events):
            key = (e.turn, e.phase, e.step)
            if key != last:
                out.append({"event": i, "turn": e.turn, "phase": e.phase, "step": e.step})
                last = key
        return out

    def summary(self) -> dict[str, Any]:
        """``{"path", "game", "scenario", "events", "decisions", "index"}``."""
        return {"path": str(self.path), "game": self.game.engine.pack.id, "scenario": self.game.scenario,
                "events": len(self.events), "decisions": len(self._action_at), "index": self.index}

    def at(self, i: int) -> dict[str, Any]:
        """Event ``i`` (0-based, clamped) with its cases, titles and rule lines, and the position
        at it: ``{"i", "count", "event", "decision", "units", "markers", "header"}``."""
        if not self.events:
            raise ServeError("the trace is empty")
        i = max(0, min(int(i), len(self.events) - 1))
        decision = bisect.bisect_right(self._action_at, i)
        pos = self._positions[decision]
        return {"i": i, "count": len(self.events), "decision": decision,
                "event": event_view(self.game.engine.pack, self.events[i]), **pos}
