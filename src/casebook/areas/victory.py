"""Shared rules area ``area_victory``: victory by holding hexes — automatic victory the moment a
side controls a hex, and victory at the end of the last turn by the hexes each side controls —
configured by the game's records table ``victory_hexes`` (``hex``, ``when``: ``immediate`` or
``end``, ``side``: who wins by taking an ``immediate`` hex, ``cases``: what the row applies).

Control is the shared ``area_control``'s (:func:`casebook.areas.control.controller`). The game
ends after the scenario's ``last_turn`` (citing the game's ``end_of_game`` lines); then the side
controlling more ``end`` hexes wins, equal numbers are a draw. The area holds no case id.

Public API: :func:`verdict`, :func:`automatic_winner`. Answers ``casebook ask … victory``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ConfigDict
from typing_extensions import TypedDict

from casebook.content.schema_base import Model
from casebook.core.hooks import hookimpl

from ._zoc_cites import line_cases
from .control import controller

__all__ = ["STATE_SCHEMA", "REQUIRES", "QUESTIONS", "TABLES", "VICTORY_SCHEMA", "STEPS", "automatic_winner", "last_turn",
           "track_lines", "verdict"]

QUESTIONS = {"victory": "victory — who controls the victory hexes, and who would win now"}
PLUGIN = "area_victory"
#: The records tables this area reads (``casebook cases`` counts the cases their rows cite).
TABLES = ("victory_hexes",)
#: What the pack must hold for this area (src/casebook/content/requires.py).
REQUIRES = {"tables": list(TABLES)}
#: The sequence steps this area acts in: none of its own (it judges at every step's end).
STEPS: tuple[str, ...] = ()


class VictoryBlock(Model):
    """The scenario's ``victory:`` block: nothing but its ``provenance`` — the victory hexes are
    the records table ``victory_hexes``, the end the scenario's ``last_turn``; any other key
    (``hexes: 3``) is an error with a did-you-mean (``casebook lint``)."""


#: The scenario's ``victory:`` block (checked by ``casebook lint``, src/casebook/content/requires.py).
VICTORY_SCHEMA = VictoryBlock


def _rows(ctx: Any, when: str) -> list[Mapping[str, Any]]:
    return [r for r in ctx.records("victory_hexes") if r.get("when") == when]


def automatic_winner(ctx: Any) -> dict[str, Any] | None:
    """The first ``immediate`` row whose ``side`` controls its hex: ``{"winner", "hex", "cases"}``,
    or None."""
    for row in _rows(ctx, "immediate"):
        if controller(ctx, str(row["hex"])) == row["side"]:
            return {"winner": str(row["side"]), "hex": str(row["hex"]), "cases": [str(c) for c in row.get("cases") or ()]}
    return None


def verdict(ctx: Any) -> dict[str, Any]:
    """Who wins if the game ended now: ``{"winner", "level", "reason", "cases", "hexes": {hex:
    side or None}, "held": {side: n}}`` — an automatic victory first, else the side holding more
    ``end`` hexes; equal: a draw (``winner`` None)."""
    end = _rows(ctx, "end")
    hexes = {str(r["hex"]): controller(ctx, str(r["hex"])) for r in end}
    sides = list(ctx.pack.vocabulary.side_ids or ctx.state.sides)
    held = {s: sum(1 for v in hexes.values() if v == s) for s in sides}
    auto = automatic_winner(ctx)
    if auto is not None:
        return {"winner": auto["winner"], "level": "automatic victory", "cases": auto["cases"], "hexes": hexes,
                "held": held, "reason": f"{auto['winner']} controls {auto['hex']}"}
    cases = list(dict.fromkeys(str(c) for r in end for c in r.get("cases") or ()))
    best = max(held.values(), default=0)
    leaders = [s for s, n in held.items() if n == best]
    if len(leaders) == 1 and best > 0:
        winner = leaders[0]
        reason = f"{winner} controls {best} of the {len(end)} victory hexes"
    else:
        winner, reason = None, f"the victory hexes are split ({', '.join(f'{s} {n}' for s, n in held.items())}): a draw"
    return {"winner": winner, "level": "victory" if winner else "draw", "reason": reason, "cases": cases,
            "hexes": hexes, "held": held}


# ------------------------------------------------------------------------------------- hooks
def last_turn(ctx: Any) -> int | None:
    """The scenario's last turn (its ``last_turn``, a model or a mapping), None when it has none."""
    info = ctx.state.scenario
    last = getattr(info, "last_turn", None) if info is not None and not isinstance(info, Mapping) \
        else (info or {}).get("last_turn")
    return None if last is None else int(last)


