"""The standing pass ``pass until=loop``: a side passes, now and at every later step of the same
repetition loop where it would decide, until the loop ends.

In a loop of steps (a game's steps that repeat until the phasing player passes), a
side that decides some steps of the loop but not its first (the non-phasing player's Reaction
Movement and Reaction Attacks, 0.7.3.4-0.7.3.5) is asked again at every repetition. Its choice
to react at all is free ("can spend IPs … as desired"), so one standing pass is the same play as
a plain ``pass`` at each of those steps: the driver records each as an ``auto-pass`` with
``"standing": true``. It covers only steps where a plain ``pass`` is listed (a pending combat
decision of the same side, such as its support as defender, is still asked), and lapses when
play leaves the loop (the loop ends, the phase or the turn changes).

The kernel names no game: the loop and its case come from the game's sequence of play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from casebook.core.actions import Action
from casebook.core.templates import ActionTemplate

__all__ = ["UNTIL", "enclosing_loop", "offer", "standing_record", "covers", "lapsed"]

#: The value of ``until`` in the standing pass ``pass until=loop``.
UNTIL = "loop"


def enclosing_loop(phase: Any, step_id: str) -> Any:
    """The loop of ``phase`` whose steps (inclusive) hold ``step_id``, or None."""
    ids = [s.id for s in phase.steps]
    for loop in phase.loops:
        if ids.index(loop.start) <= ids.index(step_id) <= ids.index(loop.end):
            return loop
    return None


def _loop_steps(phase: Any, loop: Any) -> list[str]:
    ids = [s.id for s in phase.steps]
    return ids[ids.index(loop.start):ids.index(loop.end) + 1]


def offer(phase: Any, step: Any, side: str | None, legal: Sequence[Action]) -> ActionTemplate | None:
    """The standing pass offered to ``side`` now: in a step of a loop other than its first
    (where passing would end the loop itself), when a plain ``pass`` is legal; else None."""
    if not side:
        return None
    loop = enclosing_loop(phase, step.id)
    if loop is None or loop.start == step.id or Action.make("pass", side) not in legal:
        return None
    example = Action.make("pass", side, until=UNTIL)
    return ActionTemplate.of(example, {}, (step.case, loop.case))


def standing_record(phase: Any, step: Any, side: str, turn: int) -> dict[str, Any]:
    """The driver's note of a standing pass taken by ``side`` in ``step``: where it holds."""
    loop = enclosing_loop(phase, step.id)
    return {"side": side, "turn": turn, "phase": phase.id, "steps": _loop_steps(phase, loop),
            "cases": [step.case, loop.case]}


def covers(record: Mapping[str, Any] | None, phase: Any, step: Any, side: str | None, turn: int,
           legal: Sequence[Action]) -> bool:
    """Whether the standing pass ``record`` passes for ``side`` in ``step`` now (a plain ``pass``
    listed among ``legal``)."""
    if not record or not side or record.get("side") != side:
        return False
    if lapsed(record, phase, step, turn) or step.id == record["steps"][0]:
        return False
    return Action.make("pass", side) in legal


def lapsed(record: Mapping[str, Any] | None, phase: Any, step: Any, turn: int) -> bool:
    """Whether play has left the loop the standing pass ``record`` was taken in."""
    if not record:
        return True
    return record.get("turn") != turn or record.get("phase") != phase.id or step.id not in record.get("steps", ())
