"""A save and the trace beside it (``SAVE`` and ``SAVE.trace.jsonl``): written together, resumed
together, never one without checking the other.

:func:`write_save` writes the trace, then the save with the SHA-256 of the trace's bytes in
``plugin_state.trace`` (:class:`casebook.content.savecheck.TraceLink`). :func:`resume_trace`, used by
``play --load`` and ``serve --load``, reads the trace beside a save and refuses it — one located
line, exit 1 — when it is not the trace the save was written with (an edited trace was accepted
and failed ``replay`` only later): the digest differs, its setup event names another game,
scenario or seed than the save, or it does not end where the save stands. A save without a
digest (written by hand or before this check) gets the last three checks. Costs one hash of the
trace file, never a replay.

A save also names the pack it was played on (``plugin_state.pack``: the game id, the pack folder
and a SHA-256 of its content, :func:`pack_identity`), so a save of a copied or edited pack folder
resumes on that folder, not silently on the installed game (:func:`save_pack`, used by
``play --load`` and ``ask``); resumed on a pack whose content differs, the command says so.
:func:`game_of_save` is the one reading of which game and scenario a save resumes, for
``play --load`` and ``serve --load`` alike.
"""

from __future__ import annotations

import errno
import re
from pathlib import Path
from typing import Any

from casebook.core.errors import PositionError, Problem, shown_path
from casebook.core.state import SAVE_MARK

__all__ = ["write_save", "resume_trace", "trace_path_of", "pack_identity", "save_pack", "saves_beside", "with_humans",
           "asked_passes", "redo_history", "trace_pack", "trace_pack_warning", "game_of_save", "start_trace", "initial_state", "PACK_SLOT",
           "START_FIELD"]

#: The field of a ``setup`` event that holds the position a play began from when it did not begin
#: from its scenario's setup (``play --load`` of a hand-made position, or of a save without its
#: trace): :func:`start_trace`, read back by :func:`initial_state` (``replay``, undo).
START_FIELD = "position"
#: ``plugin_state`` slot of a save naming the pack it was played on (a kernel slot, savecheck.py).
PACK_SLOT = "pack"
_NOT_CONTENT = frozenset({"golden", "__pycache__", "tests"})  # tests/: the pack's pytest modules, never loaded


def trace_path_of(save: str | Path) -> Path:
    """The trace beside the save ``save``: ``SAVE.trace.jsonl``."""
    return Path(str(save) + ".trace.jsonl")


def write_save(state: Any, path: Path) -> Path:
    """Write ``state``'s trace to ``path.trace.jsonl`` and the save to ``path`` (the canonical form
    of :func:`casebook.content.position.dump_save`) linked to that trace by its digest; returns the
    trace's path."""
    from casebook.content.position import dump_save
    from casebook.content.savecheck import TRACE_SLOT, trace_digest

    trace_path = trace_path_of(path)
    tmp_trace, tmp_save = (p.with_name(p.name + ".part") for p in (trace_path, path))
    data = {SAVE_MARK: 1, **state.to_dict()}  # the mark first: a save cut anywhere is told
    slots = dict(data.get("plugin_state") or {})
    pack = pack_identity(state.game.engine.pack)  # before anything is written (into the pack's folder, maybe)
    try:  # both files written aside, then put in place: a path that cannot be written leaves nothing
        state.trace.write(tmp_trace)
        slots[TRACE_SLOT] = {"sha256": trace_digest(tmp_trace.read_bytes())}
        slots[PACK_SLOT] = pack
        data["plugin_state"] = slots
        tmp_save.write_text(dump_save(data), encoding="utf-8")
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, "it is a folder", str(path))
        tmp_trace.replace(trace_path)
        tmp_save.replace(path)
    finally:
        for tmp in (tmp_trace, tmp_save):
            try:
                tmp.unlink(missing_ok=True)
            except OSError:
                pass  # its folder is not one (the error being raised says so)
    return trace_path


