"""The rule-script AST: frozen dataclasses, each carrying where it was written.

The lark transformer :class:`AstBuilder` only builds these nodes; checking names and compiling to
evaluators happens in :mod:`casebook.script.compiler`. Every node has ``loc`` (file, line,
column; 1-based) so any error or explanation can point at the script text.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from lark import Token, Transformer, v_args

__all__ = [
    "Loc", "Num", "Dice", "Str", "Bool", "Name", "Unary", "BinOp", "Rounded", "Call", "Lookup", "Row", "Count", "Within", "Nearest",
    "Total", "Extreme", "Compare", "Is", "In", "Not", "BoolOp", "Quantified", "Expr", "CaseRef", "Term", "Group",
    "Base", "Rounding", "Bound", "Quantity", "Permission", "Trigger", "Statement", "AstBuilder",
]


@dataclass(frozen=True)
class Loc:
    """A place in a script: ``file`` as given to the parser, 1-based ``line`` and ``column``."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    def source(self) -> str:
        """``file:line`` — the form the explanation shows."""
        return f"{self.file}:{self.line}"


# ---- expressions ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Num:
    value: Fraction
    loc: Loc


@dataclass(frozen=True)
class Dice:
    """``2d6``: ``count`` dice of ``sides`` sides (a roll's size, as data; the engine rolls)."""

    count: int
    sides: int
    loc: Loc


@dataclass(frozen=True)
class Str:
    value: str
    loc: Loc


@dataclass(frozen=True)
class Bool:
    value: bool
    loc: Loc


@dataclass(frozen=True)
class Name:
    """A bare name: a fact, a record field, a quantity, or an enum value (decided by the compiler)."""

    id: str
    loc: Loc


@dataclass(frozen=True)
class Unary:
    op: str  # "-" or "+"
    operand: Expr
    loc: Loc


@dataclass(frozen=True)
class BinOp:
    op: str  # "+", "-", "*", "/"
    left: Expr
    right: Expr
    loc: Loc


@dataclass(frozen=True)
class Rounded:
    expr: Expr
    mode: str  # "down" | "up" | "nearest"
    loc: Loc


@dataclass(frozen=True)
class Call:
    fn: str  # "min" | "max"
    args: tuple[Expr, ...]
    loc: Loc


@dataclass(frozen=True)
class Lookup:
    table: str
    coords: tuple[tuple[str, Expr], ...]
    loc: Loc


@dataclass(frozen=True)
class Row:
    """``table <id>[<key>: <value>, …].<column>``: the ``column`` of the one row of a records
    table (or the cell of a chart) that the keys select."""

    table: str
    coords: tuple[tuple[str, Expr], ...]
    column: str | None
    loc: Loc


@dataclass(frozen=True)
class Count:
    collection: str
    where: Expr | None
    loc: Loc
    #: ``within N [of HEX]``: only the records whose ``hex`` is at most N hexes from HEX
    within: Within | None = None


@dataclass(frozen=True)
class Within:
    """``within <radius> [of <hex>]`` (the origin defaults to the evaluation's ``hex`` fact)."""

    radius: Expr
    origin: Expr | None
    loc: Loc


@dataclass(frozen=True)
class Nearest:
    """``distance to nearest(<collection> [having …] [from <hex>])``: hexes from the origin to
    the nearest record's ``hex`` (no record: :data:`casebook.script.spatial.FAR`)."""

    collection: str
    where: Expr | None
    origin: Expr | None
    loc: Loc


@dataclass(frozen=True)
class Total:
    field: str
    collection: str
    where: Expr | None
    loc: Loc


@dataclass(frozen=True)
class Extreme:
    """``highest(field of coll having …)`` / ``lowest(…)``; 0 when no record matches."""

    pick: str  # "highest" | "lowest"
    field: str
    collection: str
    where: Expr | None
    loc: Loc


@dataclass(frozen=True)
class Compare:
    op: str  # "<", "<=", ">", ">=", "=", "!="
    left: Expr
    right: Expr
    loc: Loc


