"""The trace: every state change and dice roll, one JSON object a line (JSON Lines).

An :class:`Event` has stable fields, written in this order:

``seq``
    dense sequence number (0, 1, 2, …) drawn from the state's ``trace_seq`` counter, so a save
    continues the numbering of the game it came from;
``turn``, ``phase``, ``step``
    where in the sequence of play (0.7) the event happened (``phase``/``step`` may be null);
``side``
    the acting side (a side id of the game's vocabulary), ``"chance"`` for dice, or null;
``kind``
    what happened: ``roll``, ``advance``, ``move``, ``attack``, … (free text, lower case);
``cases``
    the case ids that produced it (``["9.6C"]``), possibly empty;
``source``
    who produced it: a plugin function (``casebook.games.<game>.plugins.<module>.<function>``), a rule script
    location (``weather.rules:12``) or a kernel module (``casebook.core.dice``);
``data``
    plain JSON data (mappings, lists, strings, numbers, bools, null). ``data["lines"]``, when
    present, lists the rule-script lines that fired for the event (``[{"source": "x.rules:12",
    "cases": [...]}]``): play's context records them for every plugin
    (:meth:`casebook.script.engine.Ctx.record`), and ``casebook explain`` prints their text.

The trace is replayable: same content + seed + actions gives an identical trace (architecture,
"The trace"). :meth:`Trace.write` then :func:`casebook.content.tracefile.read_trace` (reading and
checking an untrusted trace file is content work) gives back equal events and identical text.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from os import PathLike
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from casebook.core.state import GameState

__all__ = ["Event", "Trace", "FIELDS"]

#: The field names of an event, in the order they are written.
FIELDS: tuple[str, ...] = ("seq", "turn", "phase", "step", "side", "kind", "cases", "source", "data")


@dataclass(frozen=True)
class Event:
    """One trace event (see the module docstring for the meaning of each field).

    ``cases`` is a tuple of case ids; ``data`` a plain JSON-able mapping (not hashed, compared by
    value). :meth:`to_dict` gives the JSON object; :func:`casebook.content.tracefile.event_from_dict`
    is its exact inverse.
    """

    seq: int
    turn: int
    phase: str | None
    step: str | None
    side: str | None
    kind: str
    cases: tuple[str, ...] = ()
    source: str = ""
    data: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        if not isinstance(self.seq, int) or isinstance(self.seq, bool) or self.seq < 0:
            raise ValueError(f"event seq must be an int >= 0, got {self.seq!r}")
        if not self.kind:
            raise ValueError("event kind must be a non-empty string")
        object.__setattr__(self, "cases", tuple(self.cases))
        object.__setattr__(self, "data", dict(self.data))

    def to_dict(self) -> dict[str, Any]:
        """The event as a JSON object with the fields in :data:`FIELDS` order."""
        return {
            "seq": self.seq,
            "turn": self.turn,
            "phase": self.phase,
            "step": self.step,
            "side": self.side,
            "kind": self.kind,
            "cases": list(self.cases),
            "source": self.source,
            "data": self.data,
        }

    def to_json(self) -> str:
        """One JSON Lines line (no newline): compact, fields in order, non-ASCII kept."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))


class Trace:
    """An append-only list of :class:`Event` with dense ``seq`` numbers.

    ``Trace(events)`` checks the numbers are consecutive (the first may be any number >= 0: a trace
    may continue a saved game). :meth:`record` is the usual way to add an event: it takes the
    number, turn, phase, step and (by default) the phasing side from the state.
    """

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self._events: list[Event] = []
        for event in events:
            self.append(event)

    # -- adding -----------------------------------------------------------------------------
    def append(self, event: Event) -> Event:
        """Append ``event``; raises ``ValueError`` unless its seq follows the last one."""
        if self._events and event.seq != self._events[-1].seq + 1:
            raise ValueError(
                f"trace seq not dense: event {event.seq} after {self._events[-1].seq}"
            )
        self._events.append(event)
        return event

    def record(
        self,
        state: GameState,
        kind: str,
        *,
        cases: Sequence[str] = (),
        source: str = "",
        data: Mapping[str, Any] | None = None,
        side: str | None = None,
        use_phasing: bool = True,
    ) -> Event:
        """Append an event stamped from ``state`` (seq drawn with ``state.next_trace_seq()``).

        ``side`` defaults to the state's phasing side (pass ``use_phasing=False`` to leave it null).
        Returns the event.
        """
        if side is None and use_phasing:
            side = state.phasing
        event = Event(
            seq=state.next_trace_seq(), turn=state.turn, phase=state.phase, step=state.step,
            side=side, kind=kind, cases=tuple(cases), source=source, data=dict(data or {}),
        )
        return self.append(event)

    def truncate(self, length: int) -> None:
        """Drop every event after the first ``length`` (used to roll back a failed transaction)."""
        del self._events[length:]

    # -- reading ----------------------------------------------------------------------------
    def __iter__(self) -> Iterator[Event]:
        return iter(self._events)

    def __len__(self) -> int:
        return len(self._events)

    def __getitem__(self, index: int) -> Event:
        return self._events[index]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Trace) and self._events == other._events

    def of_kind(self, kind: str) -> list[Event]:
        """The events of one kind, in order."""
        return [e for e in self._events if e.kind == kind]

    # -- files ------------------------------------------------------------------------------
    def dumps(self) -> str:
        """The whole trace as JSON Lines text (one event a line, each line ending in newline)."""
        return "".join(e.to_json() + "\n" for e in self._events)

    def write(self, target: str | PathLike[str] | IO[str]) -> None:
        """Write the trace as JSON Lines (UTF-8) to a path or an open text file."""
        if isinstance(target, (str, PathLike)):
            with open(target, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(self.dumps())
        else:
            target.write(self.dumps())
