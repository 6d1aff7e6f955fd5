"""Compile rule-script expressions to closures, checking every name against the facts declaration.

Each expression becomes a :class:`Compiled`: a closure ``fn(env, rec)`` (``env`` carries the facts,
tables and quantity cache of one evaluation; ``rec`` the record of an ``any/all/no`` or ``count``),
its type, and its constant value when it has one. Nothing is interpreted per call: the tree is
walked once, here. Problems (unknown names with a suggestion, type mismatches, unknown cases) are
collected, never raised one by one.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Mapping
from fractions import Fraction
from typing import Any

from casebook.core.errors import Problem

from . import ast as A
from .aggregates import CollectionTerms
from .checks import literal_problems
from .facts import FactSchema, FactType
from .parser import caret_context
from .spatial import SpatialTerms
from .tablerows import TableRows
from .values import (
    _ARITH,
    _CMP,
    ANY,
    BOOL,
    NUM,
    STR,
    Compiled,
    EvaluationError,
    MissingFactError,
    _const,
    _fused_op,
    _norm,
    _numeric,
    located,
    round_value,
)

__all__ = ["ExprCompiler"]


class ExprCompiler(SpatialTerms, TableRows, CollectionTerms):
    """Compiles expressions of one game's scripts; collects :class:`Problem` s in ``problems``.

    ``quantities`` maps every quantity name of the game to its value type (so scripts may use one
    quantity in another); ``tables`` the known table ids (``None``: not checked); ``lines`` the
    source lines per file (for caret context).
    """

    def __init__(self, schema: FactSchema, quantities: Mapping[str, FactType],
                 tables: Collection[str] | None, lines: Mapping[str, list[str]]) -> None:
        self.schema = schema
        self.quantities = quantities
        self.tables = tables
        self.lines = lines
        self.problems: list[Problem] = []
        self.key = ""
        #: table ids named by a ``lookup`` anywhere in the scripts (``casebook cases`` counts them)
        self.looked_up: set[str] = set()
        #: (quantity or action, fact, where) for every fact a line reads (checked against its callers' ``inputs``);
        self.reads: list[tuple[tuple[str, str], str, A.Loc]] = []
        self.field_reads: list[tuple[FactType, str, A.Loc]] = []  # (record type, field, where): a record field read
        #: what is being compiled: ``("quantity", name)`` or ``("permission", action)``
        self.owner: tuple[str, str] = ("", "")
        self.domains: Mapping[str, Collection[str]] = {}  # checks.literal_problems: values a fact takes

    # -- problems ------------------------------------------------------------------------------
    def error(self, loc: A.Loc, message: str, width: int = 1) -> None:
        src = self.lines.get(loc.file, [])
        text = src[loc.line - 1] if 0 < loc.line <= len(src) else ""
        self.problems.append(Problem(loc.file, loc.line, loc.column, self.key, message,
                                     caret_context(text, loc.column, width) if text else ""))

    @staticmethod
    def suggest(word: str, choices: Collection[str]) -> str:
        close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
        return f"; did you mean `{close[0]}`?" if close else ""

    # -- entry ---------------------------------------------------------------------------------
    def compile(self, node: A.Expr, record: FactType | None = None,
                expect: FactType | None = None) -> Compiled:
        method = getattr(self, "_" + type(node).__name__.lower())
        return method(node, record, expect)

    def condition(self, node: A.Expr, record: FactType | None = None) -> Compiled:
        c = self.compile(node, record)
        if c.type.kind not in ("bool", "any"):
            self.error(node.loc, f"a condition must be true or false, not a {self._tname(c.type)}")
        return c

    def number(self, node: A.Expr, record: FactType | None = None) -> Compiled:
        c = self.compile(node, record)
        if not _numeric(c.type):
            self.error(node.loc, f"a number is needed here, not a {self._tname(c.type)}")
        return c

    @staticmethod
    def _tname(t: FactType) -> str:
        if t.kind == "enum":
            return "value (one of " + ", ".join(t.values) + ")"
        return {"num": "number", "int": "number", "bool": "condition", "str": "text",
                "records": "collection"}.get(t.kind, t.kind)

    # -- atoms ---------------------------------------------------------------------------------
    def _num(self, node: A.Num, record, expect) -> Compiled:
        v = node.value
        return _const(int(v) if v.denominator == 1 else v, NUM)

    def _dice(self, node: A.Dice, record, expect) -> Compiled:
        """``1d6`` / ``2d6``: the number of six-sided dice a roll takes (the kernel rolls d6 only)."""
        if node.sides != 6 or not 1 <= node.count <= 2:
            self.error(node.loc, f"`{node.count}d{node.sides}`: the engine rolls one or two six-sided dice "
                       "(1d6 or 2d6)", len(f"{node.count}d{node.sides}"))
        return _const(node.count, NUM)

    def _str(self, node: A.Str, record, expect) -> Compiled:
        if expect is not None and expect.kind == "enum" and node.value not in expect.values:
            self.error(node.loc, f"`{node.value}` is not one of {', '.join(expect.values)}"
                       + self.suggest(node.value, expect.values))
        return _const(node.value, expect if expect is not None and expect.kind == "enum" else STR)

    def _bool(self, node: A.Bool, record, expect) -> Compiled:
        return _const(node.value, BOOL)

    def _name(self, node: A.Name, record: FactType | None, expect: FactType | None) -> Compiled:
        n = node.id
        if record is not None and n in record.fields:
            self.field_reads.append((record, n, node.loc))
            return Compiled(lambda e, r: r[n], _norm(record.fields[n]), access=("field", n))
        relative = self.side_relative(n, record)
        if relative is not None:
            return relative
        if expect is not None and expect.kind == "enum" and n in expect.values:
            return _const(n, expect)
        if expect is not None and expect.kind == "any" and n not in self.schema.facts \
                and n not in self.quantities:
            return _const(n, ANY)  # compared with something unknown: already reported, or a table value
        fact = self.schema.facts.get(n)
        if fact is not None:
            if fact.kind == "records":
                self.error(node.loc, f"`{n}` is a collection: use `any {fact.each or n} has …`, "
                           f"`all {n} have …` or `count({n})`", len(n))
                return _const(None, ANY)

            self.reads.append((self.owner, n, node.loc))
            standard = fact.standard

            def get(e, r, n=n, fact=fact):
                try:
                    return e.facts[n]
                except KeyError:
                    if standard and e.std is not None:
                        try:
                            return e.std[n]
                        except KeyError:
                            pass
                    if fact.has_default:
                        return fact.default
                    raise MissingFactError(f"fact `{n}` was not given ({node.loc})", fact=n) from None
            return Compiled(get, _norm(fact), access=("fact", n))
        if n in self.quantities:
            return Compiled(lambda e, r: e.quantity(n), self.quantities[n], uses=frozenset({n}))
        if expect is not None and expect.kind == "enum":
            self.error(node.loc, f"unknown value `{n}`: expected one of {', '.join(expect.values)}"
                       + self.suggest(n, expect.values), len(n))
            return _const(n, expect)
        names = list(self.schema.facts) + list(self.quantities)
        if record is not None:
            names += list(record.fields)
            what = "unknown field or fact"
        else:
            what = "unknown fact"
        self.error(node.loc, f"{what} `{n}`" + self.suggest(n, names), len(n))
        return _const(None, ANY)

    def _unary(self, node: A.Unary, record, expect) -> Compiled:
        c = self.number(node.operand, record)
        if node.op == "+":
            return c
        if c.is_const and c.const is not None:
            return _const(-c.const, NUM)
        f = c.fn
        return Compiled(lambda e, r: -f(e, r), NUM, uses=c.uses)

    def _binop(self, node: A.BinOp, record, expect) -> Compiled:
        a, b = self.number(node.left, record), self.number(node.right, record)
        op = _ARITH[node.op]
        if a.is_const and b.is_const and a.const is not None and b.const is not None:
            if node.op == "/" and b.const == 0:
                self.error(node.loc, "division by zero")
                return _const(0, NUM)
            v = op(a.const, b.const)
            if isinstance(v, Fraction) and v.denominator == 1:
                v = int(v)
            return _const(v, NUM)
        fa, fb = a.fn, b.fn
        if b.is_const:
            k = b.const
            if node.op == "/" and k == 0:
                self.error(getattr(node.right, "loc", node.loc), "division by zero: the divisor is always 0")
                return _const(0, NUM)
            return Compiled(lambda e, r: op(fa(e, r), k), NUM, uses=a.uses)
        fn = lambda e, r: op(fa(e, r), fb(e, r))  # noqa: E731
        if node.op == "/":  # x / 0 is a located run-time error (docs/rule-language.md "Amounts")
            fn = located(fn, node.loc, self.owner[1])
        return Compiled(fn, NUM, uses=a.uses | b.uses)

    def _rounded(self, node: A.Rounded, record, expect) -> Compiled:
        c = self.number(node.expr, record)
        mode = node.mode
        if c.is_const and c.const is not None:
            return _const(round_value(c.const, mode), NUM)
        if isinstance(node.expr, A.BinOp) and node.expr.op == "/":
            quotient = self._rounded_quotient(node.expr, record, mode)
            if quotient is not None:
                return quotient
        f = c.fn
        return Compiled(lambda e, r: round_value(f(e, r), mode), NUM, uses=c.uses)

    def _rounded_quotient(self, node: A.BinOp, record, mode: str) -> Compiled | None:
        """``a / b rounded …`` without a Fraction when both are integers (the usual case: IPs,
        strength points): floor division is exact there; anything else takes the general path."""
        a, b = self.number(node.left, record), self.number(node.right, record)
        if not b.is_const:  # a divisor read at run time (a table cell): the same, checked per call
            fa, fb = a.fn, b.fn

            def rounded_by(e, r):
                v, d = fa(e, r), fb(e, r)
                if type(v) is int and type(d) is int and d:
                    if mode == "down":
                        return v // d
                    if mode == "up":
                        return -(-v // d)
                    return (2 * v + d) // (2 * d)
                return round_value(Fraction(v) / d, mode)
            return Compiled(located(rounded_by, node.loc, self.owner[1]), NUM, uses=a.uses | b.uses)
        if not isinstance(b.const, int) or b.const == 0:
            return None
        fa, k = a.fn, b.const

        def rounded(e, r):
            v = fa(e, r)
            if type(v) is int:
                if mode == "down":
                    return v // k
                if mode == "up":
                    return -(-v // k)
                return (2 * v + k) // (2 * k)
            return round_value(Fraction(v) / k, mode)
        return Compiled(rounded, NUM, uses=a.uses)

    def _call(self, node: A.Call, record, expect) -> Compiled:
        spatial = self.hex_function(node, record)
        if spatial is not None:
            return spatial
        fns = {"min": min, "max": max}
        if node.fn not in fns:
            self.error(node.loc, f"unknown function `{node.fn}` (functions: min, max, terrain, town, "
                       "distance)" + self.suggest(node.fn, [*fns, "terrain", "town", "distance"]),
                       len(node.fn))
            return _const(None, ANY)  # unknown, as an unknown fact: what it is compared with is not reported again
        args = [self.number(a, record) for a in node.args]
        if len(args) < 2:
            self.error(node.loc, f"`{node.fn}` takes two or more amounts: `{node.fn}(a, b, …)`", len(node.fn))
        fn = fns[node.fn]
        fs = tuple(a.fn for a in args)
        uses = frozenset().union(*(a.uses for a in args))
        return Compiled(lambda e, r: fn(f(e, r) for f in fs), NUM, uses=uses)

    def _lookup(self, node: A.Lookup, record, expect) -> Compiled:
        """``lookup <table>(<dim>: <value>, …)``: every dim once, constant values the dim's (as
        ``table <id>[…]``); a run-time value not in the table: a located :class:`EvaluationError`."""
        table, loc = node.table, node.loc
        shapes = self.tables if isinstance(self.tables, Mapping) else {}
        if self.tables is not None and table not in self.tables:
            self.error(loc, f"unknown table `{table}`" + self.suggest(table, self.tables), len(table))
        shape = shapes.get(table)
        dims: Mapping[str, Any] = {}
        if isinstance(shape, Mapping):
            dims = shape.get("dims") or {}
            if shape.get("kind") == "records":
                self.error(loc, f"`{table}` is a records table: use `table {table}[…].<field>`", len(table))
                shape = None
        coords: list[tuple[str, Compiled]] = []
        for key, value in node.coords:
            want = None
            if shape is not None and key not in dims:
                self.error(getattr(key, "loc", loc), f"table `{table}` has no coordinate `{key}` (it takes: "
                           f"{', '.join(dims)})" + self.suggest(key, dims), len(key))
            elif shape is not None and not (isinstance(value, A.Name) and (  # a fact read: not a literal
                    value.id in self.schema.facts or value.id in self.quantities or value.id in getattr(record, "fields", ()))):
                want = FactType("enum", tuple(str(v) for v in dims[key]))
            if key in {k for k, _ in coords}:
                self.error(getattr(key, "loc", loc), f"coordinate `{key}` of table `{table}` is given twice", len(key))
            coords.append((key, self.compile(value, record, expect=want)))
        missing = [d for d in dims if d not in {k for k, _ in coords}] if shape is not None else []
        if missing:
            self.error(loc, f"table `{table}` takes coordinates {', '.join(dims)}: also give "
                       f"{', '.join(missing)}", len(table))
        self.looked_up.add(table)
        fs = tuple((k, c.fn) for k, c in coords)
        uses = frozenset().union(*(c.uses for _, c in coords))
        name = self.owner[1]

        def look(e, r):
            try:
                t = e.tables[table]
            except KeyError:
                raise MissingFactError(f"table `{table}` was not given ({loc})") from None
            try:
                return t.lookup(**{k: f(e, r) for k, f in fs})
            except MissingFactError:
                raise
            except KeyError as exc:
                raise EvaluationError(f"{loc}: evaluating `{name}`: {exc.args[0] if exc.args else exc}") from None
        return Compiled(look, ANY, uses=uses)

    # -- conditions ----------------------------------------------------------------------------
    def _compare(self, node: A.Compare, record, expect) -> Compiled:
        if node.op in ("=", "!="):
            return self._equality(node.left, node.right, node.op == "!=", record, node.loc)
        a, b = self.number(node.left, record), self.number(node.right, record)
        op, fa, fb = _CMP[node.op], a.fn, b.fn
        if b.is_const:
            k = b.const
            fused = _fused_op(a, node.op, k)
            if fused is not None:
                return Compiled(fused, BOOL, uses=a.uses)
            return Compiled(lambda e, r: op(fa(e, r), k), BOOL, uses=a.uses)
        return Compiled(lambda e, r: op(fa(e, r), fb(e, r)), BOOL, uses=a.uses | b.uses)

    def _is(self, node: A.Is, record, expect) -> Compiled:
        return self._equality(node.left, node.right, node.negate, record, node.loc)

    def _equality(self, left, right, negate: bool, record, loc) -> Compiled:
        a = self.compile(left, record)
        if a.type.kind == "records":
            self.error(left.loc, "a collection cannot be compared; use any/all/no")
        b = self.compile(right, record, expect=a.type)
        self._compatible(a.type, b.type, right.loc)
        for loc_, message in literal_problems(left, (right,), self.domains):
            self.error(loc_, message)
        fa, fb = a.fn, b.fn
        if b.is_const:
            k = b.const
            fused = _fused_op(a, "!=" if negate else "==", k)
            if fused is not None:
                return Compiled(fused, BOOL, uses=a.uses)
            fn = (lambda e, r: fa(e, r) != k) if negate else (lambda e, r: fa(e, r) == k)
        else:
            fn = (lambda e, r: fa(e, r) != fb(e, r)) if negate else (lambda e, r: fa(e, r) == fb(e, r))
        return Compiled(fn, BOOL, uses=a.uses | b.uses)

    def _compatible(self, a: FactType, b: FactType, loc: A.Loc) -> None:
        ka, kb = _norm(a).kind, _norm(b).kind
        if "any" in (ka, kb) or ka == kb or {ka, kb} <= {"str", "enum"}:
            return
        self.error(loc, f"cannot compare a {self._tname(a)} with a {self._tname(b)}")

    def _in(self, node: A.In, record, expect) -> Compiled:
        a = self.compile(node.left, record)
        items = [self.compile(i, record, expect=a.type) for i in node.items]
        for i, c in zip(node.items, items):
            self._compatible(a.type, c.type, i.loc)
        for loc_, message in literal_problems(node.left, node.items, self.domains):
            self.error(loc_, message)
        fa = a.fn
        uses = a.uses.union(*(c.uses for c in items))
        if all(c.is_const for c in items):
            s = frozenset(c.const for c in items)
            fused = _fused_op(a, "not in" if node.negate else "in", s)
            if fused is not None:
                return Compiled(fused, BOOL, uses=uses)
            fn = (lambda e, r: fa(e, r) not in s) if node.negate else (lambda e, r: fa(e, r) in s)
        else:
            fs = tuple(c.fn for c in items)
            if node.negate:
                fn = lambda e, r: fa(e, r) not in [f(e, r) for f in fs]  # noqa: E731
            else:
                fn = lambda e, r: fa(e, r) in [f(e, r) for f in fs]  # noqa: E731
        return Compiled(fn, BOOL, uses=uses)

    def _not(self, node: A.Not, record, expect) -> Compiled:
        c = self.condition(node.operand, record)
        f = c.fn
        return Compiled(lambda e, r: not f(e, r), BOOL, uses=c.uses)

    def _boolop(self, node: A.BoolOp, record, expect) -> Compiled:
        a, b = self.condition(node.left, record), self.condition(node.right, record)
        fa, fb = a.fn, b.fn
        if node.op == "and":
            fn = lambda e, r: fa(e, r) and fb(e, r)  # noqa: E731
        else:
            fn = lambda e, r: fa(e, r) or fb(e, r)  # noqa: E731
        return Compiled(fn, BOOL, uses=a.uses | b.uses)
