"""``casebook play [GAME] [SCENARIO]`` — play a game with bots, hot-seat, or against a bot.

With no arguments: Moscow '41, October Blitz, planner vs planner (``bot:planner``), seed 1. Prints a turn-by-turn
account (:mod:`casebook.tools.account`) with a progress display on stderr, ends with the winner
and the victory level, and writes to ``--out`` (default ``out/``): ``trace.jsonl``, the final
position ``final.yaml`` and an SVG map per turn (``turn-NN.svg``).

A ``human`` side plays in the terminal (:mod:`casebook.tools.human`). ``--load POSITION``
continues a saved game (a position written by ``save``); its trace ``POSITION.trace.jsonl`` is
continued when present, so a saved and resumed game has the same trace as an uninterrupted one.
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import Any

import click

from casebook.kernel.errors import IllegalActionError

__all__ = ["play", "run_play", "parse_player", "write_turn_map"]

DEFAULT_PLAYER = "bot:planner"


def parse_player(text: str) -> tuple[str, str]:
    """``bot:greedy`` → ("bot", "greedy"); ``human`` → ("human", ""). BadParameter otherwise."""
    from casebook.tools.bots import BOT_KINDS

    if text == "human":
        return "human", ""
    kind, _, name = text.partition(":")
    if kind == "bot" and name in BOT_KINDS:
        return "bot", name
    raise click.BadParameter(f"expected human or bot:{'|bot:'.join(BOT_KINDS)}, got {text!r}")


def write_turn_map(state: Any, path: Path, title: str) -> None:
    """An SVG of the state's map and units at ``path``."""
    from casebook.tools.render import render_svg

    engine = state.game.engine
    map_data = state.data.map or dict(engine.pack.map)
    svg = render_svg(map_data, [dict(u) for u in state.data.units], title=title,
                     markers=[dict(m) for m in state.data.markers],
                     subtitle=f"turn {state.data.turn}, {state.data.phase or ''} {state.data.step or ''}")
    path.write_text(svg, encoding="utf-8")


def run_play(game_id: Any, scenario: str, players: dict[str, tuple[str, str]], seed: int,
             out: Path | None, load: str | None = None, echo: Any = click.echo,
             progress: bool = True, max_actions: int = 200_000) -> Any:
    """Play to the end; returns the final :class:`~casebook.kernel.game.State`. ``game_id`` is a
    game id or pack dir, or an already loaded :class:`~casebook.kernel.game.Game`."""
    from casebook.kernel.game import Game
    from casebook.kernel.position import load_position, pack_dir_near, position_to_dict
    from casebook.kernel.trace import Trace
    from casebook.tools.account import narrate
    from casebook.tools.bots import make_bot
    from casebook.tools.human import UNDO, HumanPlayer
    from casebook.tools.runtime import tune_gc

    if load:
        pos = load_position(load)
        if pos.scenario is not None:
            scenario = pos.scenario.id
        # the pack named on the command line if it is a folder, else the one the save belongs to
        pack = game_id if isinstance(game_id, (str, Path)) and Path(game_id).is_dir() else None
        game = Game.load(pack or pack_dir_near(pos.game, Path(load)) or pos.game, scenario)
        trace_path = Path(load + ".trace.jsonl")
        trace = Trace.read(trace_path) if trace_path.is_file() else Trace()
        state = game.state_from_dict(position_to_dict(pos), trace)
    else:
        game = game_id if isinstance(game_id, Game) else Game.load(game_id, scenario)
        state = game.new_initial_state(seed)
    tune_gc()  # the loaded game lives as long as the session (tools/runtime.py)
    initial = state.clone()
    actors: dict[str, Any] = {}
    for side, (kind, name) in players.items():
        actors[side] = (HumanPlayer(side, game.engine.pack.id, echo=echo) if kind == "human"
                        else make_bot(name, side, seed))
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    name = game.engine.pack.manifest.get("name", game_id)
    last = game.last_turn
    shown = 0
    turn = None

    def flush() -> None:
        nonlocal shown, turn
        for event in list(state.trace)[shown:]:
            for line in narrate(event, turn if turn is not None else -1):
                echo(line)
            if turn is not None and event.turn != turn and out is not None:
                write_turn_map(state, out / f"turn-{turn:02d}.svg", f"{name}: end of turn {turn}")
            turn = event.turn
        shown = len(state.trace)

    flush()
    bar = None
    if progress and sys.stderr.isatty():
        from rich.progress import Progress

        bar = Progress(transient=True)
        bar.start()
        task = bar.add_task("playing", total=last or None)
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        for _ in range(max_actions):
            if state.is_terminal():
                break
            side = state.current_player()
            actor = actors[side]
            action = actor.choose(state)
            if action is None:  # the human quit
                echo("Game left unfinished.")
                break
            if action == UNDO:
                state = _undo(initial, state, side, echo)
                shown = len(state.trace)
                continue
            try:
                state.apply(action)
            except IllegalActionError as exc:
                if getattr(actor, "interactive", False):
                    echo(f"refused: {exc}")
                    continue
                raise
            flush()
            if bar is not None:
                bar.update(task, completed=state.data.turn - 1, description=f"turn {state.data.turn}")
    except KeyboardInterrupt:
        echo("\nInterrupted: the play so far is saved (continue it with --load).")
    finally:
        signal.signal(signal.SIGTERM, previous)
        if bar is not None:
            bar.stop()
        if out is not None:
            _write_outputs(state, out, name, echo)
    result = state.result()
    if result is not None:
        winner = result.get("winner") or "nobody"
        echo(f"\nResult: {winner} — {result.get('level')} ({result.get('reason', '')})")
    return state


