"""The values of compiled rule-script expressions: :class:`Compiled` (a closure with its type and
constant), :class:`Env` (one evaluation's facts, tables and quantity cache), the fact types of the
literals (``NUM``, ``BOOL``, ``STR``, ``ANY``), :func:`round_value`, the operator tables and the
fused ``<field or fact> <op> <constant>`` closures the expression compiler
(:class:`casebook.script.exprs.ExprCompiler`) builds from.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from casebook.core.errors import CasebookError

from .facts import FactType

__all__ = ["Compiled", "Env", "Fn", "round_value", "MissingFactError", "EvaluationError", "located", "NUM", "BOOL", "STR", "ANY"]

NUM = FactType("num")
BOOL = FactType("bool")
STR = FactType("str")
ANY = FactType("any")
_NOCONST = object()

Fn = Callable[[Any, Any], Any]


class MissingFactError(CasebookError, KeyError):
    """A fact a script reads was not given to the evaluation (the plugin did not publish it, or
    the position lacks the field a standard fact is read from). ``fact``: its name, when known."""

    def __init__(self, message: str, fact: str | None = None) -> None:
        super().__init__(message)
        self.fact = fact

    def __str__(self) -> str:  # the message itself, not KeyError's quoted repr
        return str(self.args[0]) if self.args else ""


class EvaluationError(CasebookError):
    """A line that cannot be evaluated in this situation (a division by zero, a table cell its
    coordinates do not name): one line, ``file:line:column: evaluating `name`: what``."""


def located(fn: Fn, loc: Any, name: str) -> Fn:
    """``fn``, with a division by zero or a table lookup outside the table raised as an
    :class:`EvaluationError` at ``loc`` naming quantity or action ``name``."""
    def checked(e: Any, r: Any) -> Any:
        try:
            return fn(e, r)
        except ZeroDivisionError:
            raise EvaluationError(f"{loc}: evaluating `{name}`: division by zero") from None
    return checked


class Env:
    """One evaluation: the facts mapping the caller gives, the tables mapping, the standard facts
    (``std``: engine and setting facts, read only when the caller did not give one; may be
    ``None`` outside a game) and a cache of quantities."""

    __slots__ = ("facts", "tables", "rules", "cache", "std")

    def __init__(self, facts: Mapping[str, Any], tables: Mapping[str, Any] | None, rules: Any,
                 std: Mapping[str, Any] | None = None) -> None:
        self.facts = facts
        self.tables = tables or {}
        self.rules = rules
        self.cache: dict[str, Any] = {}
        self.std = std

    def quantity(self, name: str) -> Any:
        try:
            return self.cache[name]
        except KeyError:
            v = self.cache[name] = self.rules.quantities[name].value_in(self)
            return v


@dataclass(frozen=True)
class Compiled:
    fn: Fn
    type: FactType
    const: Any = _NOCONST
    uses: frozenset[str] = field(default_factory=frozenset)  # quantities referenced
    #: ``("field", name)`` for a plain field of the current record, ``("fact", name)`` for a plain
    #: fact: comparisons with a constant fuse the access into one closure (speed only).
    access: tuple[str, str] | None = None

    @property
    def is_const(self) -> bool:
        return self.const is not _NOCONST


def round_value(value: Any, mode: str) -> int:
    """Round a number ``down`` (floor), ``up`` (ceiling) or to ``nearest`` (halves up)."""
    if mode == "down":
        return math.floor(value)
    if mode == "up":
        return math.ceil(value)
    return math.floor(value + Fraction(1, 2))


def _required(fn: Fn | None) -> Fn:
    """``fn``; for a first/min/max quantity without its ``otherwise`` line (which the compiler
    reports as an error, after building the code) a stand-in that fails if ever evaluated."""
    if fn is not None:
        return fn

    def missing(env: Env, record: Any) -> Any:
        raise TypeError("a first/min/max quantity without its `otherwise` line")
    return missing


def _div(a: Any, b: Any) -> Any:
    return Fraction(a) / b


def _const(value: Any, t: FactType) -> Compiled:
    def fn(e, r):
        return value
    fn.const = value  # type: ignore[attr-defined]  # read by TermCode.fast (speed only)
    return Compiled(fn, t, value)


def _numeric(t: FactType) -> bool:
    return t.kind in ("num", "int", "any")


def _norm(t: FactType) -> FactType:
    return NUM if t.kind == "int" else t


_ARITH = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": _div}
_CMP = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
        ">=": lambda a, b: a >= b, "=": lambda a, b: a == b, "!=": lambda a, b: a != b}


#: Binary tests with a constant right side, for :func:`_fused_op`.
_FUSABLE = {
    "==": lambda v, k: v == k, "!=": lambda v, k: v != k, "in": lambda v, k: v in k,
    "not in": lambda v, k: v not in k, "<": lambda v, k: v < k, "<=": lambda v, k: v <= k,
    ">": lambda v, k: v > k, ">=": lambda v, k: v >= k,
}


def _fused_op(a: Compiled, op: str, k: Any) -> Fn | None:
    """One closure for ``<plain field or fact> <op> <constant>`` (the commonest script test),
    instead of a closure calling the access closure; ``None`` when ``a`` is not a plain access.
    A fact that is missing falls back to ``a.fn`` (its default, or MissingFactError)."""
    if a.access is None:
        return None
    where, n = a.access
    if where == "field":
        if op == "==":
            return lambda e, r: r[n] == k
        if op == "!=":
            return lambda e, r: r[n] != k
        if op == "in":
            return lambda e, r: r[n] in k
        if op == "not in":
            return lambda e, r: r[n] not in k
        test = _FUSABLE[op]
        return lambda e, r: test(r[n], k)
    get, test = a.fn, _FUSABLE[op]
    if op == "==":
        def fact_eq(e, r):
            try:
                return e.facts[n] == k
            except KeyError:
                return get(e, r) == k
        return fact_eq
    if op == "in":
        def fact_in(e, r):
            try:
                return e.facts[n] in k
            except KeyError:
                return get(e, r) in k
        return fact_in

    def fact_test(e, r):
        try:
            v = e.facts[n]
        except KeyError:
            v = get(e, r)
        return test(v, k)
    return fact_test
