"""``casebook replay TRACE`` — re-execute a play from its seed and actions and check the trace.

The trace must start with the ``setup`` event of a play (it names the game, the scenario and the
seed; a play ``--load``-ed from a position without a trace of its own — a hand-made one — also
holds that position, and replay starts from it: tools/saves.start_trace; the sides people played,
``humans``, are asked as in play: tools/saves.asked_passes). Every ``action`` event is applied again in order; the new trace
must equal the recorded one event by event. Exit 0 when identical; exit 1 at the first
divergence, naming its sequence number and both versions of the event. A trace that stops before
the game's end must stop where a save beside it stands (an interrupted play, a ``save``);
otherwise it is incomplete (cut short, say) and refused, naming where it stops. ``--partial``
accepts a trace cut anywhere — between events, in the middle of the game's automatic work, or in
the middle of a line (the cut line is left out): it replays up to the last complete event. A
divergence adds ``explain``'s hints that the pack changed (cmd_explain.pack_hint).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from casebook.core.errors import CasebookError, IllegalActionError, PositionError

__all__ = ["replay", "replay_trace", "read_cut", "read_whole", "cut_message", "save_point", "END_EVENT"]


#: plugin_state slots of a save that are not the position (casebook.tools.saves)
LINKS = ("trace", "pack")
#: The event that ends a game's trace (src/casebook/core/game.py).
END_EVENT = "game-over"
_HINT = " (if the game was played from a copied or edited pack, name it: --pack DIR)"


def replay_trace(path: Path, pack: Path | None = None, partial: bool = False) -> tuple[bool, str]:
    """(identical?, message) for the trace file at ``path``, replayed on the installed game its
    setup event names, or on the pack folder ``pack`` (which must have that game id). A trace must
    be whole: end with the game's ``game-over`` event, or stop where a save beside it
    (:func:`save_point`) stands; one cut short is refused as incomplete, saying where it stops,
    unless ``partial``."""
    from casebook.content.confine import is_game_id
    from casebook.core.actions import parse_action
    from casebook.core.errors import shown_path
    from casebook.core.game import Game
    from casebook.tools.runtime import tune_gc

    shown = shown_path(path)
    recorded, cut = read_cut(path)
    if cut and not partial:
        return False, cut_message(shown, cut) + " (--partial replays up to the last complete event)"
    if len(recorded) == 0 or recorded[0].kind != "setup":
        return False, f"{shown}: the trace does not start with a setup event (a play started from a scenario)"
    setup = recorded[0].data
    problem = _setup_problem(setup)
    if problem:
        return False, f"{shown}:1: {problem}"
    if pack is not None:
        from casebook.content.loader import load_pack

        found = load_pack(pack).id
        if found != setup["game"]:
            return False, f"{shown_path(pack)} is a pack of {found!r}, the trace a game of {setup['game']!r}"
    assert is_game_id(setup["game"])
    from casebook.tools.saves import trace_pack

    chosen = trace_pack(path, setup["game"], pack)  # --pack, a pack above it, a save's record, the installed game
    hint = "" if isinstance(chosen, Path) else _HINT
    game = Game.load(str(chosen), setup["scenario"])
    tune_gc()  # src/casebook/tools/runtime.py
    from casebook.tools.saves import asked_passes, initial_state

    try:  # the scenario's setup, or the position a play --load began from; its people asked as in play
        state = initial_state(game, recorded[0], humans=setup.get("humans") or ())
    except PositionError as exc:  # the position the setup event holds: located at the trace's line 1
        from dataclasses import replace

        raise PositionError([replace(p, file=shown, line=1, column=0, key=f"position.{p.key}".rstrip("."))
                             for p in exc.problems]) from None
    asked_passes(state, recorded)
    checked = 0

    def hinted(message: str, upto: int, replayed: Any = None) -> str:
        """``message`` and what tells that the pack changed since the game was played, judged on
        the recorded events up to ``upto`` (``explain``'s warnings: cmd_explain.pack_hint)."""
        from casebook.tools.cmd_explain import pack_hint

        try:
            notes = pack_hint(path, setup["game"], chosen, list(recorded)[:upto], replayed)
        except (CasebookError, OSError, ValueError):  # the divergence is said all the same
            notes = []
        return "\n  ".join([message, *notes])

    def first_difference() -> str | None:
        """The first event of the replay (so far) that differs from the recorded one."""
        nonlocal checked
        new = state.trace
        for i in range(checked, min(len(recorded), len(new))):
            if recorded[i] != new[i]:
                return hinted(f"seq {recorded[i].seq}: events differ{hint}\n  recorded: {recorded[i].to_json()}\n"
                              f"  replayed: {new[i].to_json()}", i + 1, new[i])
        checked = min(len(recorded), len(new))
        return None

    for at, event in enumerate(recorded):
        if event.kind != "action":
            continue
        differs = first_difference()
        if differs:
            return False, differs
        if state.is_terminal():
            return False, f"seq {event.seq}: the replayed game was already over before this action"
        action = event.data.get("action")
        if not isinstance(action, str):
            return False, f"seq {event.seq}: an action event without an action text"
        try:
            state.apply(parse_action(action))
        except (IllegalActionError, ValueError) as exc:
            refused = f"seq {event.seq}: the recorded action was refused on replay: {exc}{hint}"
            return False, first_difference() or hinted(refused, at + 1)
        asked_passes(state, recorded)  # a person's pass where a template asked them (core/play.py)
    differs = first_difference()
    if differs:
        return False, differs
    last = recorded[len(recorded) - 1]
    if len(recorded) > len(state.trace):
        return False, (f"{shown}:{len(state.trace) + 1}: the replay ends after {len(state.trace)} events, "
                       f"the trace has {len(recorded)}")
    if len(recorded) < len(state.trace):  # cut inside the game's own work after a decision
        where = (f"it stops at seq {last.seq} (turn {last.turn}, {last.phase} / {last.step}) in the middle of "
                 f"the game's work after a decision (the replay goes on to {len(state.trace)} events)")
        if partial:
            return True, (f"{shown}: {len(recorded)} events replayed identically; the trace is incomplete: "
                          f"{where}" + (f"; line {cut} was cut short and left out" if cut else ""))
        return False, (f"{shown}:{len(recorded)}: the trace is incomplete: {where}; its {len(recorded)} events "
                       f"replay identically (--partial accepts a trace cut short)")
    if last.kind == END_EVENT:
        return True, f"{shown}: {len(recorded)} events replayed identically"
    save = save_point(path, state)
    if save is not None:
        return True, (f"{shown}: {len(recorded)} events replayed identically, up to the save {save} "
                      f"(turn {state.data.turn}, the game unfinished)")
    where = (f"it stops at seq {last.seq} (turn {last.turn}, {last.phase} / {last.step}, "
             f"{state.current_player()} to decide) before the game's end")
    if partial:
        return True, (f"{shown}: {len(recorded)} events replayed identically; the trace is incomplete: {where}"
                      + (f"; line {cut} was cut short and left out" if cut else ""))
    return False, (f"{shown}: the trace is incomplete: {where}, and no save beside it records that point; "
                   f"its {len(recorded)} events replay identically (--partial accepts a trace cut short)")


def read_cut(path: Path) -> tuple[Any, int | None]:
    """(trace, cut line) of the trace file at ``path``: a last line without its newline that is
    not a whole JSON event is a cut line — left out, its 1-based number returned (else None).
    Any other bad line raises :class:`~casebook.content.tracefile.TraceError` (``file:line: what``)."""
    from casebook.content.tracefile import TraceError, loads_trace
    from casebook.core.errors import shown_path

    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise TraceError(f"{shown_path(path)}:1: not UTF-8 text ({exc.reason})") from None
    head, _, tail = text.rpartition("\n")
    if tail.strip():  # the last line has no newline: whole or cut?
        try:
            json.loads(tail)
        except (ValueError, RecursionError):
            return loads_trace(head + "\n" if head else "", name=shown_path(path)), text.count("\n") + 1
    return loads_trace(text, name=shown_path(path)), None


def cut_message(shown: str, cut: int) -> str:
    """The one-line ``file:line: …`` message of a trace whose line ``cut`` is cut short."""
    return f"{shown}:{cut}: the line is cut short (not a whole event); the trace stops in the middle of line {cut}"


def read_whole(path: Path) -> Any:
    """The trace at ``path`` (:func:`read_cut`), refused whole when its last line is cut short:
    :class:`~casebook.content.tracefile.TraceError` with :func:`cut_message` (what ``explain`` and
    ``cases`` of a trace say; ``replay --partial`` is the command that accepts a cut trace)."""
    from casebook.content.tracefile import TraceError
    from casebook.core.errors import shown_path

    trace, cut = read_cut(path)
    if cut:
        raise TraceError(cut_message(shown_path(path), cut))
    return trace


def save_point(path: Path, state: Any) -> Path | None:
    """The save beside the trace ``path`` that records exactly the position ``state`` (a replay of
    that trace) stopped at, or None: ``SAVE`` for ``SAVE.trace.jsonl`` (``play``'s ``save`` and
    ``--load``), ``final.yaml`` for a play's ``trace.jsonl``. Compared in the canonical form of a
    save, but for ``players`` (who played is not part of the position) and the save's links to its
    trace and pack (tools/saves.py)."""
    from casebook.content.position import dump_save
    from casebook.content.yamlio import read_yaml
    from casebook.core.state import SAVE_MARK
    from casebook.tools.saves import saves_beside

    text = None
    for candidate in saves_beside(path):
        if not candidate.is_file():
            continue
        doc, problems = read_yaml(candidate)
        if doc is None or problems or not isinstance(doc.data, dict):
            continue
        saved = {k: v for k, v in doc.data.items() if k not in ("players", SAVE_MARK)}  # the file's mark too
        if isinstance(saved.get("plugin_state"), dict):  # the save's links to its trace and pack
            saved["plugin_state"] = {k: v for k, v in saved["plugin_state"].items() if k not in LINKS}
        text = text if text is not None else dump_save({k: v for k, v in state.to_dict().items() if k != "players"})
        if dump_save(saved) == text:
            return candidate
    return None


def _setup_problem(setup: dict) -> str | None:
    """What is wrong with a setup event's data (game id, scenario id — or None, a hand-made
    position's —, seed, the human sides), or None."""
    from casebook.content.confine import is_game_id
    from casebook.tools.saves import START_FIELD

    if not is_game_id(setup.get("game")):
        return (f"setup: game must be a game id such as 'moscow41', got {setup.get('game')!r} "
                "(a pack folder is given by --pack)")
    if not isinstance(setup.get("scenario"), str) and not (setup.get("scenario") is None and START_FIELD in setup):
        return f"setup: scenario must be a scenario id, got {setup.get('scenario')!r}"
    humans = setup.get("humans", [])
    if not isinstance(humans, list) or not all(isinstance(s, str) for s in humans):
        return f"setup: humans must be a list of the sides people played, got {humans!r}"
    seed = setup.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        return f"setup: seed must be an int >= 0, got {seed!r}"
    return None


@click.command("replay")
@click.argument("trace", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--pack", type=click.Path(exists=True, file_okay=False, resolve_path=True, path_type=Path), default=None,
              help="The pack folder the game was played from (default: the installed game).")
@click.option("--partial", is_flag=True,
              help="Accept a trace cut short (no game end, no save beside it) that replays identically.")
def replay(trace: Path, pack: Path | None, partial: bool) -> int:
    """Re-execute TRACE from its seed and actions; exit 1 at the first divergence, or when TRACE
    stops before the game's end with no save beside it (SAVE for SAVE.trace.jsonl, final.yaml for
    a play's trace.jsonl) at that point, unless --partial."""
    from casebook.content.tracefile import TraceError
    from casebook.core.errors import ContentError

    try:
        ok, message = replay_trace(trace, pack, partial)
    except (TraceError, ContentError):
        raise  # already "file:line: what" (printed by the command line, exit 1)
    except (CasebookError, KeyError, ValueError) as exc:
        from casebook.core.errors import shown_path

        raise click.ClickException(f"{shown_path(trace)}: cannot replay: {exc}") from None
    click.echo(message, err=not ok)
    if not ok:
        raise click.exceptions.Exit(1)  # exit 1 however the command is invoked
    return 0
