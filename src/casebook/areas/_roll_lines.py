"""A die roll that names the lines deciding its dice (issue #15, deliverable 3; shared areas).

A ``roll`` event (:func:`casebook.core.dice.roll`) says how many dice were rolled; when that
number came from a rule-script line — a quantity such as ``combat_dice``, ``drop_dice``,
``rebuild_delay_dice`` or ``ip_dice`` — the event names that line (``data.lines``, as every
event names the lines that decided its numbers: docs/rule-language.md "Which lines an event
names"). A die the area rolls by itself, one and always one (the weather dice, a force march's
fatigue die), was decided by no line: its event names none. Public API: :func:`roll_naming`,
:func:`dice_lines`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from casebook.core.dice import roll
from casebook.core.trace import Trace

__all__ = ["roll_naming", "dice_lines"]


def dice_lines(ctx: Any, quantity: str, facts: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """The lines that decided quantity ``quantity`` (the dice of a roll) for ``facts``, as a trace
    event names them (``[{"source", "cases"}]``); none when this context records no trace (the
    bots' look-ahead: nothing would read them)."""
    if ctx.trace is None:
        return []
    return ctx.fired_lines(ctx.quantity(quantity, dict(facts or {})))


def roll_naming(ctx: Any, dice: int, lines: Sequence[Mapping[str, Any]], *, purpose: str,
                cases: Sequence[str], source: str) -> int:
    """Roll ``dice`` (:func:`casebook.core.dice.roll`) and record the ``roll`` event in
    ``ctx.trace`` naming ``lines`` (the lines that decided the dice: :func:`dice_lines`; none:
    no ``lines`` key). Rolled into a scratch trace, then recorded with them; the state's dice
    advance as for any roll (a context without a trace rolls all the same)."""
    scratch = Trace()
    die = roll(ctx.state, dice, purpose=purpose, cases=cases, trace=scratch, source=source)
    if ctx.trace is not None:
        named = [{"source": ln["source"], "cases": list(ln["cases"])} for ln in lines]
        for event in scratch:
            ctx.trace.append(replace(event, data={**event.data, "lines": named}) if named else event)
    return die
