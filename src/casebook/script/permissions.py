"""Compiled permissions: every ``forbid``/``permit`` line of one action, its verdict fast or explained.

A permission is allowed unless a ``forbid`` line fires that no firing ``permit`` line overrides.
A ``permit`` overrides exactly the ``forbid`` lines of its action that cite one of its cases — its
``by`` cases or its ``over`` cases (``permit move by 9.6A over 9.8B``: 9.6A is the exception to
9.8B). The lines that decided a verdict (docs/rule-language.md, "Which lines fired"): a refusal's
``forbid`` lines that took effect; an allowed action's ``permit`` lines that fired.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .explain import Explanation, Line
from .values import Env, Fn

if TYPE_CHECKING:
    from .quantities import RuleCode

__all__ = ["PermissionCode", "overrides"]


@dataclass(frozen=True)
class PermissionCode:
    """All ``forbid``/``permit`` lines of one action kind, in script order.

    ``overridden_by[i]``: for forbid line ``i``, the indices of the permit lines that override it
    (they cite one of its cases, by ``by`` or ``over``); empty for permit lines."""

    action: str
    lines: tuple[tuple[str, RuleCode, Fn | None], ...]  # (verdict, code, condition)
    overridden_by: tuple[tuple[int, ...], ...] = field(default=(), compare=False)
    #: (forbid condition, conditions of the permits overriding it), for :meth:`allowed_in`
    _forbids: tuple[tuple[Fn | None, tuple[Fn | None, ...]], ...] = field(
        default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.overridden_by) != len(self.lines):
            object.__setattr__(self, "overridden_by", overrides(self.lines))
        forbids = tuple((cond, tuple(self.lines[j][2] for j in self.overridden_by[i]))
                        for i, (verdict, _, cond) in enumerate(self.lines) if verdict == "forbid")
        object.__setattr__(self, "_forbids", forbids)

    def unless_clear_in(self, env: Env) -> Explanation | None:
        """:meth:`explain_in`, or ``None`` when no line fires (the action is allowed and the
        explanation would name no line). Every condition is evaluated either way."""
        fired = [cond is None or bool(cond(env, None)) for _, _, cond in self.lines]
        return self.explain_in(env, fired) if any(fired) else None

    def allowed_in(self, env: Env) -> bool:
        """Allowed: no forbid line fires unless a permit overriding it fires too (fast path)."""
        for cond, by in self._forbids:
            if cond is None or cond(env, None):
                for c in by:
                    if c is None or c(env, None):
                        break
                else:
                    return False
        return True

    def allowed_noting(self, env: Env, into: list[dict[str, Any]], entry: Callable[[RuleCode], dict[str, Any]]) -> bool:
        """:meth:`allowed_in`'s verdict, and into each dict of ``into`` (``source`` -> ``entry(line)``)
        the lines that decided it (:meth:`Explanation.deciding`): a refusal's forbid lines that took
        effect, an allowed action's permits that fired — in line order, the lines a dict already
        holds left as they are. A line's condition is evaluated only while some dict lacks it:
        asked of many fact sets (a map's hexes), the explanation costs once per line rather than
        once per fact set."""
        fired: dict[int, bool] = {}

        def fire(i: int) -> bool:
            if i not in fired:
                cond = self.lines[i][2]
                fired[i] = cond is None or bool(cond(env, None))
            return fired[i]

        allowed = self.allowed_in(env)
        deciding = "permit" if allowed else "forbid"
        for i, (verdict, c, _) in enumerate(self.lines):
            missing = [d for d in into if c.source not in d]
            if not missing or not fire(i) or verdict != deciding:  # (evaluated as explain_in does)
                continue
            if verdict == "forbid" and any(fire(j) for j in self.overridden_by[i]):
                continue  # overridden: it forbids nothing
            for d in missing:
                d[c.source] = entry(c)
        return allowed

    def explain_in(self, env: Env, fired: list[bool] | None = None) -> Explanation:
        if fired is None:  # whether each line's condition holds (given: already evaluated)
            fired = [cond is None or bool(cond(env, None)) for _, _, cond in self.lines]
        out = []
        allowed = True
        used: set[int] = set()
        for i, (verdict, c, _) in enumerate(self.lines):
            note = ""
            if verdict == "forbid" and fired[i]:
                by = [j for j in self.overridden_by[i] if fired[j]]
                if by:
                    used.update(by)
                    note = "overridden by " + ", ".join(self.lines[j][1].source for j in by)
                else:
                    allowed = False
            out.append(Line(verdict, c.cases, c.source, c.text, fired[i], note=note, overridden=bool(note)))
        for j in used:
            out[j] = replace(out[j], note="an exception to " + ", ".join(
                self.lines[i][1].source for i, js in enumerate(self.overridden_by) if j in js and fired[i]))
        return Explanation(self.action, "permission", "permission", allowed, tuple(out))


def overrides(lines: tuple[tuple[str, RuleCode, Fn | None], ...]) -> tuple[tuple[int, ...], ...]:
    """For each line: if a forbid, the permit lines citing (``by`` or ``over``) one of its cases."""
    out: list[tuple[int, ...]] = []
    for verdict, code, _ in lines:
        if verdict != "forbid":
            out.append(())
            continue
        mine = set(code.cases)
        out.append(tuple(j for j, (v, c, _) in enumerate(lines)
                         if v == "permit" and mine & (set(c.cases) | set(c.over))))
    return tuple(out)
