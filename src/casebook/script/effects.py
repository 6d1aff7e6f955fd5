"""Carry out the effects of rule-script triggers (``when unit enters hex …: remove marker …``,
``when step ends where …: add 1 to track …``, ``when action ends where …: end the game, …``).

The rule scripts say *when* and *what* (:mod:`casebook.script.triggers`); this module does the
what, with no game code: a marker of a named kind removed from or placed in the event's hex, an
amount added to a declared track (held to the track's bounds), the game ended with a winner. A
plugin that knows an event happened (its action moved units into hexes) calls :func:`unit_entered`
for each hex and records what was done in its own trace event; the game driver
(:mod:`casebook.core.game`) calls :func:`triggered` for the events of the sequence of play (an
action ends, a step ends, a turn starts), which records a ``trigger`` event per change and
returns the game's result when an ``end the game`` line fired.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["carry_out", "add_to_track", "unit_entered", "triggered", "game_result"]

SOURCE = "effects"


def add_to_track(ctx: Any, effect: dict[str, Any]) -> bool:
    """Add ``effect["amount"]`` to the track at ``effect["keys"]``, held to the declared bounds
    (``effect`` gains ``added``, ``value`` and, when a bound held it, ``bound_cases``)."""
    name, keys = effect["arg"], tuple(effect.get("keys", ()))
    before = ctx.state.track(name, *keys)
    want = before + int(effect["amount"])
    bound = ctx.engine.track_bounds.get(name)
    low = bound.low if bound is not None else 0
    high = bound.high if bound is not None else None
    value = max(low, want if high is None else min(high, want))
    if value != want and bound is not None:
        effect["bound_cases"] = list(bound.cases)
    if value == before:
        return False
    ctx.state.add_track(name, value - before, *keys)
    effect.update(added=value - before, value=value)
    return True


def carry_out(ctx: Any, effect: dict[str, Any], hex_: str | None = None) -> bool:
    """Do ``effect`` (one of :meth:`casebook.script.RuleSet.fire`'s; a marker effect in hex
    ``hex_``): whether it changed the state (no marker to remove, one already there to place, a
    track already at its bound: nothing to do). ``end_game`` changes nothing here: the driver
    ends the game with :func:`game_result` (it always counts as a change)."""
    kind = effect["effect"]
    if kind == "end_game":
        return True
    if kind == "add_to_track":
        return add_to_track(ctx, effect)
    marker = effect["arg"]
    there = any(m.get("kind") == marker and m.get("hex") == hex_ for m in ctx.state.markers)
    if kind == "remove_marker" and there:
        ctx.state.remove_marker(marker, hex_)
        return True
    if kind == "place_marker" and not there and hex_ is not None:
        ctx.state.add_marker(marker, hex_)
        return True
    return False


def unit_entered(ctx: Any, hex_: str, side: str, action_kind: str) -> list[dict[str, Any]]:
    """A unit of ``side`` entered ``hex_`` by an action of kind ``action_kind`` (``-`` written
    ``_``): fire the ``unit enters hex`` triggers and carry out their effects there. Returns the
    effects that changed the state (each with its cases, ``file:line`` and text)."""
    facts = {"hex": hex_, "side": side, "action_kind": action_kind.replace("-", "_")}
    return [e for e in ctx.fire("unit_enters_hex", facts) if carry_out(ctx, e, hex_)]


def game_result(effect: Mapping[str, Any]) -> dict[str, Any]:
    """The game's result for a fired ``end the game`` effect: ``{"winner", "level", "reason",
    "cases", "lines": [{"source", "cases"}]}`` (``level`` only when the line names one)."""
    out: dict[str, Any] = {"winner": effect["arg"]}
    if effect.get("level"):
        out["level"] = effect["level"]
    out.update(reason=effect.get("reason", ""), cases=list(effect["cases"]),
               lines=[{"source": effect["source"], "cases": list(effect["cases"])}])
    return out


def triggered(ctx: Any, event: str, facts: Mapping[str, Any]) -> dict[str, Any] | None:
    """Fire the triggers of ``event`` (``action_ends``, ``step_ends``, ``turn_starts``) for
    ``facts`` and carry out their effects in script order; each change is recorded as a
    ``trigger`` event (its cases, the effect, and the line's ``file:line`` in ``lines``). Returns
    the result of the first ``end the game`` line that fired (:func:`game_result`), else None —
    the lines after it are not carried out."""
    for e in ctx.fire(event, facts):
        if e["effect"] == "end_game":
            return game_result(e)
        if not carry_out(ctx, e):
            continue
        data = {"event": event, "effect": e["effect"], "arg": e["arg"]}
        for k in ("keys", "added", "value", "bound_cases"):
            if k in e:
                data[k] = e[k]
        data["lines"] = [{"source": e["source"], "cases": list(e["cases"])}]
        ctx.record("trigger", e["cases"], data, source=f"{SOURCE}.{event}")
    return None
