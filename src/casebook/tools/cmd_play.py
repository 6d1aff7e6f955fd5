"""``casebook play [GAME] [SCENARIO]`` — play a game with bots, hot-seat, or against a bot.

With no arguments: Moscow '41, October Blitz, planner vs planner (``bot:planner``), seed 1. Prints a turn-by-turn
account (:mod:`casebook.tools.account`) with a progress display on stderr, ends with the winner
and the victory level, and writes to ``--out`` (default ``out/``): ``trace.jsonl``, the final
position ``final.yaml`` and an SVG map per turn (``turn-NN.svg``); a folder holding an earlier
game is not mixed into (:mod:`casebook.tools.play_output`: a new ``out-N``, or ``--overwrite``).

A ``human`` side plays in the terminal (:mod:`casebook.tools.human`). ``--load POSITION``
continues a saved game (a position written by ``save``); its trace ``POSITION.trace.jsonl`` is
continued when present, so a saved and resumed game has the same trace as an uninterrupted one.
"""

from __future__ import annotations

import signal
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

from casebook.core.errors import IllegalActionError
from casebook.tools.cli import game_argument

__all__ = ["play", "run_play", "parse_player", "write_turn_map", "PlayInterrupted"]

DEFAULT_PLAYER = "bot:planner"


def parse_players(given: tuple[str, ...]) -> dict[str, tuple[str, str]]:
    """``--player SIDE=KIND`` values → side -> (``human``|``bot``, bot kind) for the sides named
    (the others play as a save recorded, else :data:`DEFAULT_PLAYER`; :func:`run_play` refuses a
    side the game does not have). BadParameter for a side given twice or a malformed value."""
    players: dict[str, tuple[str, str]] = {}
    for value in given:
        side, eq, kind = value.partition("=")
        if not eq or not side or not kind:
            raise click.BadParameter(f"expected SIDE=KIND, got {value!r}", param_hint="--player")
        if side in players:
            raise click.BadParameter(f"side {side!r} given twice", param_hint="--player")
        players[side] = parse_player(kind)
    return players


def parse_player(text: str) -> tuple[str, str]:
    """``bot:greedy`` (or ``greedy``, as ``batch --bot`` takes it) → ("bot", "greedy");
    ``human`` → ("human", ""). BadParameter otherwise."""
    from casebook.tools.bots import BOT_KINDS

    if text == "human":
        return "human", ""
    kind, _, name = text.partition(":") if ":" in text else ("bot", "", text)
    if kind == "bot" and name in BOT_KINDS:
        return "bot", name
    raise click.BadParameter(f"expected human or bot:{'|bot:'.join(BOT_KINDS)}, got {text!r}", param_hint="--player")


def write_turn_map(state: Any, path: Path, title: str) -> None:
    """An SVG of the state's map and units at ``path`` (with the front line; the subtitle names
    the turn, phase and step as the game's sequence of play does)."""
    from casebook.tools.render import render_svg
    from casebook.tools.render_units import step_subtitle

    engine = state.game.engine
    map_data = state.data.map or dict(engine.pack.map)
    svg = render_svg(map_data, [dict(u) for u in state.data.units], title=title,
                     markers=[dict(m) for m in state.data.markers], front=True, sides=engine.pack.vocabulary.sides,
                     styles=engine.pack.vocabulary.styles,
                     subtitle=step_subtitle(engine.sequence, state.data.turn, state.data.phase, state.data.step))
    path.write_text(svg, encoding="utf-8")


