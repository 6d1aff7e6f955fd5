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
side (:func:`casebook.script.effects.carry_out`) applies them and the caller records them.

Events of the sequence of play (issue #15): ``when step ends where phase is … and step is …``
(the ``phase`` and ``step`` values are the ids of the pack's ``sequence.yaml``, so ``rules check``
refuses a step the sequence does not have), ``when turn starts`` and ``when action ends`` (after
every action; facts ``side``, the actor's, and ``action_kind``). Effects of the game: ``end the
game, <side> wins [(<level>)] "<reason>"`` (the side is one of the vocabulary's) and ``add <amount>
to track <track> [of <key>, …]`` (a track of the vocabulary; a key is a fact the event gives, read
when it fires, or a literal key; the track's declared bounds hold the result).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from . import ast as A
from .quantities import RuleCode

__all__ = ["EVENTS", "EFFECTS", "TriggerCode", "compile_trigger", "fire", "explain_triggers", "track_keys",
           "key_values"]

#: event -> what it is (the words of `when <event>` joined by `_`)
EVENTS: Mapping[str, str] = {
    "unit_enters_hex": "a unit of an action enters a hex (facts: hex, side — the mover's —, action_kind)",
    "action_ends": "an action has been carried out (facts: side — the actor's —, action_kind)",
    "step_ends": "a step of the sequence of play ends (facts: phase, step — ids of sequence.yaml)",
    "turn_starts": "a game turn starts, before its first step (facts: the standard ones, turn the new turn)",
}

#: effect -> what the engine does
EFFECTS: Mapping[str, str] = {
    "remove_marker": "remove the marker of that kind in the event's hex, if one is there",
    "place_marker": "place a marker of that kind in the event's hex, unless one is there",
    "end_game": "the game is over: the side named wins, at the level named, for the reason given",
    "add_to_track": "add the amount (negative: take it away) to a track, held to its declared bounds",
}

#: events whose facts name a hex (the marker effects act there)
_HEX_EVENTS = frozenset({"unit_enters_hex"})


@dataclass(frozen=True)
class TriggerCode:
    """One compiled trigger: its event, condition closure (``None``: always), effect, the
    effect's argument (a marker kind) and its :class:`RuleCode` (cases, ``file:line``, text)."""

    event: str
    cond: Any
    effect: str
    arg: str
    code: RuleCode
    #: ``end_game``: ``(("level", …), ("reason", …))``; ``add_to_track``: ``(("amount", closure),
    #: ("keys", ((is_fact, name), …)))``
    params: tuple[tuple[str, Any], ...] = ()


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
    params = _effect_params(builder, t)
    code = builder.code(t.cases, t.loc)
    return TriggerCode(t.event, cond, t.effect, t.arg, replace(code, text=_whole_line(builder, t.loc, code.text)),
                       params)


def _whole_line(builder: Any, loc: A.Loc, text: str) -> str:
    """The text of a trigger continued over several lines (``\\``), joined into one."""
    src = getattr(builder, "lines", {}).get(loc.file, [])
    n = loc.line
    while text.endswith("\\") and n < len(src):
        text = text[:-1].rstrip() + " " + src[n].split("#")[0].strip()
        n += 1
    return text


def _effect_params(builder: Any, t: A.Trigger) -> tuple[tuple[str, Any], ...]:
    """Check the effect of ``t`` against the pack's world (the vocabulary's sides and tracks, given
    by :func:`casebook.script.pack.compile_pack`; unchecked without it) and compile its amount."""
    ex = builder.ex
    world = getattr(builder, "world", None) or {}
    p = dict(t.params)
    loc = p.get("arg_loc", t.loc)
    if t.effect in ("remove_marker", "place_marker") and t.event in EVENTS and t.event not in _HEX_EVENTS:
        ex.error(t.loc, f"`{t.effect.replace('_', ' ')}` acts in the event's hex, and `"
                 f"{t.event.replace('_', ' ')}` has none (events with a hex: "
                 + ", ".join(e.replace("_", " ") for e in sorted(_HEX_EVENTS)) + ")", 4)
    if t.effect == "end_game":
        sides = world.get("sides")
        if sides is not None and t.arg not in sides:
            ex.error(loc, f"unknown side `{t.arg}` (the vocabulary's sides: {', '.join(sides)})"
                     + ex.suggest(t.arg, sides), len(t.arg))
        return (("level", p.get("level")), ("reason", p.get("reason", "")))
    if t.effect == "add_to_track":
        amount = ex.number(p["amount"])
        builder.perm_uses.setdefault(t.event, set()).update(amount.uses)
        resolved = track_keys(builder, t.arg, tuple(p.get("keys", ())), loc)
        return (("amount", amount.fn), ("keys", resolved))
    return ()


def track_keys(builder: Any, track: str, keys: tuple[str, ...], loc: A.Loc) -> tuple[tuple[bool, str], ...]:
    """Check track ``track`` and its ``of`` keys against the pack's world (a track of the
    vocabulary, as many keys as it is kept by, each a fact — read when the line is carried out,
    held to the owner's inputs — or one of the key's values); ``((is_fact, name), …)``."""
    ex = builder.ex
    world = getattr(builder, "world", None) or {}
    tracks = world.get("tracks")
    declared = tracks.get(track) if tracks is not None else None
    if tracks is not None and declared is None:
        ex.error(loc, f"unknown track `{track}` (the vocabulary's tracks: {', '.join(tracks) or 'none'})"
                 + ex.suggest(track, tracks), len(track))
    elif declared is not None and len(declared) != len(keys):
        ex.error(loc, f"track `{track}` is kept by {len(declared)} key(s) "
                 f"({', '.join(map(str, declared)) or 'none'}); `of` gives {len(keys)}", len(track))
    resolved = []
    for i, k in enumerate(keys):
        is_fact = k in builder.schema.facts
        if is_fact:
            ex.reads.append((ex.owner, k, loc))  # held to the owner's inputs, as a condition is
        elif declared is not None and i < len(declared):
            allowed = world.get("sides", ()) if declared[i] == "side" else declared[i]
            if k not in allowed:
                ex.error(loc, f"track `{track}`: `{k}` is neither a fact nor a key "
                         f"({', '.join(allowed)})" + ex.suggest(k, allowed), len(track))
        resolved.append((is_fact, k))
    return tuple(resolved)


def key_values(env: Any, keys: tuple[tuple[bool, str], ...]) -> list[str]:
    """The keys of a track line for the evaluation ``env`` (a fact's value, else the literal key)."""
    return [str(_read(env, k)) if is_fact else k for is_fact, k in keys]


def fire(triggers: tuple[TriggerCode, ...], env: Any) -> list[dict[str, Any]]:
    """The effects of ``triggers`` whose condition holds in ``env``, in script order:
    ``[{"effect", "arg", "cases", "source", "text"}]``, plus ``level`` and ``reason`` for
    ``end_game`` and ``amount`` (an int) and ``keys`` (names) for ``add_to_track``."""
    out = []
    for t in triggers:
        if t.cond is None or t.cond(env, None):
            e: dict[str, Any] = {"effect": t.effect, "arg": t.arg, "cases": list(t.code.cases),
                                 "source": t.code.source, "text": t.code.text}
            p = dict(t.params)
            if t.effect == "end_game":
                e.update(level=p["level"], reason=p["reason"])
            elif t.effect == "add_to_track":
                amount = p["amount"](env, None)
                if amount != int(amount):
                    raise TypeError(f"{t.code.source}: the amount {amount} added to track {t.arg} is not whole")
                e.update(amount=int(amount),
                         keys=key_values(env, p["keys"]))
            out.append(e)
    return out


def _read(env: Any, name: str) -> Any:
    """Fact ``name`` of the evaluation (the caller's, else the standard facts)."""
    if name in env.facts:
        return env.facts[name]
    if env.std is not None and name in env.std:
        return env.std[name]
    from .values import MissingFactError

    raise MissingFactError(f"the fact `{name}` a track key reads was not given")


def explain_triggers(triggers: tuple[TriggerCode, ...], env: Any) -> list[dict[str, Any]]:
    """Every trigger of an event, fired or not, for an answer that explains them line by line:
    ``[{"source", "cases", "text", "event", "effect", "arg", "fires"}]`` in script order."""
    return [{"source": t.code.source, "cases": list(t.code.cases), "text": t.code.text, "event": t.event,
             "effect": t.effect, "arg": t.arg, "fires": bool(t.cond is None or t.cond(env, None))}
            for t in triggers]
