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
"The trace"). :meth:`Trace.write` then :meth:`Trace.read` gives back equal events and identical text.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from os import PathLike
from typing import IO, TYPE_CHECKING, Any

from casebook.core.errors import CasebookError

if TYPE_CHECKING:  # pragma: no cover
    from casebook.core.state import GameState

__all__ = ["Event", "Trace", "TraceError", "FIELDS", "MAX_LINE"]

#: The field names of an event, in the order they are written.
FIELDS: tuple[str, ...] = ("seq", "turn", "phase", "step", "side", "kind", "cases", "source", "data")


@dataclass(frozen=True)
class Event:
    """One trace event (see the module docstring for the meaning of each field).

    ``cases`` is a tuple of case ids; ``data`` a plain JSON-able mapping (not hashed, compared by
    value). Build from a JSON object with :meth:`from_dict`; :meth:`to_dict` is its exact inverse.
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

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Event:
        """Build an event from a JSON object; raises ``ValueError`` naming missing or unknown
        fields and every field of the wrong type (``seq``/``turn`` ints, ``phase``/``step``/
        ``side`` text or null, ``kind``/``source`` text, ``cases`` a list of text, ``data`` an
        object)."""
        if not isinstance(d, Mapping):
            raise ValueError(f"a trace event is a JSON object, got {type(d).__name__}")
        missing = [k for k in FIELDS if k not in d]
        unknown = sorted(map(str, set(d) - set(FIELDS)))
        if missing or unknown:
            raise ValueError(f"trace event: missing fields {missing}, unknown fields {unknown}")
        wrong = [name for name, ok in _FIELD_CHECKS.items() if not ok(d[name])]
        if wrong:
            raise ValueError("trace event: wrong type for " + ", ".join(
                f"{name} ({_FIELD_WANTS[name]}, got {json.dumps(d[name])[:40]})" for name in wrong))
        return cls(
            seq=d["seq"], turn=d["turn"], phase=d["phase"], step=d["step"], side=d["side"],
            kind=d["kind"], cases=tuple(d["cases"]), source=d["source"], data=d["data"],
        )

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

    @classmethod
    def loads(cls, text: str, *, name: str = "<trace>") -> Trace:
        """Parse JSON Lines text; blank lines are skipped; errors name ``name:line``."""
        return cls.read(io.StringIO(text), name=name)

    @classmethod
    def read(cls, source: str | PathLike[str] | IO[str], *, name: str | None = None) -> Trace:
        """Read a trace from a path or an open text file.

        Raises ``ValueError`` with ``file:line`` for a line that is not a valid event or breaks the
        dense numbering.
        """
        if isinstance(source, (str, PathLike)):
            with open(source, encoding="utf-8") as fh:
                return cls.read(fh, name=name or str(source))
        label = name or getattr(source, "name", "<trace>")
        trace = cls()
        lineno = 0
        try:
            for line in source:
                lineno += 1
                if not line.strip():
                    continue
                if len(line) > MAX_LINE:
                    raise ValueError(f"line longer than {MAX_LINE} characters")
                trace.append(Event.from_dict(json.loads(line)))
        except RecursionError:
            raise TraceError(f"{label}:{lineno}: JSON nested too deeply") from None
        except (ValueError, TypeError, KeyError) as exc:  # UnicodeDecodeError is a ValueError
            raise TraceError(f"{label}:{lineno or 1}: {_short(exc)}") from None
        return trace


def _short(exc: Exception) -> str:
    """A one-line message for a reading error (``json`` errors keep their line/column)."""
    text = str(exc).replace("\n", " ")
    return text if len(text) <= 300 else text[:300] + "…"


class TraceError(CasebookError, ValueError):
    """A trace file that is not a valid trace: ``file:line: what`` (a ValueError too, for callers
    that caught the bare ValueError before)."""


#: Longest line read from a trace file (characters): an event is a few hundred.
MAX_LINE = 1 << 20


def _text_or_null(v: Any) -> bool:
    return v is None or isinstance(v, str)


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


_FIELD_CHECKS = {
    "seq": lambda v: _int(v) and v >= 0, "turn": _int, "phase": _text_or_null, "step": _text_or_null,
    "side": _text_or_null, "kind": lambda v: isinstance(v, str) and v != "",
    "cases": lambda v: isinstance(v, list) and all(isinstance(c, str) for c in v),
    "source": lambda v: isinstance(v, str), "data": lambda v: isinstance(v, dict),
}
_FIELD_WANTS = {"seq": "an int >= 0", "turn": "an int", "phase": "text or null", "step": "text or null",
                "side": "text or null", "kind": "non-empty text", "cases": "a list of case ids",
                "source": "text", "data": "an object"}