def run_play(game_id: Any, scenario: str | None, players: dict[str, tuple[str, str]], seed: int,
             out: Path | None, load: str | None = None, echo: Any = click.echo,
             progress: bool = True, max_actions: int = 200_000, overwrite: bool = False,
             rolls: tuple[int, ...] = ()) -> Any:
    """Play to the end; returns the final :class:`~casebook.core.play.State`. ``game_id`` is a
    game id or pack dir, or an already loaded :class:`~casebook.core.game.Game` (with ``load``:
    None, or the save's game). ``out`` is chosen by :func:`casebook.tools.play_output.prepare_out`
    (never two games in one folder). Sides missing from ``players`` play as the save recorded,
    else as :data:`DEFAULT_PLAYER`; a side the game does not have is a usage error. Raises
    :class:`PlayInterrupted` (after writing the outputs) when stopped by Ctrl-C or SIGTERM.
    ``rolls``: the faces the first dice of a new game show (core/dice.py)."""
    from casebook.core.game import Game
    from casebook.tools.account import Narrator
    from casebook.tools.bots import make_bot
    from casebook.tools.human import UNDO, HumanPlayer
    from casebook.tools.play_output import game_over_lines
    from casebook.tools.runtime import tune_gc

    if load:
        game, state, initial, saved_players = _resume(None if isinstance(game_id, Game) else game_id, scenario, load,
                                                      players)
        players = {**{side: parse_player(p) for side, p in saved_players.items()}, **players}
        seed = int(state.data.rng.get("seed") or 0)  # the bots' seed is the game's (resume is exact)
    else:
        game = game_id if isinstance(game_id, Game) else Game.load(game_id, scenario)
        humans = [side for side, (kind, _) in players.items() if kind == "human"]
        state = game.new_initial_state(seed, rolls, humans=humans)  # asked where a template decides
        initial = None
    players = dict(players)
    unknown = sorted(set(players) - set(state.data.sides))
    if unknown:
        raise click.BadParameter(f"unknown side {unknown[0]!r}; this game's sides: {', '.join(state.data.sides)}",
                                 param_hint="--player")
    for side in state.data.sides:
        players.setdefault(side, parse_player(DEFAULT_PLAYER))
    if load and state.is_terminal():  # a finished game: said so, nothing played or written (play_output)
        for line in game_over_lines(state, load, Narrator.for_engine(game.engine)):
            echo(line)
        return state
    for s in (state, initial):
        if s is not None:
            s.data.set_players({side: _player_text(k, n) for side, (k, n) in players.items()})
    tune_gc()  # the loaded game lives as long as the session (src/casebook/tools/runtime.py)
    start = initial or (None if load else state)  # where the trace begins, when known (for its OOS units)
    initial = initial or state.clone()
    actors: dict[str, Any] = {}
    for side, (kind, name) in players.items():
        actors[side] = (HumanPlayer(side, game.engine.pack.id, echo=echo) if kind == "human"
                        else make_bot(name, side, seed))
    if out is not None:
        from casebook.tools.play_output import prepare_out

        out = prepare_out(out, load, overwrite, echo)
    name = game.engine.pack.manifest.get("name", game_id)
    last = game.last_turn
    shown = 0
    turn = None
    narrator = Narrator.for_engine(game.engine, start=start)
    loaded = len(state.trace)  # a loaded trace's turns were mapped as they ended (not by the final position)

    def flush() -> None:
        nonlocal shown, turn
        events = list(state.trace)[shown:]
        for line in narrator.lines(events):
            echo(line)
        for i, event in enumerate(events, shown):
            if turn is not None and event.turn != turn and out is not None and i >= loaded:
                write_turn_map(state, out / f"turn-{turn:02d}.svg", f"{name}: end of turn {turn}")
            turn = event.turn
        shown = len(state.trace)

    flush()
    from casebook.tools.play_output import ProgressBar

    bar = ProgressBar(last, enabled=progress)
    previous = signal.signal(signal.SIGTERM, _terminate)
    stopped = 0
    ended = False  # the loop ended (or was interrupted) without an error: account it before "Wrote …"
    try:
        for _ in range(max_actions):
            if state.is_terminal():
                break
            side = state.current_player()
            actor = actors[side]
            if getattr(actor, "interactive", False):
                bar.human()  # never drawn over the prompt
            else:
                bar.bots(state.data.turn)
            action = actor.choose(state)
            if action is None:  # the human quit
                echo("Game left unfinished.")
                break
            if action == UNDO:
                before = list(state.trace)
                state = _undo(initial, state, side, echo,
                              humans={s for s, (kind, _) in players.items() if kind == "human"})
                shown = len(state.trace)
                narrator.forget(before[shown:])  # the summary counts only what stands
                continue
            try:
                state.apply(action)
            except IllegalActionError as exc:
                if getattr(actor, "interactive", False):
                    _echo_refusal(state, action, exc, echo)
                    actor.refused(action)  # the prompt comes back with a hint, not the whole menu again
                    continue
                raise
            flush()
        ended = True
    except KeyboardInterrupt:
        echo("\nInterrupted: the play so far is saved (continue it with --load).")
        stopped = _STOPPED_BY.pop() if _STOPPED_BY else 130
        ended = True
    finally:
        signal.signal(signal.SIGTERM, previous)
        bar.stop()
        if ended and not (load and len(state.trace) == loaded):  # a save's turn, shown as loaded, not summed again
            _summary(state, narrator, echo)
        if out is not None:
            _write_outputs(state, out, name, echo)
    if stopped:
        raise PlayInterrupted(state, stopped)
    return state


_STOPPED_BY: list[int] = []


def _summary(state: Any, narrator: Any, echo: Any) -> None:
    """The last turn's summary and the result (if the game has one), before the files are written."""
    for line in narrator.summary():
        echo(line)
    from casebook.tools.play_output import result_line

    if (result := state.result()) is not None:
        echo("\n" + result_line(result))


