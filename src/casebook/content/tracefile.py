"""Reading and checking a trace file (JSON Lines, one :class:`~casebook.core.trace.Event` a line).

A trace file is untrusted input (a shared replay, a save's trace): :func:`read_trace` refuses it
whole with one :class:`TraceError` ``file:line: what`` for the first line that is not a valid
event (missing, unknown or wrongly typed fields; a line over :data:`MAX_LINE` characters; JSON
nested too deeply; not UTF-8) or that breaks the dense ``seq`` numbering. The core's
:class:`~casebook.core.trace.Trace` only writes (``write``/``dumps``); ``read_trace(path)`` after
``trace.write(path)`` gives back equal events and identical text.
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from os import PathLike
from typing import IO, Any

from casebook.core.errors import CasebookError
from casebook.core.trace import FIELDS, Event, Trace

__all__ = ["read_trace", "loads_trace", "event_from_dict", "TraceError", "MAX_LINE"]

#: Longest line read from a trace file (characters): an event is a few hundred.
MAX_LINE = 1 << 20


class TraceError(CasebookError, ValueError):
    """A trace file that is not a valid trace: ``file:line: what`` (a ValueError too, for callers
    that caught the bare ValueError before)."""


def event_from_dict(d: Mapping[str, Any]) -> Event:
    """Build an event from a JSON object; raises ``ValueError`` naming missing or unknown
    fields and every field of the wrong type (``seq``/``turn`` ints, ``phase``/``step``/
    ``side`` text or null, ``kind``/``source`` text, ``cases`` a list of text, ``data`` an
    object). The exact inverse of :meth:`Event.to_dict`."""
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
    return Event(
        seq=d["seq"], turn=d["turn"], phase=d["phase"], step=d["step"], side=d["side"],
        kind=d["kind"], cases=tuple(d["cases"]), source=d["source"], data=d["data"],
    )


def loads_trace(text: str, *, name: str = "<trace>") -> Trace:
    """Parse JSON Lines text; blank lines are skipped; errors name ``name:line``."""
    return read_trace(io.StringIO(text), name=name)


def read_trace(source: str | PathLike[str] | IO[str], *, name: str | None = None) -> Trace:
    """Read a trace from a path or an open text file.

    Raises :class:`TraceError` with ``file:line`` for a line that is not a valid event or breaks
    the dense numbering.
    """
    if isinstance(source, (str, PathLike)):
        with open(source, encoding="utf-8") as fh:
            return read_trace(fh, name=name or str(source))
    label = name or getattr(source, "name", "<trace>")
    trace = Trace()
    lineno = 0
    try:
        for line in source:
            lineno += 1
            if not line.strip():
                continue
            if len(line) > MAX_LINE:
                raise ValueError(f"line longer than {MAX_LINE} characters")
            trace.append(event_from_dict(json.loads(line)))
    except RecursionError:
        raise TraceError(f"{label}:{lineno}: JSON nested too deeply") from None
    except (ValueError, TypeError, KeyError) as exc:  # UnicodeDecodeError is a ValueError
        raise TraceError(f"{label}:{lineno or 1}: {_short(exc)}") from None
    return trace


def _short(exc: Exception) -> str:
    """A one-line message for a reading error (``json`` errors keep their line/column)."""
    text = str(exc).replace("\n", " ")
    return text if len(text) <= 300 else text[:300] + "…"


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
