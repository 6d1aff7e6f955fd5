"""Collection terms of rule-script expressions: ``count(<collection> …)``, ``total <field> of …``,
``highest``/``lowest <field> of …`` and ``any``/``all``/``no <record> has …``.

Compiled by :class:`CollectionTerms`, a part of :class:`casebook.script.exprs.ExprCompiler`: each
names a collection fact of the facts declaration (checked, with a did-you-mean) and walks its
records, read by :meth:`~casebook.script.spatial.SpatialTerms.records_fn` (the caller's, or the
engine's, filtered by ``within``).
"""

from __future__ import annotations

from typing import Any

from . import ast as A
from .facts import FactType
from .values import BOOL, NUM, Compiled, _const, _numeric

__all__ = ["CollectionTerms"]


class CollectionTerms:
    """Compile methods of the collection terms (a base of ``ExprCompiler``, which provides
    ``schema``, ``reads``, ``owner``, ``error``, ``suggest``, ``condition``, ``_tname`` and
    ``records_fn``)."""

    schema: Any
    reads: list[Any]
    owner: tuple[str, str]
    error: Any
    suggest: Any
    condition: Any
    records_fn: Any
    _tname: Any

    def _collection(self, name: str, loc: A.Loc) -> tuple[str, FactType] | None:
        found = self.schema.collection(name)
        if found is not None:
            self.reads.append((self.owner, found[0], loc))
        if found is None:
            colls = [n for n, t in self.schema.facts.items() if t.kind == "records"]
            colls += [t.each for t in self.schema.facts.values() if t.kind == "records" and t.each]
            self.error(loc, f"unknown collection `{name}`" + self.suggest(name, colls), len(name))
        return found

    def _count(self, node: A.Count, record, expect) -> Compiled:
        found = self._collection(node.collection, node.loc)
        if found is None:
            return _const(0, NUM)
        coll, t = found
        src = self.records_fn(coll, t, node.within, record, node.loc)
        if node.where is None:
            return Compiled(lambda e, r: len(src(e, r)), NUM)
        c = self.condition(node.where, t).fn
        return Compiled(lambda e, r: sum(1 for x in src(e, r) if c(e, x)), NUM)

    def _number_field(self, node: A.Total | A.Extreme, word: str) -> tuple[str, Any, str] | None:
        """``(collection, its record type, field)`` of ``total``/``highest``/``lowest``, the field
        checked to be a number field of the collection's records; None without the collection."""
        found = self._collection(node.collection, node.loc)
        if found is None:
            return None
        coll, t = found
        f = node.field
        if f not in t.fields:
            self.error(node.loc, f"unknown field `{f}` of `{coll}`" + self.suggest(f, t.fields), len(f))
        elif not _numeric(t.fields[f]):
            self.error(node.loc, f"`{word}` needs a number field; `{f}` is a {self._tname(t.fields[f])}")
        return coll, t, f

    def _total(self, node: A.Total, record, expect) -> Compiled:
        found = self._number_field(node, "total")
        if found is None:
            return _const(0, NUM)
        coll, t, f = found
        src = self.records_fn(coll, t, None, record, node.loc)
        if node.where is None:
            return Compiled(lambda e, r: sum(x[f] for x in src(e, r)), NUM)
        c = self.condition(node.where, t).fn
        return Compiled(lambda e, r: sum(x[f] for x in src(e, r) if c(e, x)), NUM)

    def _extreme(self, node: A.Extreme, record, expect) -> Compiled:
        """The highest / lowest number ``field`` among the records that match (0 when none do)."""
        found = self._number_field(node, node.pick)
        if found is None:
            return _const(0, NUM)
        coll, t, f = found
        pick = max if node.pick == "highest" else min
        src = self.records_fn(coll, t, None, record, node.loc)
        c = self.condition(node.where, t).fn if node.where is not None else None
        if c is None:
            return Compiled(lambda e, r: pick((x[f] for x in src(e, r)), default=0), NUM)
        return Compiled(lambda e, r: pick((x[f] for x in src(e, r) if c(e, x)), default=0), NUM)

    def _quantified(self, node: A.Quantified, record, expect) -> Compiled:
        found = self._collection(node.collection, node.loc)
        if found is None:
            return _const(False, BOOL)
        coll, t = found
        src = self.records_fn(coll, t, node.within, record, node.loc)
        c = self.condition(node.cond, t).fn
        plain = getattr(src, "plain", None)  # the caller's collection itself: read it inline
        engine = getattr(src, "engine", None)
        if engine is not None and engine[0] == "map_units":
            return Compiled(_over_units(node.quant, engine, src, c), BOOL)
        if plain is not None and node.quant == "all":
            def fn(e, r):
                for x in e.facts[plain]:
                    if not c(e, x):
                        return False
                return True
        elif plain is not None:
            on_match = node.quant == "any"

            def fn(e, r):
                for x in e.facts[plain]:
                    if c(e, x):
                        return on_match
                return not on_match
        elif node.quant == "all":
            def fn(e, r):
                for x in src(e, r):
                    if not c(e, x):
                        return False
                return True
        else:
            on_match = node.quant == "any"

            def fn(e, r):
                for x in src(e, r):
                    if c(e, x):
                        return on_match
                return not on_match
        return Compiled(fn, BOOL)


def _over_units(quant: str, engine: tuple[str, Any], src: Any, c: Any) -> Any:
    """``any/all/no map_unit has …`` read from the units themselves rather than from records built
    for each state version (speed only): a unit on the map holding every field the condition
    reads gives the same answer as its record; one lacking a field (a KeyError) is asked through
    its record, made as :meth:`StandardFacts.records` makes it."""
    coll, fields = engine
    names, blanks = [f for f, _ in fields], [d for _, d in fields]
    want = quant != "all"  # the condition's value that decides: any → True, all/no → False/True
    decided = quant == "any"

    def fn(e: Any, r: Any) -> bool:
        if coll in e.facts or e.std is None or not hasattr(e.std, "unit_views"):
            for x in src(e, r):
                if bool(c(e, x)) is want:
                    return decided
            return not decided
        for u in e.std.unit_views():
            if "hex" not in u:
                continue
            try:
                hit = c(e, u)
            except KeyError:
                hit = c(e, dict(zip(names, map(u.get, names, blanks))))
            if bool(hit) is want:
                return decided
        return not decided
    return fn