@dataclass(frozen=True)
class Is:
    left: Expr
    right: Expr
    negate: bool
    loc: Loc


@dataclass(frozen=True)
class In:
    left: Expr
    items: tuple[Expr, ...]
    negate: bool
    loc: Loc


@dataclass(frozen=True)
class Not:
    operand: Expr
    loc: Loc


@dataclass(frozen=True)
class BoolOp:
    op: str  # "and" | "or"
    left: Expr
    right: Expr
    loc: Loc


@dataclass(frozen=True)
class Quantified:
    """``any|all|no <collection> has <condition>``; the condition sees the record's fields."""

    quant: str  # "any" | "all" | "no"
    collection: str
    cond: Expr
    loc: Loc
    within: Within | None = None


Expr = (Num | Dice | Str | Bool | Name | Unary | BinOp | Rounded | Call | Lookup | Row | Count | Nearest | Total | Extreme
        | Compare | Is | In | Not | BoolOp | Quantified)


# ---- statements -----------------------------------------------------------------------------

@dataclass(frozen=True)
class CaseRef:
    id: str
    loc: Loc


@dataclass(frozen=True)
class Term:
    """One case-tagged line: ``amount by cases [when cond]`` (``times`` marks ``× ½``)."""

    amount: Expr
    cases: tuple[CaseRef, ...]
    cond: Expr | None
    times: bool
    loc: Loc


@dataclass(frozen=True)
class Group:
    """``most severe by <case>`` … ``end``: of the terms that fire, only the smallest applies."""

    cases: tuple[CaseRef, ...]
    terms: tuple[Term, ...]
    loc: Loc


@dataclass(frozen=True)
class Base:
    """``start <expr> by <case>`` (or ``otherwise``): the value before the terms combine."""

    expr: Expr
    cases: tuple[CaseRef, ...]
    loc: Loc


@dataclass(frozen=True)
class Rounding:
    mode: str
    cases: tuple[CaseRef, ...]
    loc: Loc


@dataclass(frozen=True)
class Bound:
    """``clamp lo to hi`` / ``at least lo`` / ``at most hi``, applied after combining and rounding."""

    kind: str  # "clamp" | "at_least" | "at_most"
    low: Expr | None
    high: Expr | None
    cases: tuple[CaseRef, ...]
    cond: Expr | None
    loc: Loc


@dataclass(frozen=True)
class Quantity:
    name: str
    value_of: str | None  # `quantity x: ground = first` — takes the values of fact `ground`
    mode: str  # "sum" | "product" | "min" | "max" | "first"
    cases: tuple[CaseRef, ...]
    items: tuple[Term | Group | Base | Rounding | Bound, ...]
    loc: Loc
    name_loc: Loc


@dataclass(frozen=True)
class Permission:
    verdict: str  # "forbid" | "permit"
    action: str
    cases: tuple[CaseRef, ...]
    cond: Expr | None
    loc: Loc
    action_loc: Loc
    #: a permit's ``over`` cases: the forbid lines citing one of them (or one of its own cases) yield
    over: tuple[CaseRef, ...] = ()




@dataclass(frozen=True)
class Trigger:
    """``when <event> [where <cond>]: <effect> <marker kind> by <cases>``: an effect the engine
    carries out when the event happens and the condition holds."""

    event: str  # the event's words joined by `_`: "unit_enters_hex"
    cond: Expr | None
    effect: str  # "remove_marker" | "place_marker"
    arg: str
    cases: tuple[CaseRef, ...]
    loc: Loc
    event_loc: Loc


Statement = Quantity | Permission | Trigger


def _text(tok: Token) -> str:
    return str(tok)


