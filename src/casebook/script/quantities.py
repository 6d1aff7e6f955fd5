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
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .explain import Explanation, Line
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
        a dict's own lines left as they are) the lines ``Engine.note_lines`` takes from that
        explanation, in the same order, without building it (speed only; the same lines are evaluated)."""
        mode, noted, chosen = self.mode, [], False
        acc: Any = self.base(env, None) if self.base is not None else {"sum": 0, "product": 1}.get(mode)
        for t in self.terms:
            if t.members:  # a most-severe group: its winner is noted (even after a `first` decided)
                best: Any = None
                for m in t.members:
                    v = _amount(m, env)
                    if v is not MISS and (best is None or v < best[1]):
                        best = (m.code, v)
                if best is None:
                    continue
                code, v = best
                noted.append(code)
                if mode == "first" and chosen:
                    continue
            else:
                v = _amount(t, env)
                if v is MISS or (mode == "first" and chosen):
                    continue
                noted.append(t.code)
            if mode == "sum":
                acc += v
            elif mode == "product":
                acc *= v
            elif mode == "first":
                acc, chosen = v, True
            else:
                acc = (min if mode == "min" else max)(acc, v)
        if self.base is not None and not chosen:  # (a `first`'s `otherwise`: only when nothing decided)
            noted.insert(0, self.base_code)
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


def _amount(t: TermCode, env: Env) -> Any:
    """A term's amount when it fires, else MISS (a group: its most severe member's), as explained."""
    if not t.members:
        return t.amount(env, None) if t.cond is None or t.cond(env, None) else MISS  # type: ignore[misc]
    best = MISS
    for m in t.members:
        v = _amount(m, env)
        if v is not MISS and (best is MISS or v < best):
            best = v
    return best


def _show(v: Any) -> str:
    v = _norm(v)
    return f"{v.numerator}/{v.denominator}" if isinstance(v, Fraction) else str(v)


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
        the lines :meth:`explain_in` would show as deciding — forbid lines that took effect, permits
        that fired — in line order, the lines a dict already holds left as they are. A line's
        condition is evaluated only while some dict lacks it: asked of many fact sets (a map's hexes),
        the explanation costs once per line rather than once per fact set."""
        fired: dict[int, bool] = {}

        def fire(i: int) -> bool:
            if i not in fired:
                cond = self.lines[i][2]
                fired[i] = cond is None or bool(cond(env, None))
            return fired[i]

        for i, (verdict, c, _) in enumerate(self.lines):
            missing = [d for d in into if c.source not in d]
            if not missing or not fire(i):
                continue
            if verdict == "forbid" and any(fire(j) for j in self.overridden_by[i]):
                continue  # overridden: it forbids nothing
            for d in missing:
                d[c.source] = entry(c)
        return self.allowed_in(env)

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
