"""The lark transformer that turns a rule script's parse tree into :mod:`casebook.script.ast` nodes.

Apart from the AST so that loading a compiled pack from the cache (parses already made) needs no
lark; :mod:`casebook.script.parser` imports it when it parses.
"""

from __future__ import annotations

from fractions import Fraction

from lark import Token, Transformer, v_args

from .ast import (
    Base,
    BinOp,
    Bool,
    BoolOp,
    Bound,
    Call,
    CaseRef,
    Compare,
    Count,
    Dice,
    Extreme,
    Group,
    In,
    Is,
    Loc,
    Lookup,
    Name,
    Nearest,
    Not,
    Num,
    Offer,
    OfferCost,
    OfferEffect,
    OfferRule,
    Permission,
    Quantified,
    Quantity,
    Rounded,
    Rounding,
    Row,
    Str,
    Term,
    Total,
    Trigger,
    Unary,
    Within,
    Word,
)

__all__ = ["AstBuilder"]


def _text(tok: Token) -> str:
    return str(tok)


_Word = Word  # a name that keeps its place (script/ast.py: Word, importable without lark)


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
        *words, cond, (effect, arg, *params), cases = ch
        words = [w for w in words if w is not None]
        return Trigger("_".join(_text(w) for w in words), cond, effect, arg, cases, self._loc(meta),
                       self._tok(words[0]), tuple(params[0]) if params else ())

    def end_game(self, meta, ch):
        winner, level, reason = ch
        return ("end_game", _text(winner), (("level", _text(level) if level is not None else None),
                                            ("reason", _text(reason)[1:-1]), ("arg_loc", self._tok(winner))))

    def add_to_track(self, meta, ch):
        amount, track, *keys = ch
        return ("add_to_track", _text(track), (("amount", amount), ("keys", tuple(_text(k) for k in keys)),
                                               ("arg_loc", self._tok(track))))

    def offer(self, meta, ch):
        action, step, side, each, cases, *lines = ch
        costs = tuple(x for x in lines if isinstance(x, OfferCost))
        effects = tuple(x for x in lines if isinstance(x, OfferEffect))
        records = [x[1] for x in lines if isinstance(x, tuple) and x[0] == "record"]
        rules = tuple(x for x in lines if isinstance(x, OfferRule))
        return Offer(_text(action), _text(step), _text(side) if side is not None else None, each, cases,
                     costs, effects, self._loc(meta), self._tok(action), records[-1] if records else None,
                     rules)

    def offer_require(self, meta, ch):
        cond, cases = ch
        return OfferRule("require", cond, cases, self._loc(meta))

    def offer_forbid(self, meta, ch):
        cases, cond = ch
        return OfferRule("forbid", cond, cases, self._loc(meta))

    def offer_record(self, meta, ch):
        return ("record", _text(ch[0]))

    def offer_each(self, meta, ch):
        return _text(ch[0])

    def offer_cost(self, meta, ch):
        amount, track, *keys, cases = ch
        return OfferCost(amount, _text(track), cases, self._loc(meta), tuple(_text(k) for k in keys),
                         self._tok(track))

    def offer_effect(self, meta, ch):
        (effect, arg, *params), cases = ch
        return OfferEffect(effect, arg, cases, self._loc(meta), tuple(params[0]) if params else ())

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

    def _word(self, tok: Token) -> str:
        word = _Word(tok)
        word.loc = self._tok(tok)
        return word

    def coord(self, meta, ch):
        return (self._word(ch[0]), ch[1])

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
                   self._word(column) if column is not None else None, self._tok(table))

    def total(self, meta, ch):
        field_, coll, where = ch
        return Total(_text(field_), _text(coll), where, self._tok(field_))

    def highest(self, meta, ch):
        field_, coll, where = ch
        return Extreme("highest", _text(field_), _text(coll), where, self._tok(field_))

    def lowest(self, meta, ch):
        field_, coll, where = ch
        return Extreme("lowest", _text(field_), _text(coll), where, self._tok(field_))
