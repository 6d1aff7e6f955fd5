"""Triggers: an effect the engine carries out when an event happens.

::

    when unit enters hex where side is german and action_kind in [move, force_march]: \\
        remove marker partisan by 16.3B

A trigger names an **event** (:data:`EVENTS`: the facts the engine gives it), an optional
condition (``where``) and one **effect** the engine can carry out with no game code
(:data:`EFFECTS`): remove or place a marker of a kind in the event's hex. The condition is held to
the event's declared ``inputs:`` in facts.yaml (``unit_enters_hex: [hex, side, action_kind]``),
as every quantity and permission is. :meth:`casebook.script.RuleSet.fire` evaluates the triggers
of an event and returns the effects that fired, each with its cases and ``file:line``; the engine
side (:func:`casebook.areas.triggers.carry_out`) applies them and the caller records them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from . import ast as A
from .quantities import RuleCode

__all__ = ["EVENTS", "EFFECTS", "TriggerCode", "compile_trigger", "fire"]

#: event -> what it is (the words of `when <event>` joined by `_`)
EVENTS: Mapping[str, str] = {
    "unit_enters_hex": "a unit of an action enters a hex (facts: hex, side — the mover's —, action_kind)",
}

#: effect -> what the engine does
EFFECTS: Mapping[str, str] = {
    "remove_marker": "remove the marker of that kind in the event's hex, if one is there",
    "place_marker": "place a marker of that kind in the event's hex, unless one is there",
}


@dataclass(frozen=True)
class TriggerCode:
    """One compiled trigger: its event, condition closure (``None``: always), effect, the
    effect's argument (a marker kind) and its :class:`RuleCode` (cases, ``file:line``, text)."""

    event: str
    cond: Any
    effect: str
    arg: str
    code: RuleCode


def compile_trigger(builder: Any, t: A.Trigger) -> TriggerCode:
    """Check and compile trigger ``t`` with the script builder (its expression compiler ``ex``,
    its ``code`` for cases); problems go to the builder's list."""
    ex = builder.ex
    ex.key = t.event
    ex.owner = ("trigger", t.event)
    if t.event not in EVENTS:
        ex.error(t.event_loc, f"unknown event `{t.event.replace('_', ' ')}` (events: "
                 + ", ".join(e.replace("_", " ") for e in EVENTS) + ")", len(t.event))
    cond = None
    if t.cond is not None:
        c = ex.condition(t.cond)
        cond = c.fn
        builder.perm_uses.setdefault(t.event, set()).update(c.uses)
    return TriggerCode(t.event, cond, t.effect, t.arg, builder.code(t.cases, t.loc))


def fire(triggers: tuple[TriggerCode, ...], env: Any) -> list[dict[str, Any]]:
    """The effects of ``triggers`` whose condition holds in ``env``, in script order:
    ``[{"effect", "arg", "cases", "source", "text"}]``."""
    out = []
    for t in triggers:
        if t.cond is None or t.cond(env, None):
            out.append({"effect": t.effect, "arg": t.arg, "cases": list(t.code.cases),
                        "source": t.code.source, "text": t.code.text})
    return out
