"""A readable turn-by-turn account of a play, written from its trace events.

:func:`narrate` turns one :class:`~casebook.core.trace.Event` into zero or more lines: turn
headers, weather, IPs, activations, moves, attacks with odds/DRM/result, losses, control changes,
VPs — whatever the plugins record, with the cases cited. Bookkeeping events (step advances,
automatic passes) are left out. The account is a view of the trace; the trace is the record.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from casebook.core.trace import Event

__all__ = ["narrate", "narrate_all", "QUIET_KINDS"]

#: Event kinds left out of the account (bookkeeping).
QUIET_KINDS = frozenset({"advance", "auto-pass", "setup"})

_SKIP_KEYS = frozenset({"terms", "explanation", "lines", "path_steps", "outcomes", "transitions",
                        "combat", "support"})


def _value(v: Any, depth: int = 0) -> str:
    """A compact, readable rendering: lists comma-joined (long ones cut with a count), mappings
    as ``key value`` pairs in parentheses, nested ones summarised."""
    if isinstance(v, (list, tuple)):
        items = [_value(x, depth + 1) for x in v[:8]]
        more = f", … ({len(v)} in all)" if len(v) > 8 else ""
        return ", ".join(items) + more
    if isinstance(v, dict):
        if depth > 1:
            return "{…}"
        inner = " ".join(f"{k} {_value(x, depth + 1)}" for k, x in v.items()
                         if k not in _SKIP_KEYS and k != "cases" and x not in (None, "", [], {}))
        return f"({inner})"
    return str(v)


def _summary(data: dict[str, Any]) -> str:
    parts = [f"{k} {_value(v)}" for k, v in data.items() if k not in _SKIP_KEYS and v not in (None, "", [], {})]
    return "; ".join(parts)


def narrate(event: Event, last_turn: int | None = None) -> list[str]:
    """Lines of the account for ``event`` (a turn header first when the turn changed)."""
    lines: list[str] = []
    if last_turn is not None and event.turn != last_turn:
        lines.append(f"\n=== Turn {event.turn} ===")
    if event.kind in QUIET_KINDS:
        return lines
    cases = f"  [{', '.join(event.cases)}]" if event.cases else ""
    who = f"{event.side}: " if event.side and event.kind != "action" else ""
    data = dict(event.data)
    if event.kind == "action":
        text = f"  {data.get('action', '')}"
    elif event.kind == "roll":
        text = f"  {who}rolls {data.get('total')} for {data.get('purpose', '?')}"
    elif event.kind == "game-over":
        winner = data.get("winner") or "nobody"
        text = f"\n*** Game over: {winner} wins ({data.get('level')}) — {data.get('reason', '')}"
    else:
        summary = _summary(data)
        text = f"  {who}{event.kind}" + (f": {summary}" if summary else "")
    lines.append(text + cases)
    return lines


def narrate_all(events: Iterable[Event]) -> list[str]:
    """The account of a whole trace."""
    out: list[str] = []
    turn = None
    for event in events:
        out += narrate(event, turn if turn is not None else -1)
        turn = event.turn
    return out
