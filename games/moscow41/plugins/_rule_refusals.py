"""Refusals read from the rule scripts' ``forbid`` / ``permit`` lines (Moscow '41 plugins).

Private helper of the movement, supply and command plugins: a check asks the permission of an
action (``games/moscow41/rules/*.rules``) and, when the scripts forbid it, refuses with the cases
of the forbid lines that fired and were not overridden — so a modder who edits or adds a line
changes what is refused and the cases cited, without Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casebook.core.hooks import Refusal

__all__ = ["refusals", "fired_forbids", "memo_allowed", "decided"]


def fired_forbids(verdict: Any) -> list[Any]:
    """The forbid lines of a permission :class:`~casebook.script.explain.Explanation` that fired
    and were not overridden by a permit (the lines that decided a refusal)."""
    return [ln for ln in verdict.lines if ln.fired and ln.kind == "forbid" and not ln.overridden]


def refusals(ctx: Any, action: str, facts: Mapping[str, Any], reason: str | Mapping[str, str],
             source: str) -> list[Refusal]:
    """``[]`` when the scripts allow ``action`` for ``facts``; else one :class:`Refusal` citing
    the cases of the deciding forbid lines. ``reason``: the message, or case -> message (the
    first key, in order, that the first deciding line cites picks it; a line a modder added,
    citing none of them, is quoted with its ``file:line``)."""
    if ctx.allowed(action, facts):
        return []
    fired = fired_forbids(ctx.permission(action, facts))
    cases = tuple(dict.fromkeys(c for ln in fired for c in ln.cases))
    if isinstance(reason, str):
        text = reason
    else:
        first = set(fired[0].cases) if fired else set()
        picked = next((text for case, text in reason.items() if case in first), None)
        text = picked or (f"forbidden: {fired[0].text.strip()} [{fired[0].source}]" if fired else action)
    return [Refusal(text, cases, source=source)]


def memo_allowed(ctx: Any, action: str, facts: Mapping[str, Any]) -> bool:
    """:meth:`ctx.allowed`, kept per state version (``ctx.memo``) by the facts given — for a
    permission asked for many units with few distinct facts (every stack of a side)."""
    key = ("rules.allowed", action, tuple(sorted(facts.items())))
    memo = ctx.memo
    found = memo.get(key)
    if found is None:
        found = memo[key] = ctx.allowed(action, facts)
    return bool(found)


def decided(ctx: Any, quantity: str, facts: Mapping[str, Any]) -> tuple[Any, list[str]]:
    """``(value, cases)`` of a ``first`` quantity: its value and the cases of the line that
    decided it (the first term that fired, else the ``otherwise`` line)."""
    e = ctx.quantity(quantity, facts)
    term = next((ln for ln in e.lines if ln.kind == "term" and ln.fired), None)
    start = next((ln for ln in e.lines if ln.kind == "start"), None)
    line = term or start
    return e.value, list(line.cases) if line is not None else list(e.cases)
