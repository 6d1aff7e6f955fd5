"""The rule-script AST: frozen dataclasses, each carrying where it was written.

The lark transformer :class:`AstBuilder` (:mod:`casebook.script._builder`) only builds these nodes; checking names and compiling to
evaluators happens in :mod:`casebook.script.compiler`. Every node has ``loc`` (file, line,
column; 1-based) so any error or explanation can point at the script text.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

__all__ = [
    "Loc", "Word", "Num", "Dice", "Str", "Bool", "Name", "Unary", "BinOp", "Rounded", "Call", "Lookup", "Row", "Count", "Within", "Nearest",
    "Total", "Extreme", "Compare", "Is", "In", "Not", "BoolOp", "Quantified", "Expr", "CaseRef", "Term", "Group",
    "Base", "Rounding", "Bound", "Quantity", "Permission", "Trigger", "Statement",
    "Offer", "OfferCost", "OfferEffect", "OfferRule",
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


class Word(str):
    """A name read from a script that keeps its place (``loc``): a table coordinate's key or a
    row's field, so an error about it points at it. Defined here, not beside the parser, so a
    cached parse unpickles without importing lark (tests/test_ask_imports.py)."""

    loc: Loc


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
    effect: str  # "remove_marker" | "place_marker" | "end_game" | "add_to_track"
    arg: str  # the marker kind, the winning side, or the track
    cases: tuple[CaseRef, ...]
    loc: Loc
    event_loc: Loc
    #: ``end_game``: ``level`` (or None), ``reason``; ``add_to_track``: ``amount`` (an
    #: :data:`Expr`), ``keys`` (names); both: ``arg_loc``, where the side or track is written
    params: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class OfferCost:
    """``cost <amount> from track <track> by <cases>`` in an offer."""

    amount: Expr
    track: str
    cases: tuple[CaseRef, ...]
    loc: Loc
    #: ``of side``: the keys of a keyed track (fact names or literal keys)
    keys: tuple[str, ...] = ()
    #: where the track's name is written (errors about it point there)
    track_loc: Loc | None = None


@dataclass(frozen=True)
class OfferEffect:
    """``place marker <kind> by <cases>`` / ``remove marker <kind> by …`` in an offer."""

    effect: str  # "remove_marker" | "place_marker" | "add_to_track"
    arg: str  # the marker kind or the track
    cases: tuple[CaseRef, ...]
    loc: Loc
    #: ``add_to_track``: ``amount`` (an :data:`Expr`), ``keys`` (names), ``arg_loc``
    params: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class OfferRule:
    """``require <cond> by <cases>`` / ``forbid by <cases> when <cond>`` in an offer: a line of
    the action's permission (``require``: it refuses when the condition does not hold)."""

    verdict: str  # "require" | "forbid"
    cond: Expr
    cases: tuple[CaseRef, ...]
    loc: Loc


@dataclass(frozen=True)
class Offer:
    """``offer <action> in step <step> [to <side>] [for each <collection>] by <cases>`` … ``end``:
    a declared action (see :mod:`casebook.script.offers`)."""

    action: str
    step: str
    side: str | None  # a side id, ``phasing`` or None (the phasing side)
    each: str | None  # ``map_hex`` / ``map_hexes`` / ``map_unit`` / ``map_units`` or None
    cases: tuple[CaseRef, ...]
    costs: tuple[OfferCost, ...]
    effects: tuple[OfferEffect, ...]
    loc: Loc
    action_loc: Loc
    #: ``record <name>``: the kind of the event the action records (``_`` written ``-``)
    record: str | None = None
    #: its ``require`` / ``forbid`` lines, in script order
    rules: tuple[OfferRule, ...] = ()


Statement = Quantity | Permission | Trigger | Offer


def __getattr__(name: str) -> object:
    """``AstBuilder`` lives in :mod:`casebook.script._builder` (it needs lark); it is imported only
    when a script is parsed, not when a compiled pack's parses come from the cache."""
    if name == "AstBuilder":
        from ._builder import AstBuilder

        return AstBuilder
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