class PlayInterrupted(Exception):
    """A play stopped by Ctrl-C (``exit_code`` 130) or SIGTERM (143) after its outputs were
    written; ``state`` is the play as it stood."""

    def __init__(self, state: Any, exit_code: int) -> None:
        super().__init__(f"play interrupted (exit {exit_code})")
        self.state = state
        self.exit_code = exit_code


def _terminate(signum: int, frame: Any) -> None:
    """SIGTERM (e.g. ``timeout``) ends a play like Ctrl-C: what was played is written out, and
    the command exits 128 + 15."""
    _STOPPED_BY.append(128 + signum)
    raise KeyboardInterrupt


def _player_text(kind: str, name: str) -> str:
    return "human" if kind == "human" else f"bot:{name}"


def _resume(game_id: Any, scenario: str | None, load: str,
            players: Mapping[str, tuple[str, str]] | None = None) -> tuple[Any, Any, Any, dict[str, str]]:
    """(game, state, initial, saved players) of the save at ``load``: its game and scenario must
    be those named on the command line (if any); it is checked whole (every problem at once:
    the schema, the map, the RNG, the tracks' bounds, each plugin's record); its trace
    ``LOAD.trace.jsonl``, when present, is continued and its actions can be undone."""
    from casebook.content.confine import is_game_id
    from casebook.content.position import load_position, position_to_dict
    from casebook.content.savecheck import load_save
    from casebook.content.yamlio import load_yaml
    from casebook.core.actions import parse_action
    from casebook.tools.saves import game_of_save, resume_trace

    raw = load_yaml(load).data
    if not (isinstance(raw, dict) and is_game_id(raw.get("game"))):  # an empty file, no game: ask's refusal
        load_position(load)  # raises PositionError: every problem, located (exit 1)
    game = game_of_save(game_id, scenario, load)  # the save's game and scenario (serve --load's too)
    pos = load_save(load, game.engine)
    trace, data = resume_trace(load, position_to_dict(pos))  # the trace beside it is its own (tools/saves.py)
    players = players or {}  # sides named on the command line: (kind, arg)
    saved = {side: str(p) for side, p in (pos.players or {}).items() if side not in players}
    humans = [side for side, (kind, _) in players.items() if kind == "human"]
    humans += [side for side, p in saved.items() if p == "human"]
    from casebook.tools.saves import start_trace, with_humans

    if not len(trace):  # a hand-made position or a save without its trace: record where the play starts
        named = pos.scenario.id if pos.scenario is not None else scenario  # none: a hand-made position's
        trace, data = start_trace(data, game.engine.pack.id, named, humans)
    trace = with_humans(trace, humans)  # the sides people played, for replay
    state = game.state_from_dict(data, trace, humans=humans)
    initial = None
    if len(trace) and trace[0].kind == "setup":  # undo reaches back before the load
        from casebook.tools.saves import initial_state

        state.history = [parse_action(e.data["action"]) for e in trace if e.kind == "action"]
        initial = initial_state(game, trace[0], humans=humans)
    return game, state, initial, dict(pos.players or {})


def _echo_refusal(state: Any, action: Any, exc: Exception, echo: Any) -> None:
    """A refused typed action: the refusal (for an action made only in other steps — an attack in
    a movement step — the step it is made in and its case first, as ``why`` says it:
    :func:`casebook.tools.ask_why.refusal`), then the ``file:line`` of each rule-script
    line that refused it (short: ``why`` prints their text), as ``ask`` names an answer's lines."""
    from casebook.core.actions import format_action
    from casebook.tools.ask_why import refusal

    cases, reason, lines = refusal(state, action, exc)
    echo(f"refused: illegal action {format_action(action)!r}: {reason} ({', '.join(cases) or 'no case'})")
    if lines:
        echo("  lines: " + ", ".join(dict.fromkeys(str(ln["source"]) for ln in lines)) + " (why … prints them)")


def _write_outputs(state: Any, out: Path, name: str, echo: Any) -> None:
    """trace.jsonl, final.yaml (a position ``--load`` continues, with its trace beside it as
    final.yaml.trace.jsonl) and the last turn's map."""
    from casebook.tools.saves import trace_path_of, write_save

    state.trace.write(out / "trace.jsonl")
    write_save(state, out / "final.yaml")  # with final.yaml.trace.jsonl, linked by its digest
    title = f"{name}: final position" if state.is_terminal() else f"{name}: turn {state.data.turn} (unfinished)"
    write_turn_map(state, out / f"turn-{state.data.turn:02d}.svg", title)
    echo(f"Wrote {out / 'trace.jsonl'}, {out / 'final.yaml'} (with its trace beside it, "
         f"{trace_path_of(out / 'final.yaml').name}) and the turn maps.")