def _terminate(signum: int, frame: Any) -> None:
    """SIGTERM (e.g. ``timeout``) ends a play like Ctrl-C: what was played is written out."""
    raise KeyboardInterrupt


def _write_outputs(state: Any, out: Path, name: str, echo: Any) -> None:
    """trace.jsonl, final.yaml (a position ``--load`` continues, with its trace beside it as
    final.yaml.trace.jsonl) and the last turn's map."""
    from casebook.kernel.yamlio import dump_yaml

    state.trace.write(out / "trace.jsonl")
    state.trace.write(out / "final.yaml.trace.jsonl")
    (out / "final.yaml").write_text(dump_yaml(state.to_dict()), encoding="utf-8")
    title = f"{name}: final position" if state.is_terminal() else f"{name}: turn {state.data.turn} (unfinished)"
    write_turn_map(state, out / f"turn-{state.data.turn:02d}.svg", title)
    echo(f"Wrote {out / 'trace.jsonl'}, {out / 'final.yaml'} and the turn maps.")


def _undo(initial: Any, state: Any, side: str, echo: Any) -> Any:
    """``state`` replayed from ``initial`` up to (not including) ``side``'s last decision."""
    last = max((i for i, a in enumerate(state.history) if a.side == side), default=None)
    if last is None:
        echo("nothing to undo")
        return state
    redo = initial.clone()
    for action in state.history[len(initial.history):last]:
        redo.apply(action)
    echo(f"took back: {state.history[last]}")
    return redo


@click.command("play")
@click.argument("game", default="moscow41")
@click.argument("scenario", required=False, default=None)
@click.option("--german", default=DEFAULT_PLAYER, show_default=True, help="human or bot:planner|greedy|random.")
@click.option("--soviet", default=DEFAULT_PLAYER, show_default=True, help="human or bot:planner|greedy|random.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the dice (and the bots).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("out"),
              show_default=True, help="Folder for trace.jsonl, final.yaml and turn maps.")
@click.option("--load", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Continue a saved game (a position file written by `save`).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def play(game: str, scenario: str | None, german: str, soviet: str, seed: int, out: Path,
         load: str | None, quiet: bool) -> None:
    """Play GAME's SCENARIO (default: moscow41 and the first scenario its manifest lists, the
    October Blitz; greedy vs greedy, seed 1)."""
    from casebook.kernel.content import load_pack

    players = {"german": parse_player(german), "soviet": parse_player(soviet)}
    scenarios = list(load_pack(game).scenarios)
    if scenario is None:
        scenario = scenarios[0]
    elif scenario not in scenarios and load is None:
        raise click.BadParameter(f"{game} has no scenario {scenario!r} (scenarios: {', '.join(scenarios)})",
                                 param_hint="SCENARIO")
    run_play(game, scenario, players, seed, out, load=load, progress=not quiet)
