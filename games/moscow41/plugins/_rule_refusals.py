"""Refusals read from the rule scripts' ``forbid`` / ``permit`` lines (Moscow '41 plugins).

Private helper of the movement, supply and command plugins (``memo_allowed`` and ``decided``,
re-exported, are the shared results area's): a check asks the permission of an action
(``games/moscow41/rules/*.rules``) and, when the scripts forbid it, refuses with the cases of
the forbid lines that fired and were not overridden — so a modder who edits or adds a line
changes what is refused and the cases cited, without Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casebook.areas._results_losses import decided
from casebook.areas._results_retreat import memo_allowed
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
    citing none of them, reads in words with its ``file:line``: ``RuleSet.forbid_reason``)."""
    if ctx.allowed(action, facts):
        return []
    fired = fired_forbids(ctx.permission(action, facts))
    cases = tuple(dict.fromkeys(c for ln in fired for c in ln.cases))
    if isinstance(reason, str):
        text = reason
    else:
        first = set(fired[0].cases) if fired else set()
        picked = next((text for case, text in reason.items() if case in first), None)
        text = picked or (ctx.rules.forbid_reason(fired[0], action) if fired else action)
    return [Refusal(text, cases, source=source)]
