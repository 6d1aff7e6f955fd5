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

__all__ = ["CANDIDATES", "OfferCode", "CostCode", "EffectCode", "compile_offer"]

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


@dataclass(frozen=True)
class EffectCode:
    """A compiled effect line (``place_marker`` / ``remove_marker`` of kind ``arg``)."""

    effect: str
    arg: str
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

    def lines(self) -> list[RuleCode]:
        """The offer's own lines: the offer line, its cost lines and its effect lines."""
        return [self.code, *(c.code for c in self.costs), *(e.code for e in self.effects)]


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
    tracks: set[str] = set()
    for c in o.costs:
        if c.track in tracks:
            ex.error(c.loc, f"a second cost from track `{c.track}`: one cost line per track")
        tracks.add(c.track)
        compiled = ex.number(c.amount)
        builder.perm_uses.setdefault(o.action, set()).update(compiled.uses)
        named = c.amount.id if isinstance(c.amount, A.Name) and c.amount.id in builder.quantity_names else None
        costs.append(CostCode(compiled.fn, c.track, builder.code(c.cases, c.loc), named))
    effects = tuple(EffectCode(e.effect, e.arg, builder.code(e.cases, e.loc)) for e in o.effects)
    kind = o.action.replace("_", "-")
    return OfferCode(o.action, kind, o.step, o.side, collection, arg, tuple(costs), effects,
                     builder.code(o.cases, o.loc), o.record.replace("_", "-") if o.record else kind)