@v_args(meta=True)
class AstBuilder(Transformer):
    """Turns the lark parse tree of one script into a tuple of :data:`Statement` s; nothing else."""

    def __init__(self, file: str, line_offset: int = 0) -> None:
        super().__init__(visit_tokens=False)
        self.file = file
        self.offset = line_offset  # lines before the parsed text in its file

    def _loc(self, meta) -> Loc:
        return Loc(self.file, getattr(meta, "line", 0) + self.offset, getattr(meta, "column", 0))

    def _tok(self, tok: Token) -> Loc:
        return Loc(self.file, (tok.line or 0) + self.offset, tok.column or 0)

    # statements
    def start(self, meta, children):
        return tuple(children)

    def quantity(self, meta, ch):
        name, value_of, mode, cases, *items = ch
        return Quantity(_text(name), _text(value_of) if value_of is not None else None, mode,
                        cases or (), tuple(items), self._loc(meta), self._tok(name))

    def mode_sum(self, meta, ch):
        return "sum"

    def mode_product(self, meta, ch):
        return "product"

    def mode_min(self, meta, ch):
        return "min"

    def mode_max(self, meta, ch):
        return "max"

    def mode_first(self, meta, ch):
        return "first"

    def term(self, meta, ch):
        times, amount, cases, cond = ch
        return Term(amount, cases, cond, times is not None, self._loc(meta))

    def times(self, meta, ch):
        return True

    def group(self, meta, ch):
        cases, *terms = ch
        return Group(cases, tuple(terms), self._loc(meta))

    def base(self, meta, ch):
        expr, cases = ch
        return Base(expr, cases, self._loc(meta))

    def rounding(self, meta, ch):
        mode, cases = ch
        return Rounding(mode, cases, self._loc(meta))

    def round_down(self, meta, ch):
        return "down"

    def round_up(self, meta, ch):
        return "up"

    def round_nearest(self, meta, ch):
        return "nearest"

    def clamp(self, meta, ch):
        lo, hi, cases, cond = ch
        return Bound("clamp", lo, hi, cases, cond, self._loc(meta))

    def at_least(self, meta, ch):
        lo, cases, cond = ch
        return Bound("at_least", lo, None, cases, cond, self._loc(meta))

    def at_most(self, meta, ch):
        hi, cases, cond = ch
        return Bound("at_most", None, hi, cases, cond, self._loc(meta))

    def forbid(self, meta, ch):
        action, cases, cond = ch
        return Permission("forbid", _text(action), cases, cond, self._loc(meta), self._tok(action))

    def permit(self, meta, ch):
        action, cases, over, cond = ch
        return Permission("permit", _text(action), cases, cond, self._loc(meta), self._tok(action),
                          over or ())

    def trigger(self, meta, ch):
        *words, cond, (effect, arg), cases = ch
        words = [w for w in words if w is not None]
        return Trigger("_".join(_text(w) for w in words), cond, effect, arg, cases, self._loc(meta),
                       self._tok(words[0]))

    def remove_marker(self, meta, ch):
        return ("remove_marker", _text(ch[0]))

    def place_marker(self, meta, ch):
        return ("place_marker", _text(ch[0]))

    def over(self, meta, ch):
        return tuple(CaseRef(_text(t), self._tok(t)) for t in ch)

    def cases(self, meta, ch):
        return tuple(CaseRef(_text(t), self._tok(t)) for t in ch)

    def cond(self, meta, ch):
        return ch[0]

    # expressions
    def or_(self, meta, ch):
        return BoolOp("or", ch[0], ch[1], self._loc(meta))

    def and_(self, meta, ch):
        return BoolOp("and", ch[0], ch[1], self._loc(meta))

    def not_(self, meta, ch):
        return Not(ch[0], self._loc(meta))

    def compare(self, meta, ch):
        return Compare(ch[1], ch[0], ch[2], self._loc(meta))

    def lt(self, meta, ch):
        return "<"

    def le(self, meta, ch):
        return "<="

    def gt(self, meta, ch):
        return ">"

    def ge(self, meta, ch):
        return ">="

    def eq(self, meta, ch):
        return "="

    def ne(self, meta, ch):
        return "!="

    def is_(self, meta, ch):
        return Is(ch[0], ch[1], False, self._loc(meta))

    def is_not(self, meta, ch):
        return Is(ch[0], ch[1], True, self._loc(meta))

    def in_(self, meta, ch):
        return In(ch[0], ch[1], False, self._loc(meta))

    def not_in(self, meta, ch):
        return In(ch[0], ch[1], True, self._loc(meta))

    def items(self, meta, ch):
        return tuple(ch)

    def quantified(self, meta, ch):
        quant, coll, within, _verb, cond = ch
        return Quantified(quant, _text(coll), cond, self._loc(meta), within)

    def any_(self, meta, ch):
        return "any"

    def all_(self, meta, ch):
        return "all"

    def no_(self, meta, ch):
        return "no"

    def verb(self, meta, ch):
        return None

    def rounded(self, meta, ch):
        return Rounded(ch[0], ch[1], self._loc(meta))

    def add(self, meta, ch):
        return BinOp("+", ch[0], ch[1], self._loc(meta))

    def sub(self, meta, ch):
        return BinOp("-", ch[0], ch[1], self._loc(meta))

    def mul(self, meta, ch):
        return BinOp("*", ch[0], ch[1], self._loc(meta))

    def div(self, meta, ch):
        return BinOp("/", ch[0], ch[1], self._loc(meta))

    def neg(self, meta, ch):
        return Unary("-", ch[0], self._loc(meta))

    def pos(self, meta, ch):
        return Unary("+", ch[0], self._loc(meta))

    def number(self, meta, ch):
        return Num(Fraction(int(ch[0])), self._tok(ch[0]))

    def vulgar(self, meta, ch):
        value = {"½": Fraction(1, 2), "⅓": Fraction(1, 3), "⅔": Fraction(2, 3),
                 "¼": Fraction(1, 4), "¾": Fraction(3, 4)}[str(ch[0])]
        return Num(value, self._tok(ch[0]))

    def dice(self, meta, ch):
        count, sides = str(ch[0]).split("d")
        return Dice(int(count), int(sides), self._tok(ch[0]))

    def string(self, meta, ch):
        return Str(str(ch[0])[1:-1], self._tok(ch[0]))

    def true(self, meta, ch):
        return Bool(True, self._loc(meta))

    def false(self, meta, ch):
        return Bool(False, self._loc(meta))

    def name(self, meta, ch):
        return Name(_text(ch[0]), self._tok(ch[0]))

    def call(self, meta, ch):
        fn, *args = ch
        return Call(_text(fn), tuple(args), self._tok(fn))

    def lookup(self, meta, ch):
        table, *coords = ch
        return Lookup(_text(table), tuple(c for c in coords if c is not None), self._tok(table))

    def coord(self, meta, ch):
        return (_text(ch[0]), ch[1])

    def count(self, meta, ch):
        coll, within, where = ch
        return Count(_text(coll), where, self._tok(coll), within)

    def within(self, meta, ch):
        radius, origin = ch
        return Within(radius, origin, self._loc(meta))

    def nearest(self, meta, ch):
        coll, where, origin = ch
        return Nearest(_text(coll), where, origin, self._tok(coll))

    def hex_distance(self, meta, ch):
        return Call("distance", tuple(ch), self._loc(meta))

    def row(self, meta, ch):
        table, *coords, column = ch
        return Row(_text(table), tuple(c for c in coords if c is not None),
                   _text(column) if column is not None else None, self._tok(table))

    def total(self, meta, ch):
        field_, coll, where = ch
        return Total(_text(field_), _text(coll), where, self._tok(field_))

    def highest(self, meta, ch):
        field_, coll, where = ch
        return Extreme("highest", _text(field_), _text(coll), where, self._tok(field_))

    def lowest(self, meta, ch):
        field_, coll, where = ch
        return Extreme("lowest", _text(field_), _text(coll), where, self._tok(field_))