def _undo(initial: Any, state: Any, side: str, echo: Any, humans: frozenset[str] | set[str] = frozenset()) -> Any:
    """``state`` replayed from ``initial`` up to (not including) ``side``'s last decision. In a
    hot-seat game that would also take back a decision another human made since (Blue's retreat
    after Red's attack, at Red's advance): refused, ``state`` unchanged — undo takes back the
    asking side's decisions, never another person's. A bot's decisions are taken back with it
    (the bot decides again)."""
    last = max((i for i, a in enumerate(state.history) if a.side == side), default=None)
    if last is None or last < len(initial.history):
        echo("nothing to undo")
        return state
    since = [a for a in state.history[last + 1:] if a.side != side and a.side in humans]
    if since:
        echo(f"cannot undo {state.history[last]}: {since[-1].side} decided since ({since[-1]}), and undo takes "
             f"back only {side}'s own decisions")
        return state
    from casebook.tools.saves import redo_history

    redo = redo_history(initial, state.history[len(initial.history):last], state.trace)  # asked passes too
    echo(f"took back: {state.history[last]}")
    return redo


@click.command("play")
@click.argument("game", required=False, default=None, callback=game_argument)
@click.argument("scenario", required=False, default=None)
@click.option("--player", "player", multiple=True, metavar="SIDE=KIND",
              help=f"Who plays a side of the game (repeatable): KIND human or bot:planner|greedy|random; "
                   f"a side not named plays as the save recorded, else {DEFAULT_PLAYER}. Sides are the "
                   f"game's (game.yaml vocabulary).")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True,
              help="Seed of the dice (and the bots); a save keeps its own.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("out"),
              show_default=True, help="Folder for trace.jsonl, final.yaml and turn maps.")
@click.option("--load", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Continue a saved game (a position file written by `save`).")
@click.option("--overwrite", is_flag=True,
              help="Replace an earlier game's files in --out (else a new out-N folder is used).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--rolls", default="", metavar="F,F,…",
              help="Faces (1-6) the first dice of a new game show, one per die, e.g. 4,2,6 (recorded in the "
                   "trace); not with --load (a save fixes its next dice with rng.fixed).")
def play(game: str, scenario: str | None, player: tuple[str, ...], seed: int, out: Path,
         load: str | None, overwrite: bool, quiet: bool, rolls: str) -> None:
    """Play GAME's SCENARIO (default: moscow41 and the first scenario its manifest lists, the
    October Blitz; bots on every side, seed 1)."""
    from casebook.content.loader import load_pack
    from casebook.script.values import MissingFactError
    from casebook.tools.save_faults import missing_field

    players = parse_players(player)
    if load is None:
        game = game or "moscow41"
        pack = load_pack(game)
        unknown = sorted(set(players) - set(pack.vocabulary.side_ids))
        if unknown:
            raise click.BadParameter(f"unknown side {unknown[0]!r}; this game's sides: "
                                     f"{', '.join(pack.vocabulary.side_ids)}", param_hint="--player")
        scenarios = list(pack.scenarios)
        if scenario is None:
            scenario = scenarios[0]
        elif scenario not in scenarios:
            raise click.BadParameter(f"{game} has no scenario {scenario!r} (scenarios: {', '.join(scenarios)})",
                                     param_hint="SCENARIO")
    try:
        faces = tuple(int(f) for f in rolls.split(",") if f.strip())
    except ValueError:
        raise click.BadParameter(f"expected die faces like 4,2,6, got {rolls!r}", param_hint="--rolls") from None
    if any(not 1 <= f <= 6 for f in faces):
        raise click.BadParameter(f"die faces are 1-6, got {rolls!r}", param_hint="--rolls")
    if faces and load is not None:  # a save's dice go on from its own RNG (resume is exact)
        raise click.UsageError(f"--rolls fixes the first dice of a new game, not of a loaded one; to fix the next "
                               f"dice of {load}, give them in the save as rng: {{fixed: [{rolls}]}} "
                               f"(docs/positions.md, \"Fixed dice\")")
    try:
        run_play(game, scenario, players, seed, out, load=load, progress=not quiet, overwrite=overwrite,
                 rolls=faces)
    except PlayInterrupted as exc:
        raise click.exceptions.Exit(exc.exit_code) from None
    except MissingFactError as exc:  # a hand-edited position without a field the rules read
        found = missing_field(load, exc) if load else None
        if found is None:
            raise
        raise found from None