@hookimpl
def casebook_turn_end(ctx: Any, turn: int) -> None:
    """The game ends after the scenario's last turn."""
    last = last_turn(ctx)
    if last is not None and turn >= last:
        ctx.state.set_plugin_data(PLUGIN, {"final": True})


@hookimpl
def casebook_game_result(ctx: Any) -> dict[str, Any] | None:
    auto = automatic_winner(ctx)
    if auto is not None:
        return {"winner": auto["winner"], "level": "automatic victory",
                "reason": f"{auto['winner']} controls {auto['hex']}", "cases": auto["cases"]}
    if not (ctx.state.plugin_data(PLUGIN) or {}).get("final"):
        return None
    v = verdict(ctx)
    return {"winner": v["winner"], "level": v["level"], "reason": v["reason"],
            "cases": list(dict.fromkeys([*line_cases(ctx, ("end_of_game",)), *v["cases"]]))}


def _track_value(ctx: Any, name: str, levels: tuple[Any, ...], keys: tuple[str, ...]) -> Any:
    """Track ``name`` as the rules and play read it (``state.track``: 0 where unset), nested by
    each declared key (``side``: the game's sides) — a scenario start's unset ``engineers`` is
    ``{blue: 0, red: 0}``, not none."""
    if not levels:
        return ctx.state.track(name, *keys)
    names = ctx.pack.vocabulary.side_ids if levels[0] == "side" else levels[0]
    return {k: _track_value(ctx, name, levels[1:], (*keys, k)) for k in names}


def track_lines(ctx: Any) -> dict[str, Any]:
    """The game's tracks and its ``when step ends`` rule lines, for ``ask … victory``: ``{"tracks":
    {track: value (an int, or nested by its keys)}, "step_lines": [{"source", "cases", "text",
    "effect", "arg", "fires"}]}`` — ``fires``: whether the line would fire if the current step
    ended now (``phase``/``step`` of the position; a scenario not yet begun: the sequence's first
    step). Empty (``{}``) for a game with neither."""
    out: dict[str, Any] = {}
    tracks = {name: _track_value(ctx, name, decl.keys, ())
              for name, decl in ctx.pack.vocabulary.tracks.items()} or dict(ctx.state.tracks())
    if tracks:
        out["tracks"] = tracks
    phase, step = ctx.state.phase, ctx.state.step
    if phase is None or step is None:
        first = ctx.engine.sequence.phases[0]
        phase, step = first.id, first.steps[0].id
    facts = {"phase": phase, "step": step}
    rules, tables = ctx.engine.rules, ctx.engine.script_tables
    lines = rules.explain_event("step_ends", facts, tables, ctx.standard)
    if lines:
        amounts = {e["source"]: e.get("amount") for e in rules.fire("step_ends", facts, tables, ctx.standard)}
        out["step_lines"] = [{**{k: line[k] for k in ("source", "cases", "text", "effect", "arg", "fires")},
                              "amount": amounts.get(line["source"])} for line in lines]
    return out


@hookimpl
def casebook_answer(ctx: Any, question: str, args: Sequence[str], options: Mapping[str, Any]) -> Any:
    """``ask … victory``: :func:`verdict`, with the game's tracks and ``when step ends`` lines
    (:func:`track_lines`) where it has them."""
    return {**verdict(ctx), **track_lines(ctx)} if question == "victory" else None


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.area_victory``: ``final`` once the last turn is over."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    final: bool