def resume_trace(save: str | Path, position: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """(the trace beside ``save`` — empty if there is none —, ``position`` without its trace link)
    for a save being resumed (``position``: its checked data, ``position_to_dict`` of
    :func:`casebook.content.savecheck.load_save`). Raises PositionError naming the trace file when
    the trace is not the one the save was written with."""
    from casebook.content.savecheck import TRACE_SLOT, trace_digest
    from casebook.content.tracefile import read_trace
    from casebook.core.trace import Trace

    slots = dict(position.get("plugin_state") or {})
    link = slots.pop(TRACE_SLOT, None)
    slots.pop(PACK_SLOT, None)  # the next save names the pack it is written from
    position = {**position, "plugin_state": slots}
    trace_path = trace_path_of(save)
    if not trace_path.is_file():
        return Trace(), position
    shown = str(trace_path)

    def refuse(message: str) -> PositionError:
        return PositionError([Problem(shown, 0, 0, "", f"{message}; it cannot be continued (move it "
                                      f"away to resume {Path(save).name} without undo past the load)")])

    if isinstance(link, dict) and link.get("sha256") != trace_digest(trace_path.read_bytes()):
        raise refuse(f"not the trace {Path(save).name} was saved with (its SHA-256 differs: edited, "
                     "or from another play)")
    trace = read_trace(trace_path)
    if len(trace):
        first, last = trace[0], trace[len(trace) - 1]
        if first.kind == "setup":
            scenario = position.get("scenario")
            scenario = scenario if isinstance(scenario, dict) else {}
            rng = position.get("rng")
            rng = rng if isinstance(rng, dict) else {}
            for key, saved in (("game", position.get("game")), ("scenario", scenario.get("id")),
                               ("seed", rng.get("seed"))):
                if saved is not None and first.data.get(key) != saved:
                    raise refuse(f"its setup event has {key} {first.data.get(key)!r}, the save {saved!r}")
        if last.seq + 1 != position.get("trace_seq", 0):
            raise refuse(f"it does not end where {Path(save).name} stands (its last event is {last.seq}, "
                         f"the save's next is {position.get('trace_seq', 0)})")
    return trace, position


def pack_identity(pack: Any) -> dict[str, str]:
    """``{"id", "folder", "sha256"}`` of a loaded pack: its game id, its folder (absolute) and a
    SHA-256 over the relative path and bytes of every file of the folder and its rules folder
    (golden traces, the pack's ``tests/`` and bytecode left out: they are not content; nor is
    what a play writes there, :func:`_played_file` — a save, a trace, a map — so saving into a
    copied pack's folder, or playing with it as the working folder, leaves its hash as it was)."""
    import hashlib

    from casebook.content.packcache import _tree_files

    h = hashlib.sha256()
    folder = Path(pack.dir).resolve()
    for root in dict.fromkeys([folder, Path(pack.rules_dir).resolve()]):
        for f in _tree_files(root):
            rel = f.relative_to(root)
            if rel.parts and rel.parts[0] in _NOT_CONTENT:
                continue
            data = f.read_bytes()
            if not _played_file(f, data):
                h.update(str(rel).encode() + b"\0" + data + b"\0")
    return {"id": str(pack.id), "folder": str(folder), "sha256": h.hexdigest()}


def _played_file(path: Path, data: bytes) -> bool:
    """Whether a file in a pack's folder is one a play writes, not content: a trace (``*.jsonl``),
    a map (``*.svg``), a save being written (``*.part``), or a save (a YAML position with its
    ``trace_seq``, which no content file has)."""
    if path.suffix in (".jsonl", ".svg", ".part"):
        return True
    return path.suffix in (".yaml", ".yml") and re.search(rb"(?m)^trace_seq:", data) is not None


def save_pack(raw: Any, save: str | Path, named: str | Path | None = None) -> tuple[str | Path, str | None]:
    """(the pack to resume the save ``raw`` (its plain data, read from ``save``) on, a warning or
    None). ``named``: a pack folder given on the command line — it wins. Else a pack folder above
    the save with its game id (a copied pack's own save), else the folder the save names if it
    still holds that game, else the installed game. The warning says when the pack's content is
    not the one the save was played on."""
    from casebook.content.loader import load_pack
    from casebook.content.position import pack_dir_near
    from casebook.core.errors import CasebookError

    game = str(raw.get("game")) if isinstance(raw, dict) else ""
    slots = raw.get("plugin_state") if isinstance(raw, dict) else None
    recorded = slots.get(PACK_SLOT) if isinstance(slots, dict) else None
    recorded = recorded if isinstance(recorded, dict) else {}
    choice: str | Path = named or pack_dir_near(game, Path(save)) or game
    folder = recorded.get("folder")
    if named is None and choice == game and isinstance(folder, str) and (Path(folder) / "game.yaml").is_file():
        choice = Path(folder)
    if not recorded.get("sha256"):
        return choice, None
    try:
        now = pack_identity(load_pack(choice))
    except CasebookError:
        return choice, None  # the load that follows reports it
    if now["id"] == recorded.get("id") and now["sha256"] != recorded["sha256"]:
        return choice, (f"warning: {Path(save).name} was played on the pack in {folder} (content "
                        f"{str(recorded['sha256'])[:12]}…); {now['folder']} differs now ({now['sha256'][:12]}…)")
    return choice, None


def game_of_save(game_id: Any, scenario: str | None, load: str | Path) -> Any:
    """The :class:`~casebook.core.game.Game` the save at ``load`` resumes on: the game and
    scenario it records (``game_id`` and ``scenario``, when given on the command line, must be
    those; a pack folder given as ``game_id`` is used), on the pack :func:`save_pack` chooses.
    A mismatch is a :class:`click.UsageError` (exit 2) naming the save; a save cut short, the
    PositionError of :func:`casebook.tools.save_faults.truncated_save`."""
    import click

    from casebook.content.confine import is_game_id
    from casebook.core.game import Game
    from casebook.script.engine import load_engine

    shown = shown_path(load)
    from casebook.tools.save_faults import refuse_truncated

    raw = refuse_truncated(load)
    saved_game = raw.get("game") if isinstance(raw, dict) else None
    if not is_game_id(saved_game):
        raise click.UsageError(f"{shown}: game: must be a game id (a pack folder is given as GAME), got {saved_game!r}")
    folder = isinstance(game_id, (str, Path)) and Path(game_id).is_dir()
    if game_id is not None and not folder and str(game_id) != saved_game:
        raise click.UsageError(f"{shown} is a save of {saved_game!r}, not of {game_id!r}")
    info = raw.get("scenario") if isinstance(raw.get("scenario"), dict) else {}
    saved_scenario = info.get("id")
    if scenario is not None and saved_scenario is not None and scenario != saved_scenario:
        raise click.UsageError(f"{shown} is a save of scenario {saved_scenario!r}, not {scenario!r}")
    chosen_pack, warning = save_pack(raw, load, game_id if folder else None)  # the pack it was played on
    if warning:
        click.echo(warning, err=True)
    engine = load_engine(chosen_pack)
    chosen = saved_scenario or scenario or next(iter(engine.pack.scenarios), "")
    if chosen not in engine.pack.scenarios:
        raise click.UsageError(f"{shown}: the game {engine.pack.id!r} has no scenario {chosen!r}")
    if engine.pack.id != saved_game:
        raise click.UsageError(f"{shown} is a save of {saved_game!r}, the pack {shown_path(game_id)} is {engine.pack.id!r}")
    return Game(engine, chosen)


def saves_beside(trace: Path) -> list[Path]:
    """The saves that may stand beside the trace file ``trace`` (existing or not): ``SAVE`` for
    ``SAVE.trace.jsonl`` (``play``'s ``save`` and ``--load``), ``final.yaml`` for a play's
    ``trace.jsonl``."""
    name = trace.name
    out = [trace.with_name(name[: -len(".trace.jsonl")])] if name.endswith(".trace.jsonl") else []
    if name == "trace.jsonl":
        out.append(trace.with_name("final.yaml"))
    return out


def trace_pack(trace: Path, game: str, named: Path | None = None) -> str | Path:
    """The pack the trace file ``trace`` of ``game`` (its setup event's game id) was played on:
    ``named`` (a ``--pack`` folder) if given; else a pack folder of ``game`` above the trace; else
    the folder a save beside it (:func:`saves_beside`) records in ``plugin_state.pack`` if it
    still holds ``game``; else the installed ``game``. Raises
    :class:`casebook.core.errors.ContentError` (one line: what to pass) when none is found."""
    from casebook.content.loader import installed_games
    from casebook.content.position import pack_dir_near
    from casebook.content.yamlio import read_yaml
    from casebook.core.errors import ContentError

    if named is not None:
        return named
    near = pack_dir_near(game, trace)
    if near is not None:
        return near
    recorded = None
    for save in saves_beside(trace):
        doc, problems = read_yaml(save) if save.is_file() else (None, ())
        slots = doc.data.get("plugin_state") if doc is not None and isinstance(doc.data, dict) else None
        pack = slots.get(PACK_SLOT) if isinstance(slots, dict) else None
        folder = pack.get("folder") if isinstance(pack, dict) else None
        if isinstance(folder, str) and isinstance(pack, dict) and pack.get("id") == game:
            recorded = folder
            gy = Path(folder) / "game.yaml"
            found, _ = read_yaml(gy) if gy.is_file() else (None, ())
            if found is not None and isinstance(found.data, dict) and found.data.get("id") == game:
                return Path(folder)
    if game in installed_games():
        return game
    where = (f"it was played on {recorded}, which no longer holds it" if recorded else
             "no pack folder of it is above the trace or named by a save beside it")
    raise ContentError([Problem(shown_path(trace), 0, 0, "", f"the game {game!r} is not installed and {where}; "
                                "name the pack folder it was played from: --pack DIR")])


def trace_pack_warning(trace: Path, game: str, chosen: str | Path) -> str | None:
    """A one-line warning when ``chosen`` (:func:`trace_pack`'s answer for the trace file
    ``trace`` of ``game``) may not be the pack it was played on, else None: a save beside the
    trace records the pack's SHA-256 (:func:`pack_identity`) and the pack differs now; or nothing
    beside or above the trace names a pack and the installed ``game`` was taken. ``explain`` and
    ``cases`` print it (to standard error) before answering from that pack."""
    from casebook.content.loader import load_pack
    from casebook.content.yamlio import read_yaml
    from casebook.core.errors import CasebookError

    for save in saves_beside(trace):
        doc, _ = read_yaml(save) if save.is_file() else (None, ())
        slots = doc.data.get("plugin_state") if doc is not None and isinstance(doc.data, dict) else None
        recorded = slots.get(PACK_SLOT) if isinstance(slots, dict) else None
        if not isinstance(recorded, dict) or recorded.get("id") != game or not recorded.get("sha256"):
            continue
        try:
            now = pack_identity(load_pack(chosen))
        except CasebookError:
            return None  # the load that follows reports it
        if now["sha256"] == recorded["sha256"]:
            return None
        return (f"warning: {trace.name} was played on the pack in {recorded.get('folder')} (content "
                f"{str(recorded['sha256'])[:12]}…); {now['folder']} differs now ({now['sha256'][:12]}…): "
                f"titles and rule lines are today's")
    if isinstance(chosen, str) and chosen == game:
        return (f"note: no pack folder of {game} is above {shown_path(trace)} and no save beside it names one: "
                f"reading the installed {game} (if it was played on a copy of the pack, name it: --pack DIR)")
    return None


def start_trace(position: dict[str, Any], game_id: str, scenario: str | None,
                humans: Any = ()) -> tuple[Any, dict[str, Any]]:
    """(a trace holding one ``setup`` event, ``position`` numbered to follow it) for a play
    resumed from ``position`` (checked position data) without a trace of its own: the event names
    the game, the scenario (None for a hand-made position that names none, played on the game's
    first scenario's turns) and the seed as a new game's does, the ``humans`` sides (only when a
    person plays one, as a new game's: :func:`asked_passes`), and holds the whole position
    (:data:`START_FIELD`), so that ``replay`` starts where the play did and undo reaches back to
    the load. Its seq is the position's ``trace_seq``; the position's next is one more."""
    from casebook.core.trace import Event, Trace

    seq = int(position.get("trace_seq") or 0)
    rng = position.get("rng")
    rng = rng if isinstance(rng, dict) else {}
    start = {k: v for k, v in position.items() if k not in ("players", SAVE_MARK)}  # nor is who plays
    data = {"game": game_id, "scenario": scenario, "seed": int(rng.get("seed") or 0)}
    event = Event(seq=seq, turn=int(position.get("turn") or 1), phase=position.get("phase"),
                  step=position.get("step"), side=None, kind="setup", cases=(), source="driver",
                  data={**data, **({"humans": sorted(set(humans))} if humans else {}), START_FIELD: start})
    return Trace([event]), {**position, "trace_seq": seq + 1}


def with_humans(trace: Any, humans: Any) -> Any:
    """``trace`` (a resumed play's, starting with its ``setup`` event) whose setup event lists
    every side of ``humans`` among its ``humans`` (the sides a person played at some point: a side
    listed that a bot played is asked on replay and passes as the bot did, :func:`asked_passes`);
    ``trace`` itself when it lists them already or has no setup event."""
    from dataclasses import replace

    from casebook.core.trace import Trace

    if not len(trace) or trace[0].kind != "setup":
        return trace
    had = trace[0].data.get("humans")
    had = [str(s) for s in had] if isinstance(had, list) else []
    if set(humans) <= set(had):
        return trace
    keys = list(trace[0].data)
    data = dict(trace[0].data)
    data["humans"] = sorted({*had, *humans})  # after the seed and rolls, before a held position
    order = [k for k in keys if k != START_FIELD and k != "humans"] + ["humans"] + [k for k in keys if k == START_FIELD]
    return Trace([replace(trace[0], data={k: data[k] for k in order}), *list(trace)[1:]])


def asked_passes(state: Any, recorded: Any) -> None:
    """Apply to ``state`` (a replay of the trace ``recorded``, its events so far equal to the
    recorded ones) the plain passes of a person asked at a step only for a template's sake
    (core/play.py ``State._offered``): while it waits for a side at such a step — only ``pass``
    listed — and the recorded event it is to make next is that side's ``auto-pass`` of the step
    (how play records the person's pass, as a bot's play has it), the side passes. ``replay``,
    ``serve``'s watch and undo use it after each recorded action."""
    from casebook.core.actions import Action

    while not state.is_terminal() and len(state.trace) < len(recorded):
        nxt, side = recorded[len(state.trace)], state.current_player()
        if (nxt.kind != "auto-pass" or nxt.side != side or nxt.data.get("standing")
                or nxt.data.get("step") != state.data.step
                or any(a.kind != "pass" for a in state.legal_actions())):
            return
        state.apply(Action.make("pass", side))


def initial_state(game: Any, setup: Any, humans: Any = ()) -> Any:
    """The state a play's trace begins with, from its ``setup`` event ``setup``: the position it
    holds (:func:`start_trace`: the state resumed from it, its trace that one event), else the
    scenario's setup with the event's seed and fixed rolls (a new game). ``humans``: the sides a
    person plays now (``replay`` passes those the event lists, :func:`asked_passes`); the setup
    event keeps listing the sides it listed (:func:`with_humans`). Raises PositionError for a held
    position that is not a valid one."""
    from casebook.core.trace import Trace

    held = setup.data.get(START_FIELD)
    if isinstance(held, dict):
        return game.state_from_dict({**held, "trace_seq": setup.seq + 1}, Trace([setup]), humans=humans)
    state = game.new_initial_state(int(setup.data.get("seed") or 0), [int(r) for r in setup.data.get("rolls") or ()],
                                   humans=humans)
    listed = setup.data.get("humans")
    state.trace = with_humans(state.trace, [str(s) for s in listed] if isinstance(listed, list) else ())
    return state


def redo_history(initial: Any, actions: Any, recorded: Any) -> Any:
    """A clone of ``initial`` with ``actions`` (a play's ``history`` since it) applied again as
    the trace ``recorded`` (the play's, ``initial``'s a prefix of it) has them — undo: a person's
    pass where a template asked them (an ``auto-pass`` in the trace) is passed as recorded
    (:func:`asked_passes`) whether or not the history holds it (a history rebuilt from a loaded
    trace's ``action`` events does not), and a ``pass`` of the history is applied only where the
    trace has it as an ``action``. Raises IllegalActionError as ``State.apply``."""
    redo = initial.clone()
    for action in actions:
        asked_passes(redo, recorded)
        nxt = recorded[len(redo.trace)] if len(redo.trace) < len(recorded) else None
        if action.kind == "pass" and not (nxt is not None and nxt.kind == "action"
                                          and nxt.data.get("action") == str(action)):
            continue  # the asked pass, passed just now as the trace has it
        redo.apply(action)
    return redo
