"""Checks of an action a person typed (``casebook play``'s prompt, ``casebook serve``'s page),
made before the rules judge it: what is wrong with the *input* itself, said in words that name
the argument — never a rules refusal (those come from ``State.why_not`` with their cases).

- :func:`empty_argument` — ``units=`` with nothing after it: "units= is empty".
- :func:`unknown_kind` — a kind this game has no rule for: "unknown action mvoe; did you mean
  move? (offered now: …)". A kind is known when the current step offers it (a listed action or a
  template), a rules plugin's validator refuses it by its own words (``State.why_not`` says
  more than the step's generic "not among the legal actions") or a rules area makes it only in
  other steps (an attack in a movement step: ``ask_why.step_note`` names them); the suggestion is the closest
  such kind one edit away (a transposition, a letter left out, added or changed), else the
  closest kind offered now.
- :func:`bad_hexes` — a hex argument (``hex``, ``stack``, ``stacks``, ``path``, ``to``) that is not
  a hex label or not on the map: "hex=9999: hex 9999 is not on the map (hexes 0108..4053)".
- :func:`bad_units` — a unit argument (``unit``, ``units``, ``with``, ``hq``) naming a unit the
  game does not have ("did you mean" a unit of the position), or a list naming one unit twice (it would be counted
  twice: two stacking points, two strengths).

:func:`typed_problem` runs the three on an action; None when the input is well formed. A refused
input changes nothing: the caller reports it and asks again.
"""

from __future__ import annotations

import difflib
import re
import string
from collections.abc import Iterable
from typing import Any

from casebook.core.actions import Action

__all__ = ["HEX_ARGS", "UNIT_ARGS", "bad_hex_values", "bad_hexes", "bad_units", "empty_argument", "offered_kinds",
           "typed_problem", "unknown_kind"]

#: Arguments whose values are hexes (docs/actions.md: ``HEX``).
HEX_ARGS = ("hex", "stack", "stacks", "path", "to")
#: Arguments whose values are unit ids (docs/actions.md: ``ID``); lists among them name each unit once.
UNIT_ARGS = ("unit", "units", "with", "hq")
_LISTS = ("units", "with")
_EMPTY = re.compile(r"(?:^|\s)([A-Za-z_][\w-]*)=(?=\s|$)")
_GENERIC = "not among the legal actions"
_LETTERS = string.ascii_lowercase + "-"


def empty_argument(text: str) -> str | None:
    """``units=`` (a name with no value) in the typed ``text``: what to do instead; else None."""
    m = _EMPTY.search(text)
    if m is None:
        return None
    name = m.group(1)
    what = "unit" if name in UNIT_ARGS else "hex" if name in HEX_ARGS else "value"
    return f"{name}= is empty: name at least one {what} after it, or leave {name}= out"


def offered_kinds(state: Any) -> list[str]:
    """The action kinds the current step offers its decider: listed actions and templates."""
    templates = state.action_templates() if hasattr(state, "action_templates") else []
    return list(dict.fromkeys([*(a.kind for a in state.legal_actions()), *(t.kind for t in templates)]))


def _generic(reason: str) -> bool:
    return reason.startswith(_GENERIC) and "malformed action" not in reason


def _edits(word: str) -> Iterable[str]:
    """Every word one edit away from ``word`` (letters and ``-``)."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    yield from (a + b[1:] for a, b in splits if b)
    yield from (a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1)
    yield from (a + c + b[1:] for a, b in splits if b for c in _LETTERS)
    yield from (a + c + b for a, b in splits for c in _LETTERS)


def _validated(engine: Any, ctx: Any, probe: Action) -> bool:
    """Whether some rules plugin's validator refuses ``probe`` (an action with no arguments) by
    its own words — or cannot read it: it reads that kind's arguments, so it knows the kind."""
    try:
        return any(engine.hook.casebook_validate_action(ctx=ctx, action=probe))
    except Exception:  # noqa: BLE001 - a validator reading the missing arguments of its own kind
        return True


