"""A saved play resumed for ``casebook serve`` (its ``--load`` and the page's Load): the save checked
whole as ``play --load`` checks it, its trace continued, the start undo replays from, and the label
the page gives the position (the scenario it names, else the file's name, :func:`position_label`)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from casebook.core.errors import CasebookError

__all__ = ["initial_of", "load_state", "position_label"]


def position_label(state: Any, path: Path | None = None) -> str:
    """What the page and ``serve``'s first line call the play: the scenario its position names
    (``scenario: {id: …}``), else — a hand-made position that names none, played on the game's first
    scenario's turns (tools/saves.start_trace, as ``play --load`` plays it) — ``position FILE`` (the
    file's name), or ``position`` when no file is known."""
    named = state.data.scenario_id
    if named:
        return str(named)
    return f"position {path.name}" if path is not None else "position"


def load_state(game: Any, path: Path, humans: Iterable[str] = ()) -> Any:
    """The play saved at ``path`` (with its trace ``path.trace.jsonl`` when present) resumed on
    ``game``, ``humans`` the sides people play (settled knowing them: a template-only decision of
    theirs is asked, core/game.py ``State.humans``); ServeError if the file is not a valid
    position of this game."""
    from casebook.content.position import position_to_dict
    from casebook.content.savecheck import load_save
    from casebook.tools.save_faults import missing_field, refuse_truncated
    from casebook.tools.saves import resume_trace, start_trace, with_humans
    from casebook.tools.web.session import ServeError, _one_line

    humans = list(humans)
    if not path.is_file():
        raise ServeError(f"{path}: no such file (or not a file)")
    try:
        refuse_truncated(path)  # play --load's check: a save cut short is refused whole
        pos = load_save(path, game.engine)  # checked whole as a save, as play --load and ask do
        if pos.game != game.engine.pack.id:
            raise ServeError(f"{path}: a position of {pos.game!r}, not of {game.engine.pack.id!r}")
        trace, data = resume_trace(path, position_to_dict(pos))  # play --load's check of the trace
        other = pos.scenario.id if pos.scenario is not None else game.scenario
        if other != game.scenario and other in game.engine.pack.scenarios:
            from casebook.core.game import Game

            game = Game(game.engine, other)
        if not len(trace):  # a hand-made position: its trace starts with it (tools/saves.start_trace)
            trace, data = start_trace(data, game.engine.pack.id, game.scenario if pos.scenario else None, humans)
        trace = with_humans(trace, humans)  # the sides people played, for replay
        state = game.state_from_dict(data, trace, humans=humans)
        if len(trace) and trace[0].kind == "setup":  # undo reaches back before the load
            from casebook.core.actions import parse_action

            state.history = [parse_action(e.data["action"]) for e in trace if e.kind == "action"]
        return state
    except (CasebookError, ValueError, KeyError) as exc:
        found = missing_field(path, exc)  # a hand-edited position without a field the rules read
        raise ServeError(str(found).splitlines()[0] if found else f"{path}: {_one_line(exc)}") from None


def initial_of(state: Any, humans: frozenset[str] = frozenset()) -> Any:
    """The game's start that a resumed play's trace begins with (its setup event's seed and fixed
    rolls), from which undo replays the history — or None for a play without one (a new game,
    or a save without its trace): then undo stops at the load."""
    from casebook.tools.saves import initial_state

    trace = state.trace
    if not state.history or not len(trace) or trace[0].kind != "setup":
        return None
    return initial_state(state.game, trace[0], humans=humans)
