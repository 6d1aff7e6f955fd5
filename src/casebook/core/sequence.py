"""The phase/step machine, driven by a game's sequence of play (content ``kind: sequence``).

A :class:`Sequence` is the loaded ``sequence.yaml`` (read by
:func:`casebook.content.sequence_data.sequence_from_dict`): phases in order, each with a ``side`` (``none``,
``first`` or ``second`` — who is the phasing player), its steps, and loops (repeat steps
``from``..``to`` until the phasing player passes). The kernel knows no game: a game's
Sequence of Play is only data in its pack's ``sequence.yaml``.

A :class:`SequenceMachine` walks a :class:`~casebook.core.state.GameState` through it. The
position lives in the state (``turn``, ``phase``, ``step``, ``phasing``), so a save resumes
exactly where it stopped. :meth:`SequenceMachine.advance` moves one step on:

- within a phase, to the next step;
- at the last step of a loop (``to``), back to its first step (``from``) — the loop repeats;
- ``advance(passed=True)`` at the *first* step of a loop means the phasing player passes
  (e.g. 0.7.3.6): the loop ends and play goes to the step after the loop's last step, skipping
  the rest of that iteration (reading: nothing was activated, so there is nothing to move,
  attack or react to — ``reconstructed: reading of 0.7.3.6``). Elsewhere ``passed`` just ends the
  step (a step the player chooses to skip);
- after a phase's last step, to the next phase's first step; the phasing side is resolved from
  the state (``first`` → ``state.first_player``, ``second`` → the other side, ``none`` → None);
- after the last step of the last phase, the turn advances (``turn + 1``) and play starts again
  at the first phase (the end-of-turn work itself belongs to plugins, ``casebook_turn_end``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from casebook.core.errors import PositionError, Problem

if TYPE_CHECKING:  # pragma: no cover
    from casebook.core.state import GameState
    from casebook.core.trace import Trace

__all__ = ["Step", "Loop", "Phase", "Sequence", "SequenceMachine", "SIDES"]

#: Values of a phase's ``side``.
SIDES = ("none", "first", "second")


@dataclass(frozen=True)
class Step:
    """One step: ``id`` (unique within its phase), the ``case`` it implements, a display ``name``."""

    id: str
    case: str
    name: str | None = None


@dataclass(frozen=True)
class Loop:
    """Steps ``start``..``end`` (ids, inclusive) repeat until the phasing player passes (``case``)."""

    start: str
    end: str
    case: str


@dataclass(frozen=True)
class Phase:
    """One phase: ``side`` is ``none``, ``first`` or ``second`` (the phasing player)."""

    id: str
    case: str
    side: str
    steps: tuple[Step, ...]
    loops: tuple[Loop, ...] = ()
    name: str | None = None

    def index(self, step_id: str) -> int:
        """Position of ``step_id`` in this phase; ``KeyError`` if it is not a step of it."""
        for i, s in enumerate(self.steps):
            if s.id == step_id:
                return i
        raise KeyError(f"{step_id!r} is not a step of phase {self.id!r}")

    def loop_starting(self, step_id: str) -> Loop | None:
        return next((lp for lp in self.loops if lp.start == step_id), None)

    def loop_ending(self, step_id: str) -> Loop | None:
        return next((lp for lp in self.loops if lp.end == step_id), None)


@dataclass(frozen=True)
class Sequence:
    """A game's sequence of play: phases in order (see the module docstring)."""

    phases: tuple[Phase, ...]
    provenance: str | None = None

    def phase(self, phase_id: str) -> Phase:
        """The phase ``phase_id``; ``KeyError`` if unknown."""
        for p in self.phases:
            if p.id == phase_id:
                return p
        raise KeyError(f"no phase {phase_id!r} in the sequence of play")

    def walk(self) -> Iterator[tuple[Phase, Step]]:
        """Every (phase, step) once, in order, loops not repeated."""
        for p in self.phases:
            for s in p.steps:
                yield p, s


