"""A game's tracks: named counters declared in the manifest's ``vocabulary: tracks:``.

The core names no track. A game declares each of its tracks (docs/content-format.md,
"Vocabulary") with the keys it is kept by, its bounds and where they come from::

    vocabulary:
      tracks:
        supply_points: {keys: [side], low: 0, high: 12, provenance: "reconstructed: …"}
        morale: {provenance: "reconstructed: …"}          # a single counter, 0..unbounded
        reserves: {keys: [side, [foot, horse]], high: limit_quantity, provenance: "…"}

``keys`` lists, outermost first, what the track is kept by: ``side`` (the vocabulary's sides) or
a list of names (``[normal, special]``); no keys is a single counter. ``low`` defaults to 0;
``high`` is an int, a rule-script quantity whose unconditional ``at most`` is the maximum (one
source: the script, whose cases the bound then cites), or absent (unbounded).

A position keeps each track at its top level under the track's name (``supply_points: {blue: 3,
red: 0}``, ``morale: 2``). :func:`track_bounds` resolves the bounds under the compiled rules;
:func:`track_problems` checks a position's track keys and values against the declaration.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from casebook.core.errors import Problem
from casebook.core.state import TrackBound

__all__ = ["TrackDecl", "TrackBound", "tracks_of", "track_bounds", "track_problems"]


@dataclass(frozen=True)
class TrackDecl:
    """A declared track: ``keys`` (each ``"side"`` or a tuple of names), ``low``, ``high`` (an int,
    a script quantity's name, or None) and the declaration's ``provenance``."""

    name: str
    keys: tuple[str | tuple[str, ...], ...] = ()
    low: int = 0
    high: int | str | None = None
    provenance: str | None = None


def tracks_of(vocabulary: Mapping[str, Any]) -> dict[str, TrackDecl]:
    """The :class:`TrackDecl` of each track of a (validated) ``vocabulary:`` block, in order."""
    out = {}
    for name, spec in (vocabulary.get("tracks") or {}).items():
        spec = spec or {}
        keys = tuple(k if isinstance(k, str) else tuple(str(x) for x in k) for k in spec.get("keys") or ())
        out[str(name)] = TrackDecl(str(name), keys, int(spec.get("low", 0)), spec.get("high"),
                                   spec.get("provenance"))
    return out


def _cap(rules: Any, quantity: str) -> tuple[int | None, tuple[str, ...]]:
    q = getattr(rules, "quantities", {}).get(quantity) if rules is not None else None
    for bound in getattr(q, "bounds", ()):
        if bound.kind == "at_most" and bound.cond is None and bound.high is not None:
            from casebook.script.values import Env

            try:
                value = bound.high(Env({}, None, rules), None)
            except Exception:  # a bound that reads facts is not a constant maximum
                continue
            if isinstance(value, int) and not isinstance(value, bool):
                return value, tuple(bound.code.cases)
    return None, ()


def track_bounds(decls: Mapping[str, TrackDecl], rules: Any = None) -> dict[str, TrackBound]:
    """The resolved bounds of each declared track under compiled ``rules`` (a ``high`` naming a
    quantity is that quantity's constant ``at most``; unresolvable without rules: unbounded)."""
    from casebook.content.schema_base import cited_cases

    out = {}
    for name, d in decls.items():
        cases = tuple(cited_cases(d.provenance)) if d.provenance else ()
        high: int | None
        if isinstance(d.high, str):
            high, by = _cap(rules, d.high)
            cases = by or cases
        else:
            high = d.high
        out[name] = TrackBound(name, d.low, high, cases, len(d.keys))
    return out


Locate = Callable[[tuple], tuple[str, int, int]]


def _problem(locate: Locate, kp: tuple, message: str) -> Problem:
    file, line, col = locate(kp)
    return Problem(file, line, col, ".".join(map(str, kp)), message)


def _walk(value: Any, decl: TrackDecl, sides: Sequence[str], kp: tuple, bound: TrackBound,
          locate: Locate, out: list[Problem]) -> None:
    from casebook.content.vocabulary import choice_problem

    level = len(kp) - 1
    if level < len(decl.keys):
        spec = decl.keys[level]
        if not isinstance(value, Mapping):
            what = "a side" if spec == "side" else "one of " + ", ".join(spec)
            out.append(_problem(locate, kp, f"expected a mapping by {what}, got {value!r}"))
            return
        allowed = tuple(sides) if spec == "side" else tuple(spec)
        for key, v in value.items():
            msg = choice_problem(key, allowed)
            if msg:
                out.append(_problem(locate, (*kp, key), msg))
            else:
                _walk(v, decl, sides, (*kp, key), bound, locate, out)
        return
    if not isinstance(value, int) or isinstance(value, bool):
        out.append(_problem(locate, kp, f"expected an int, got {value!r}"))
    elif value < bound.low:
        out.append(_problem(locate, kp, f"{value} is below the track's minimum {bound.low}"))
    elif bound.high is not None and value > bound.high:
        by = f" ({', '.join(bound.cases)})" if bound.cases else ""
        out.append(_problem(locate, kp, f"{value} is above the track's maximum {bound.high}{by}"))


def track_problems(data: Mapping[str, Any], decls: Mapping[str, TrackDecl], sides: Sequence[str],
                   locate: Locate, *, fixed: Collection[str], rules: Any = None) -> list[Problem]:
    """Every problem of the tracks of position ``data``: a top-level key neither in ``fixed`` (the
    position format's own keys) nor a declared track ("unknown key", with a did-you-mean), a
    track key outside its declared domain, a value that is not an int within its bounds."""
    from casebook.content.schema import did_you_mean

    bounds = track_bounds(decls, rules)
    out: list[Problem] = []
    for key, value in data.items():
        if key in fixed or value is None:
            continue
        if key not in decls:
            hint = did_you_mean(str(key), [*decls, *fixed])
            out.append(_problem(locate, (key,), f"unknown key {key!r}: not a key of a position nor a track "
                                f"this game declares (tracks: {', '.join(decls) or 'none'}){hint}"))
            continue
        _walk(value, decls[key], sides, (key,), bounds[key], locate, out)
    for name, decl in decls.items():  # unset is 0: below a positive minimum
        if not decl.keys and data.get(name) is None and decl.low > 0:
            out.append(_problem(locate, (), f"track {name!r} is unset (0), below its minimum {decl.low}: "
                                f"give it a value (`{name}: {decl.low}`)"))
    return out
