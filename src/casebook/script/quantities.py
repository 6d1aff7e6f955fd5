"""Compiled quantities and permissions: fast evaluation, and evaluation with an explanation.

A quantity combines its base (``start``/``otherwise``) and the terms that fire — by ``sum``,
``product``, ``min``, ``max`` or ``first`` — then applies its ``round`` line, then its bounds
(``clamp``, ``at least``, ``at most``) in the order written, each after the whole combination
(10.4.5C: "This limit applies after calculations have been completed"). A ``most severe`` group
counts as one term whose amount is the smallest of its members that fire (4.6A). Everything is
exact (``fractions.Fraction``) until the ``round`` line; an integral result is returned as ``int``.

A permission is allowed unless a ``forbid`` line fires that no firing ``permit`` line overrides.
A ``permit`` overrides exactly the ``forbid`` lines of its action that cite one of its cases — its
``by`` cases or its ``over`` cases (``permit move by 9.6A over 9.8B``: 9.6A is the exception to
9.8B). A permit that names none of a forbid's cases does not override it: a new ``forbid`` line is
never silently cancelled by an old ``permit`` (``casebook rules check`` warns where both can fire).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .explain import Explanation, Line
from .permissions import PermissionCode, overrides
from .values import Env, Fn, _required, round_value

__all__ = ["MISS", "TermCode", "BoundCode", "QuantityCode", "PermissionCode", "RuleCode", "overrides"]

MISS = object()  # a term that did not fire


@dataclass(frozen=True)
class RuleCode:
    """Where a compiled line came from: its cases, ``file:line`` and the line as written."""

    cases: tuple[str, ...]
    source: str
    text: str
    #: a permit line's ``over`` cases (the forbid lines it overrides cite them)
    over: tuple[str, ...] = ()


@dataclass(frozen=True)
class TermCode:
    """A compiled term (``members`` empty) or most-severe group (``cond``/``amount`` ``None``)."""

    code: RuleCode
    cond: Fn | None
    amount: Fn | None
    members: tuple[TermCode, ...] = ()

    def fast(self) -> Callable[[Env], Any]:
        """A closure ``env -> amount | MISS`` (no explanation)."""
        if self.members:
            fs = tuple(m.fast() for m in self.members)

            def group(env):
                best = MISS
                for f in fs:
                    v = f(env)
                    if v is not MISS and (best is MISS or v < best):
                        best = v
                return best
            return group
        amt, cond = self.amount, self.cond
        assert amt is not None  # a term (not a group) always has its amount
        k = getattr(amt, "const", MISS)
        if k is not MISS and cond is not None:
            return lambda env: k if cond(env, None) else MISS
        if cond is None:
            return lambda env: amt(env, None)
        return lambda env: amt(env, None) if cond(env, None) else MISS

    def explain(self, env: Env) -> Line:
        c = self.code
        if not self.members:
            amount = self.amount
            assert amount is not None  # a term (not a group) always has its amount
            fired = self.cond is None or bool(self.cond(env, None))
            return Line("term", c.cases, c.source, c.text, fired, amount(env, None) if fired else None)
        lines = [m.explain(env) for m in self.members]
        best = None
        for i, ln in enumerate(lines):
            if ln.fired and (best is None or ln.amount < lines[best].amount):
                best = i
        if best is not None:
            lines[best] = replace(lines[best], won=True)
        amount = lines[best].amount if best is not None else None
        note = "only the most severe applies"
        if best is not None:
            note += f": {', '.join(lines[best].cases)} ({lines[best].source})"
        return Line("group", c.cases, c.source, c.text, best is not None, amount, members=tuple(lines),
                    note=note)


@dataclass(frozen=True)
class BoundCode:
    """``clamp`` (low and high), ``at_least`` (low) or ``at_most`` (high), with its condition."""

    kind: str
    code: RuleCode
    low: Fn | None
    high: Fn | None
    cond: Fn | None

    def apply(self, env: Env, value: Any) -> Any:
        if self.cond is not None and not self.cond(env, None):
            return value
        if self.low is not None:
            lo = self.low(env, None)
            if value < lo:
                value = lo
        if self.high is not None:
            hi = self.high(env, None)
            if value > hi:
                value = hi
        return value


def _norm(v: Any) -> Any:
    if isinstance(v, Fraction) and v.denominator == 1:
        return int(v)
    return v


@dataclass(frozen=True)
class QuantityCode:
    """One compiled quantity. ``value_in(env)`` is the fast path; ``explain_in(env)`` records lines."""

    name: str
    mode: str
    code: RuleCode
    base: Fn | None
    base_code: RuleCode | None
    terms: tuple[TermCode, ...]
    rounding: tuple[str, RuleCode] | None
    bounds: tuple[BoundCode, ...]

    if TYPE_CHECKING:
        def value_in(self, env: Env) -> Any:
            """The fast path (set per instance by ``__post_init__``)."""

    def sources(self) -> tuple[str, ...]:
        """The ``file:line`` of each of its lines: its head, base, terms (a group's members too),
        rounding and bounds."""
        terms = [m for t in self.terms for m in (t, *t.members)]
        codes = [self.code, self.base_code, *(t.code for t in terms), self.rounding[1] if self.rounding else None,
                 *(b.code for b in self.bounds)]
        return tuple(dict.fromkeys(c.source for c in codes if c is not None))

    def __post_init__(self) -> None:
        object.__setattr__(self, "value_in", self._make_fast())

    def _make_fast(self) -> Callable[[Env], Any]:
        fs = tuple(t.fast() for t in self.terms)
        base, mode = self.base, self.mode
        rmode = self.rounding[0] if self.rounding else None
        bounds = self.bounds
        start = {"sum": 0, "product": 1}.get(mode)

        def finish(env, acc):
            if rmode is not None:
                acc = round_value(acc, rmode)
            for b in bounds:
                acc = b.apply(env, acc)
            return _norm(acc)

        if mode == "sum":
            def value(env):
                acc = base(env, None) if base is not None else 0
                for f in fs:
                    v = f(env)
                    if v is not MISS:
                        acc += v
                return finish(env, acc) if (rmode or bounds) else _norm(acc)
        elif mode == "product":
            def value(env):
                acc = base(env, None) if base is not None else start
                for f in fs:
                    v = f(env)
                    if v is not MISS:
                        acc *= v
                return finish(env, acc)
        elif mode == "first":
            first_base = _required(base)

            def value(env):
                for f in fs:
                    v = f(env)
                    if v is not MISS:
                        return finish(env, v)
                return finish(env, first_base(env, None))
        else:
            pick = min if mode == "min" else max
            extreme_base = _required(base)

            def value(env):
                acc = extreme_base(env, None)
                for f in fs:
                    v = f(env)
                    if v is not MISS:
                        acc = pick(acc, v)
                return finish(env, acc)
        return value

    def value_noting(self, env: Env, into: list[dict[str, Any]], entry: Callable[[RuleCode], dict[str, Any]]) -> Any:
        """:meth:`explain_in`'s value, noting into each dict of ``into`` (``source`` -> ``entry(line)``,
        a dict's own lines left as they are) the lines that decided it, as
        :meth:`Explanation.deciding` takes them from that explanation, in the same order, without
        building it (speed only; the same lines are evaluated)."""
        mode, noted = self.mode, []
        neutral = {"sum": 0, "product": 1}.get(mode)
        acc: Any = self.base(env, None) if self.base is not None else neutral
        taken = self.base_code if self.base is not None else None  # first/min/max: the line taken
        if neutral is not None and taken is not None:  # a sum's or product's start: its base, even at 0
            noted.append(taken)
        chosen = False
        for t in self.terms:  # (every term evaluated, as explain_in does)
            code, v = _winner(t, env)
            if v is MISS or chosen:
                continue
            if mode == "first":  # the first line that fires decides (its `otherwise` only failing one)
                acc, taken, chosen = v, code, True
                continue
            if neutral is not None:
                acc = acc + v if mode == "sum" else acc * v
                if v != neutral:  # a term that changes nothing (+0, × 1) decides nothing
                    noted.append(code)
            elif (v < acc) if mode == "min" else (v > acc):
                acc, taken = v, code  # min/max: the line whose value is taken (the first, on a tie)
        if neutral is None and taken is not None:
            noted.append(taken)
        if self.rounding is not None:
            new = round_value(acc, self.rounding[0])
            if new != acc:
                noted.append(self.rounding[1])
            acc = new
        for bound in self.bounds:
            new = bound.apply(env, acc)
            if new != acc:
                noted.append(bound.code)
            acc = new
        for seen in into:
            for code in noted:
                if code.source not in seen:
                    seen[code.source] = entry(code)
        return _norm(acc)

    def explain_in(self, env: Env) -> Explanation:
        lines: list[Line] = []
        acc: Any = {"sum": 0, "product": 1}.get(self.mode)
        if self.base is not None:
            acc = self.base(env, None)
            b = self.base_code
            assert b is not None  # a base always has its line
            lines.append(Line("start", b.cases, b.source, b.text, True, acc))
        chosen = False
        for t in self.terms:
            line = t.explain(env)
            if self.mode == "first" and chosen and line.fired:
                line = replace(line, fired=False, amount=None, note="an earlier line already decided")
            lines.append(line)
            if not line.fired:
                continue
            v = line.amount
            if self.mode == "sum":
                acc += v
            elif self.mode == "product":
                acc *= v
            elif self.mode == "first":
                acc, chosen = v, True
            else:
                acc = (min if self.mode == "min" else max)(acc, v)
        if self.rounding is not None:
            mode, rc = self.rounding
            new = round_value(acc, mode)
            lines.append(Line("round", rc.cases, rc.source, rc.text, new != acc, new,
                              note=f"{_show(acc)} rounded {mode}"))
            acc = new
        for bound in self.bounds:
            new = bound.apply(env, acc)
            bc = bound.code
            active = bound.cond is None or bool(bound.cond(env, None))
            note = f"{_show(acc)} → {_show(new)}" if new != acc else ("within limits" if active else "")
            lines.append(Line(bound.kind, bc.cases, bc.source, bc.text, new != acc, new, note=note))
            acc = new
        return Explanation(self.name, "quantity", self.mode, _norm(acc), tuple(lines))


def _winner(t: TermCode, env: Env) -> tuple[RuleCode, Any]:
    """A term's line and amount when it fires, else ``(its line, MISS)``; a most-severe group: its
    most severe member's line and amount (the first, on a tie), as :meth:`TermCode.explain` picks."""
    if not t.members:
        fires = t.cond is None or t.cond(env, None)
        return t.code, (t.amount(env, None) if fires else MISS)  # type: ignore[misc]
    best: tuple[RuleCode, Any] = (t.code, MISS)
    for m in t.members:
        code, v = _winner(m, env)
        if v is not MISS and (best[1] is MISS or v < best[1]):
            best = (code, v)
    return best


def _show(v: Any) -> str:
    v = _norm(v)
    return f"{v.numerator}/{v.denominator}" if isinstance(v, Fraction) else str(v)