class SequenceMachine:
    """Walks ``state`` through ``sequence`` (see the module docstring).

    ``sides`` are the two sides of the game (default: ``state.sides``). If the state has no phase
    yet it is put at the first step of the first phase; a missing ``step`` is the phase's first
    step; a missing ``phasing`` is resolved from the phase's side. A phase/step the sequence does
    not know, or a ``phasing`` contradicting the first player, is a :class:`PositionError`.
    """

    SOURCE = "sequence"

    def __init__(self, sequence: Sequence, state: GameState,
                 sides: tuple[str, str] | None = None) -> None:
        self.sequence = sequence
        self.state = state
        self._sides = sides
        if state.phase is None:
            first = sequence.phases[0]
            state.set_sequence_position(first.id, first.steps[0].id, self.phasing_for(first))
            return
        try:
            phase = sequence.phase(state.phase)
            phase.index(state.step if state.step is not None else phase.steps[0].id)
        except KeyError as exc:
            raise PositionError([Problem("<position>", 0, 0, "phase", str(exc.args[0]))]) from None
        step = state.step if state.step is not None else phase.steps[0].id
        expected = None if phase.side != "none" and state.first_player is None else self.phasing_for(phase)
        if state.phasing is not None and expected is not None and state.phasing != expected:
            raise PositionError([Problem("<position>", 0, 0, "phasing",
                                         f"phase {phase.id!r} is played by the {phase.side} player "
                                         f"({expected}), not {state.phasing}")])
        state.set_sequence_position(phase.id, step, state.phasing if expected is None else expected)

    @property
    def current(self) -> tuple[Phase, Step]:
        """The current (phase, step)."""
        phase = self.sequence.phase(self.state.phase)
        return phase, phase.steps[phase.index(self.state.step)]

    def phasing_for(self, phase: Phase) -> str | None:
        """The phasing side in ``phase``: ``first`` → the state's first player, ``second`` → the
        other side, ``none`` → None. ``ValueError`` if the first player is not determined yet."""
        if phase.side == "none":
            return None
        first = self.state.first_player
        if first is None:
            raise ValueError(f"phase {phase.id!r} needs the first player, but none is set")
        if phase.side == "first":
            return first
        if self._sides is not None:
            a, b = self._sides
            return b if first == a else a
        return self.state.other_side(first)

    def advance(self, passed: bool = False, trace: Trace | None = None) -> tuple[Phase, Step]:
        """Move to the next step (see the module docstring) and return the new (phase, step).

        ``passed``: the decider passed in this step (ends a loop at the loop's first step).
        If ``trace`` is given an ``advance`` event is recorded after the move, citing the new
        step's case (and the loop's case when a loop repeats or ends), with
        ``data = {"from": [phase, step], "to": [phase, step], "passed": bool}``.
        """
        phase, step = self.current
        origin = [phase.id, step.id]
        i = phase.index(step.id)
        cases: list[str] = []
        start, end = phase.loop_starting(step.id), phase.loop_ending(step.id)
        if passed and start is not None:
            target = phase.index(start.end) + 1
            cases.append(start.case)
        elif end is not None and not passed:
            target = phase.index(end.start)
            cases.append(end.case)
        else:
            target = i + 1
        if target < len(phase.steps):
            new_phase, new_step = phase, phase.steps[target]
        else:
            k = self.sequence.phases.index(phase) + 1
            if k == len(self.sequence.phases):
                self.state.set_turn(self.state.turn + 1)
                k = 0
            new_phase = self.sequence.phases[k]
            new_step = new_phase.steps[0]
        self.state.set_sequence_position(new_phase.id, new_step.id, self.phasing_for(new_phase))
        if trace is not None:
            trace.record(self.state, "advance", cases=[new_step.case, *cases], source=self.SOURCE,
                         data={"from": origin, "to": [new_phase.id, new_step.id], "passed": passed})
        return new_phase, new_step

    def position(self) -> dict[str, Any]:
        """Where the game is, as plain data: turn, phase, step, their cases, the phase's side
        (first/second/none), the phasing side and the loop the step is in (or None)."""
        phase, step = self.current
        i = phase.index(step.id)
        loop = next((lp for lp in phase.loops
                     if phase.index(lp.start) <= i <= phase.index(lp.end)), None)
        return {
            "turn": self.state.turn, "phase": phase.id, "step": step.id,
            "phase_case": phase.case, "step_case": step.case, "side": phase.side,
            "phasing": self.state.phasing,
            "loop": None if loop is None else {"from": loop.start, "to": loop.end, "case": loop.case},
        }
