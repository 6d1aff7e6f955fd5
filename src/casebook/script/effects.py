"""Carry out the effects of rule-script triggers (``when unit enters hex …: remove marker …``).

The rule scripts say *when* and *what* (:mod:`casebook.script.triggers`); this module does the
what, with no game code: a marker of a named kind removed from or placed in the event's hex. A
plugin that knows an event happened (its action moved units into hexes) calls :func:`unit_entered`
for each hex and records what was done in its own trace event.
"""

from __future__ import annotations

from typing import Any

__all__ = ["carry_out", "unit_entered"]


def carry_out(ctx: Any, effect: dict[str, Any], hex_: str) -> bool:
    """Do ``effect`` (one of :meth:`casebook.script.RuleSet.fire`'s) in hex ``hex_``: whether it
    changed the state (no marker to remove, or one already there to place: nothing to do)."""
    kind = effect["arg"]
    there = any(m.get("kind") == kind and m.get("hex") == hex_ for m in ctx.state.markers)
    if effect["effect"] == "remove_marker" and there:
        ctx.state.remove_marker(kind, hex_)
        return True
    if effect["effect"] == "place_marker" and not there:
        ctx.state.add_marker(kind, hex_)
        return True
    return False


def unit_entered(ctx: Any, hex_: str, side: str, action_kind: str) -> list[dict[str, Any]]:
    """A unit of ``side`` entered ``hex_`` by an action of kind ``action_kind`` (``-`` written
    ``_``): fire the ``unit enters hex`` triggers and carry out their effects there. Returns the
    effects that changed the state (each with its cases, ``file:line`` and text)."""
    facts = {"hex": hex_, "side": side, "action_kind": action_kind.replace("-", "_")}
    return [e for e in ctx.fire("unit_enters_hex", facts) if carry_out(ctx, e, hex_)]
