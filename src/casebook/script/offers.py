"""Declared actions: when and for whom an action is offered, what it costs and what it changes.

::

    offer place_partisan in step replacement_reinforcement to soviet for each map_hex by 16.1C, 16.2
      cost partisan_marker_cost from track partisans by 16.1C
      place marker partisan by 16.2
      record partisan_placed
    end

An **offer** names an action of ``facts.yaml``'s ``actions:`` (``place_partisan``; its notation
is ``place-partisan``), the step it is offered in, the side it is offered to (a side id,
``phasing``, or without ``to`` the phasing side) and, with ``for each``, the candidates: one
action per hex of the map (``map_hex``: argument ``hex=``) or per unit on the map (``map_unit``:
``unit=``). What it **requires** is its permission — the ``forbid``/``permit`` lines of the same
name — and its costs: those lines, the offer line (the step, the side) and the ``cost`` lines
are the only sources of its refusals. A ``cost`` line takes an amount from a track of the
game's vocabulary; the effects (``place marker`` / ``remove marker`` of a kind, in the
candidate's hex) are carried out by the engine (:mod:`casebook.script.declared`), which records
one event (``record <name>``: its kind, else the action's notation).

This module compiles offers (:func:`compile_offer`); the runtime is
:mod:`casebook.script.declared`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import ast as A
from .quantities import RuleCode
from .triggers import track_keys

__all__ = ["CANDIDATES", "OfferCode", "CostCode", "EffectCode", "RuleLineCode", "compile_offer"]

#: ``for each`` collection -> (the engine collection, the action's argument naming a candidate)
CANDIDATES: dict[str, tuple[str, str]] = {
    "map_hex": ("map_hexes", "hex"), "map_hexes": ("map_hexes", "hex"),
    "map_unit": ("map_units", "unit"), "map_units": ("map_units", "unit"),
}


@dataclass(frozen=True)
class CostCode:
    """A compiled ``cost`` line: the amount closure (``fn(env, record)``), the track, its line."""

    amount: Any
    track: str
    code: RuleCode
    #: the quantity the amount names when it is a bare name (explained at run time), else None
    quantity: str | None = None
    #: the keys of a keyed track: ``((is_fact, name), …)`` (:func:`~casebook.script.triggers.key_values`)
    keys: tuple[tuple[bool, str], ...] = ()


@dataclass(frozen=True)
class EffectCode:
    """A compiled effect line: ``place_marker`` / ``remove_marker`` of kind ``arg``, or
    ``add_to_track`` of ``amount`` (a closure) to track ``arg`` at ``keys``."""

    effect: str
    arg: str
    code: RuleCode
    amount: Any = None
    keys: tuple[tuple[bool, str], ...] = ()
    #: the quantity an ``add`` amount names when it is a bare name (explained at run time), else None
    quantity: str | None = None

    @property
    def track(self) -> str:
        """The track an ``add_to_track`` effect moves (its ``arg``)."""
        return self.arg


@dataclass(frozen=True)
class RuleLineCode:
    """A compiled ``require`` / ``forbid`` line of an offer: compiled as a forbid line of the
    action's permission, ``cond`` the closure that refuses (``require c``: ``not c``)."""

    verdict: str
    cond: Any
    code: RuleCode


@dataclass(frozen=True)
class OfferCode:
    """One compiled offer: the action (``place_partisan``), its notation ``kind``
    (``place-partisan``), ``step``, ``side`` (a side id, ``phasing`` or None), the candidates'
    ``collection`` and ``arg`` (None: one action with no argument), costs, effects and its line."""

    action: str
    kind: str
    step: str
    side: str | None
    collection: str | None
    arg: str | None
    costs: tuple[CostCode, ...]
    effects: tuple[EffectCode, ...]
    code: RuleCode
    #: the kind of the event its application records (``record partisan_placed``), else ``kind``
    event: str = ""
    #: its ``require`` / ``forbid`` lines (also forbid lines of the action's permission)
    rules: tuple[RuleLineCode, ...] = ()

    def lines(self) -> list[RuleCode]:
        """The offer's own lines: the offer line, its cost lines and its effect lines."""
        return [self.code, *(c.code for c in self.costs), *(e.code for e in self.effects)]

    def all_lines(self) -> list[RuleCode]:
        """Every line of the block: :meth:`lines` and the ``require`` / ``forbid`` lines."""
        return [*self.lines(), *(r.code for r in self.rules)]