def unknown_kind(state: Any, action: Action) -> str | None:
    """"unknown action X; did you mean Y? (offered now: …)" when no rule of the game knows
    ``action``'s kind (module docstring); None when one does."""
    from casebook.tools.ask_why import step_note

    offered = offered_kinds(state)
    if action.kind in offered or action.kind == "pass" or not _generic(state.why_not(action)[1]):
        return None
    if step_note(state, action) is not None:  # made only in other steps (an attack in a movement step)
        return None
    engine = state.game.engine
    ctx = engine.ctx(state.data)
    known: list[str] = []
    for kind in dict.fromkeys(_edits(action.kind)):
        if kind and kind != action.kind and kind not in offered and _validated(engine, ctx, Action(kind, action.side)):
            known.append(kind)
    close = difflib.get_close_matches(action.kind, known, n=1, cutoff=0.5) or \
        difflib.get_close_matches(action.kind, offered, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]}?" if close else ""
    return f"unknown action {action.kind}{hint} (offered now: {', '.join(offered) or 'nothing'})"


def bad_hexes(state: Any, action: Action) -> str | None:
    """The first hex argument that is not a hex label or not on the map, in words; else None."""
    grid = state.game.engine.board_for(state.data).grid
    for name in HEX_ARGS:
        problem = bad_hex_values(grid, name, action.values_of(name))
        if problem is not None:
            return problem
    return None


def bad_hex_values(grid: Any, name: str, labels: list[str]) -> str | None:
    """The first of ``labels`` (the values of hex argument ``name``) that is not a hex label or
    not on ``grid``, in words ("hex=9999: hex 9999 is not on the map (hexes …)"); else None."""
    from casebook.core.hexgrid import parse_hex

    for label in labels:
        try:
            h = parse_hex(label)
        except ValueError:
            return f"{name}={','.join(labels)}: {label!r} is not a hex label (four digits, column then row)"
        if not grid.contains(h):
            return f"{name}={','.join(labels)}: hex {label} is not on the map ({grid.describe()})"
    return None


def bad_units(state: Any, action: Action) -> str | None:
    """A unit argument naming a unit the game does not have (the suggestion: a unit of the
    position, never a counter that is not in it), or a list naming one twice; else None."""
    data = state.data
    counters = state.game.engine.pack.counters
    for name in UNIT_ARGS:
        ids = action.values_of(name)
        for uid in ids:
            if not data.has_unit(uid) and uid not in counters:
                close = difflib.get_close_matches(uid, [str(u["id"]) for u in data.units], n=1, cutoff=0.6)
                hint = f"; did you mean {close[0]}?" if close else ""
                return f"{name}={_text(action, name)}: {_quote(uid)} is not a unit of this game{hint}"
        if name in _LISTS:
            twice = [u for i, u in enumerate(ids) if u in ids[:i]]
            if twice:
                return (f"{name}={_text(action, name)} names {twice[0]} twice: a unit is named once "
                        f"(it would count twice)")
    return None


def _quote(text: str) -> str:
    """``text`` as typed, quoted only when it holds a space or is empty."""
    return text if text and " " not in text else repr(text)


def _text(action: Action, name: str) -> str:
    return ",".join(action.values_of(name))


def typed_problem(state: Any, action: Action) -> str | None:
    """What is wrong with the typed ``action`` as input (an unknown kind, a hex off the map, an
    unknown or repeated unit), or None: the rules judge it then. An action the rules hold legal
    is never refused for a hex or a unit they know (a remnant's id, say) — but a unit named twice
    is (they would count it twice), unless the rules' own refusal already says so with its
    cases (10.3A: an attacker named twice)."""
    problem = unknown_kind(state, action) or bad_hexes(state, action) or bad_units(state, action)
    if problem is None or problem.startswith("unknown action"):
        return problem
    reason = state.why_not(action)[1]
    if "twice" in problem:
        return None if re.search(r"twice|more than once", reason) else problem
    return None if reason == "legal" else problem
