"""Stepping through a trace: the position at any event, rebuilt by re-executing the trace.

A :class:`Watch` reads a trace (JSON Lines starting with the ``setup`` event of a play from a
scenario), starts the game its setup names from its seed and applies every recorded ``action``
again, as ``casebook replay`` does, keeping the units, markers and header after each decision —
lazily: opening a trace only reads it, and a step replays the decisions up to it not replayed yet
(a 2,800-event trace took about 15 s to open, replayed whole first).
Event *i* belongs to the decision whose ``action`` event comes last at or before it; the map at
event *i* shows the position once that decision (and the automatic work after it) is done, or the
starting position for the events before the first decision. A trace that does not replay
identically is refused with the first divergence, at the first step that reaches it.
"""

from __future__ import annotations

import bisect
import threading
from pathlib import Path
from typing import Any

from casebook.tools.web.session import ServeError
from casebook.tools.web.views import event_view, header_view, units_view

__all__ = ["Watch"]


class Watch:
    """A trace opened for stepping: ``events`` (the recorded events), ``index`` (the first event
    of every turn, phase and step), :meth:`at` (event *i* with the position at it)."""

    def __init__(self, path: Path, game: Any = None) -> None:
        from casebook.content.tracefile import read_trace
        from casebook.core.errors import CasebookError
        from casebook.core.game import Game

        try:
            recorded = read_trace(path)
        except (CasebookError, ValueError, OSError) as exc:
            raise ServeError(f"{path}: not a trace: {str(exc).splitlines()[0] if str(exc) else exc}") from None
        if len(recorded) == 0 or recorded[0].kind != "setup":
            raise ServeError(f"{path}: the trace does not start with a setup event (a play from a scenario)")
        setup = recorded[0].data
        if game is not None and game.engine.pack.id != setup.get("game"):
            raise ServeError(f"{path}: a trace of {setup.get('game')!r}; this server plays {game.engine.pack.id!r} "
                             f"(serve that game to watch it)")
        from casebook.tools.saves import asked_passes, initial_state

        try:  # as replay starts it: its seed and rolls, or the position it holds; its people asked
            if game is not None:
                game = Game(game.engine, setup["scenario"] or next(iter(game.engine.pack.scenarios), ""))
            else:
                game = Game.load(setup["game"], setup["scenario"])
            state = initial_state(game, recorded[0], humans=setup.get("humans") or ())
            asked_passes(state, recorded)
        except (CasebookError, KeyError, ValueError, TypeError) as exc:
            raise ServeError(f"{path}: cannot start the game of its setup event: {exc}") from None
        self.path = path
        self.game = game
        self.events = list(recorded)
        self._action_at = [i for i, e in enumerate(self.events) if e.kind == "action"]  # each decision's event
        self._state = state  # replayed as far as a view has asked (never further)
        self._positions: list[dict[str, Any]] = [self._position(state)]
        self._checked = 0  # events compared with the replay so far
        self._lock = threading.Lock()  # one replay at a time (requests run in a thread pool)
        self.index = self._index()

    def _replay_to(self, decision: int) -> None:
        """Apply the recorded decisions up to number ``decision`` (1-based; 0 = the start), keeping
        the position after each, and compare the events replayed so far with the recorded ones.
        Opening a trace costs nothing; each step costs only the decisions not yet replayed."""
        from casebook.core.actions import parse_action
        from casebook.core.errors import CasebookError
        from casebook.tools.saves import asked_passes

        state = self._state
        while len(self._positions) <= decision:
            event = self.events[self._action_at[len(self._positions) - 1]]
            try:
                state.apply(parse_action(event.data["action"]))
            except (CasebookError, ValueError, KeyError) as exc:
                raise ServeError(f"{self.path}: seq {event.seq}: the recorded action was refused on replay: {exc}") from None
            asked_passes(state, self.events)  # a person's pass where a template asked them
            self._positions.append(self._position(state))
        upto = min(len(state.trace), len(self.events))
        for i in range(self._checked, upto):
            if self.events[i] != state.trace[i]:
                raise ServeError(f"{self.path}: seq {self.events[i].seq}: the trace does not replay identically on this game")
        self._checked = upto

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
        with self._lock:
            self._replay_to(decision)
        pos = self._positions[decision]
        return {"i": i, "count": len(self.events), "decision": decision,
                "event": event_view(self.game.engine.pack, self.events[i]), **pos}