def compile_offer(builder: Any, o: A.Offer) -> OfferCode:
    """Check and compile offer ``o`` with the script builder (its expression compiler ``ex``
    and ``code``); problems go to the builder's list: an action not declared in facts.yaml, an
    unknown ``for each`` collection, two cost lines on one track."""
    from .ruleset import _suggest

    ex = builder.ex
    ex.key = o.action
    ex.owner = ("permission", o.action)
    if o.action not in builder.schema.actions:
        ex.error(o.action_loc, f"unknown action `{o.action}`" + _suggest(o.action, builder.schema.actions),
                 len(o.action))
    collection = arg = None
    if o.each is not None:
        if o.each not in CANDIDATES:
            ex.error(o.loc, f"`for each {o.each}`: offers are made for each map_hex or map_unit"
                     + _suggest(o.each, CANDIDATES))
        else:
            collection, arg = CANDIDATES[o.each]
    costs = []
    tracks: set[tuple[str, tuple[str, ...]]] = set()
    for c in o.costs:
        if (c.track, c.keys) in tracks:
            ex.error(c.loc, f"a second cost from track `{c.track}`: one cost line per track")
        tracks.add((c.track, c.keys))
        compiled = ex.number(c.amount)
        builder.perm_uses.setdefault(o.action, set()).update(compiled.uses)
        named = c.amount.id if isinstance(c.amount, A.Name) and c.amount.id in builder.quantity_names else None
        keys = track_keys(builder, c.track, c.keys, c.track_loc or c.loc)
        costs.append(CostCode(compiled.fn, c.track, builder.code(c.cases, c.loc), named, keys))
    effects = tuple(_effect(builder, o, e) for e in o.effects)
    rules = tuple(_rule(builder, o, r) for r in o.rules)
    kind = o.action.replace("_", "-")
    return OfferCode(o.action, kind, o.step, o.side, collection, arg, tuple(costs), effects,
                     builder.code(o.cases, o.loc), o.record.replace("_", "-") if o.record else kind, rules)


def _effect(builder: Any, o: A.Offer, e: A.OfferEffect) -> EffectCode:
    """Compile an effect line of offer ``o``: a marker effect acts in the candidate's hex (an
    offer without ``for each`` has none); ``add`` checks its track and keys."""
    ex = builder.ex
    code = builder.code(e.cases, e.loc)
    if e.effect in ("place_marker", "remove_marker"):
        if o.each is None:
            ex.error(e.loc, f"`{e.effect.replace('_', ' ')}` acts in the candidate's hex: the offer "
                     "needs `for each map_hex` or `for each map_unit`", 5)
        return EffectCode(e.effect, e.arg, code)
    if e.effect != "add_to_track":
        ex.error(e.loc, f"an offer's effects are `place marker`, `remove marker` and `add … to track`, "
                 f"not `{e.effect.replace('_', ' ')}`", 3)
        return EffectCode(e.effect, e.arg, code)
    p = dict(e.params)
    amount = ex.number(p["amount"])
    builder.perm_uses.setdefault(o.action, set()).update(amount.uses)
    keys = track_keys(builder, e.arg, tuple(p.get("keys", ())), p.get("arg_loc", e.loc))
    a = p["amount"]
    named = a.id if isinstance(a, A.Name) and a.id in builder.quantity_names else None
    return EffectCode(e.effect, e.arg, code, amount.fn, keys, named)


def _rule(builder: Any, o: A.Offer, r: A.OfferRule) -> RuleLineCode:
    """Compile a ``require`` / ``forbid`` line of offer ``o`` (a condition of its facts)."""
    c = builder.ex.condition(r.cond)
    builder.perm_uses.setdefault(o.action, set()).update(c.uses)
    fn = c.fn
    cond = fn if r.verdict == "forbid" else (lambda env, rec: not fn(env, rec))
    return RuleLineCode(r.verdict, cond, builder.code(r.cases, r.loc))
