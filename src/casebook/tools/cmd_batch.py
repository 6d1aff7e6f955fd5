"""``casebook batch [GAME] [SCENARIO]`` — many seeded bot games in parallel, and their summary.

Plays ``--games`` games with seeds ``--first-seed`` … on a local process pool (``--workers``,
default: the cores), or on a Dask distributed scheduler (``--scheduler ADDRESS``; ``local``
starts a local cluster), with a progress bar on stderr, then prints a table on stdout: win rates
by side and victory level, mean VPs per side, turns and actions per game, seconds per game.
``--compare-pack`` / ``--compare-set`` play the same seeds again under an alternative (another
pack, another interpretation setting) and print both summaries side by side with the
differences. ``--json FILE`` writes the raw records. A game that raises is reported with its
seed, the others go on, and the command exits 1 at the end. Library: :mod:`casebook.tools.batch`.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from casebook.tools.cli import game_argument

__all__ = ["batch", "parse_pairs"]

DEFAULT_BOT = "planner"


def parse_pairs(values: Sequence[str], option: str, form: str = "NAME=VALUE") -> dict[str, str]:
    """``["a=b", …]`` → ``{"a": "b"}``; BadParameter naming ``option`` on a malformed pair or a
    name given twice."""
    out: dict[str, str] = {}
    for text in values:
        name, sep, value = text.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise click.BadParameter(f"expected {form}, got {text!r}", param_hint=option)
        if name.strip() in out:
            raise click.BadParameter(f"{name.strip()} given twice", param_hint=option)
        out[name.strip()] = value.strip()
    return out


def _load(game: str, scenario: str | None, option: str) -> tuple[str, Any]:
    """(the game as workers should name it, the loaded Game of ``scenario`` — by default the
    first the manifest lists); BadParameter if either is unknown."""
    from casebook.content.loader import find_pack
    from casebook.core.errors import ContentError
    from casebook.script.engine import load_engine
    from casebook.tools.batch import load_game

    try:
        pack_dir = find_pack(game)
    except ContentError:
        raise click.BadParameter(f"no game {game!r}: expected an installed game id or a pack "
                                 "directory with game.yaml", param_hint=option) from None
    name = game if not Path(game).exists() else str(pack_dir.resolve())
    if scenario is None:
        scenario = next(iter(load_engine(name).pack.scenarios))
    try:
        return name, load_game(name, scenario)
    except KeyError as exc:  # unknown scenario: the message names the known ones
        raise click.BadParameter(str(exc.args[0]), param_hint="SCENARIO") from None


def _bots(sides: Sequence[str], values: Sequence[str]) -> tuple[tuple[str, str], ...]:
    from casebook.tools.bots import BOT_KINDS

    chosen = {side: DEFAULT_BOT for side in sides}
    for side, kind in parse_pairs(values, "--bot", "SIDE=KIND").items():
        kind = kind.removeprefix("bot:")
        if side not in chosen:
            raise click.BadParameter(f"unknown side {side!r} (sides: {', '.join(sides)})", param_hint="--bot")
        if kind not in BOT_KINDS:
            raise click.BadParameter(f"unknown bot {kind!r} for {side} (bots: {', '.join(BOT_KINDS)})",
                                     param_hint="--bot")
        chosen[side] = kind
    return tuple(chosen.items())


def _settings(game: Any, values: Sequence[str], option: str) -> dict[str, Any]:
    from casebook.tools.batch import check_settings

    try:
        return check_settings(game, parse_pairs(values, option))
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint=option) from None


def _play(specs: list[Any], backend: Any, quiet: bool, done: list[Any]) -> list[Any]:
    """Every spec's record, in spec order; ``done`` gets each record as its game ends (what an
    interrupted batch still has)."""
    from casebook.tools.batch import run_batch

    if quiet or not sys.stderr.isatty():
        return run_batch(specs, backend, on_done=done.append)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("games", total=len(specs))

        def advance(record: Any) -> None:
            done.append(record)
            bar.advance(task)
        return run_batch(specs, backend, on_done=advance)


def _finished(specs: list[Any], done: list[Any]) -> list[Any | None]:
    """``done`` records in spec order, None for the games not finished (matched by what a record
    is a pure function of: game, scenario, seed, bots, settings)."""
    def key(x: Any, bots: Any, settings: Any) -> tuple[Any, ...]:
        return (x.game, x.scenario, x.seed, tuple(sorted(dict(bots).items())), tuple(sorted(dict(settings).items())))
    by_key = {key(r, r.bots, r.settings): r for r in done}
    return [by_key.get(key(spec, spec.bots, spec.settings)) for spec in specs]


def _play_terminable(specs: list[Any], backend: Any, quiet: bool, done: list[Any]) -> list[Any]:
    """:func:`_play`, with SIGTERM (a job scheduler, ``timeout``) handled as Ctrl-C is: the
    workers are stopped, none is left playing on."""
    import signal
    import threading

    def terminate(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        return _play(specs, backend, quiet, done)
    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        return _play(specs, backend, quiet, done)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _print(title: str, summaries: list[tuple[str, dict[str, Any]]], changed: list[int] | None,
           differing: list[int] | None = None) -> None:
    from rich.console import Console
    from rich.table import Table

    from casebook.tools.batch_summary import compare_rows, summary_rows

    console = Console(soft_wrap=True)
    console.print(title)
    table = Table()
    table.add_column("")
    if len(summaries) == 1:
        table.add_column(summaries[0][0], justify="right")
        for row in summary_rows(summaries[0][1]):
            table.add_row(row.label, row.text)
    else:
        (name_a, a), (name_b, b) = summaries
        console.print(f"base: {name_a}\nalternative: {name_b}")
        for head in ("base", "alternative", "difference"):
            table.add_column(head, justify="right")
        for cells in compare_rows(a, b):
            table.add_row(*cells)
    console.print(table)
    if changed is not None:
        seeds = ", ".join(map(str, changed)) if changed else "none"
        console.print(f"seeds whose outcome changed: {len(changed)} ({seeds})")
    if differing is not None:  # "no effect" and "not applied" look alike in the outcome alone
        seeds = ", ".join(map(str, differing)) if differing else "none: the alternative changed nothing"
        console.print(f"seeds whose play differs (trace digests): {len(differing)} ({seeds})")


@click.command("batch")
@click.argument("game", default="moscow41", callback=game_argument)
@click.argument("scenario", required=False, default=None)
@click.option("--games", type=click.IntRange(min=1), default=10, show_default=True, help="How many games.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Local processes (default: the cores); with --scheduler local, the cluster's workers.")
@click.option("--first-seed", type=click.IntRange(min=0), default=1, show_default=True, help="Seed of the first game (then +1 …).")
@click.option("--bot", "bots", multiple=True, metavar="SIDE=KIND",
              help="A side's bot: planner, greedy or random (default: planner on every side). Repeatable.")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
              help="Override an interpretation setting for every game. Repeatable.")
@click.option("--compare-pack", type=click.Path(exists=True, file_okay=False, resolve_path=True), default=None,
              help="Also play the same seeds with this pack and compare.")
@click.option("--compare-set", "compare_sets", multiple=True, metavar="NAME=VALUE",
              help="Also play the same seeds with this setting changed and compare. Repeatable.")
@click.option("--max-turns", type=click.IntRange(min=1), default=None,
              help="Stop a game after this turn and score it as it stands.")
@click.option("--max-actions", type=click.IntRange(min=0), default=None,
              help="Stop a game after this many decisions and score it as it stands.")
@click.option("--no-vp", is_flag=True, help="Do not count victory points (quicker; unfinished games stay unscored).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Play on a Dask distributed scheduler (tcp://host:8786), or `local` for a local cluster.")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the raw records (each with its game, seed, bots, settings) and the summaries to FILE.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.pass_context
def batch(ctx: click.Context, game: str, scenario: str | None, games: int, workers: int | None,
          first_seed: int, bots: tuple[str, ...], sets: tuple[str, ...], compare_pack: str | None,
          compare_sets: tuple[str, ...], max_turns: int | None, max_actions: int | None,
          no_vp: bool, scheduler: str | None, json_out: Path | None, quiet: bool) -> None:
    """Play GAME's SCENARIO (default: moscow41 and the first scenario its manifest lists, the
    October Blitz) with bots on many seeds; print win rates, mean VPs and game lengths."""
    from casebook.tools.batch import Backend, GameSpec, default_workers, game_sides
    from casebook.tools.batch_summary import changed_seeds, differing_traces, summarize

    name, loaded = _load(game, scenario, "GAME")
    scenario = loaded.scenario
    sides = game_sides(loaded)
    chosen = _bots(sides, bots)
    settings = _settings(loaded, sets, "--set")
    seeds = range(first_seed, first_seed + games)

    def specs(pack: str, overrides: dict[str, Any]) -> list[GameSpec]:
        return [GameSpec(pack, scenario, seed, chosen, tuple(sorted(overrides.items())), max_turns,
                         max_actions, not no_vp) for seed in seeds]

    arms = [specs(name, settings)]
    if compare_pack or compare_sets:
        if compare_pack:
            _compare_same_game(compare_pack, loaded)
        alt_name, alt_game = _load(compare_pack, scenario, "--compare-pack") if compare_pack else (name, loaded)
        alt = {**(_settings(alt_game, sets, "--set") if compare_pack else settings),
               **_settings(alt_game, compare_sets, "--compare-set")}
        in_force = {**loaded.starting_settings(), **settings}
        if not compare_pack and all(in_force.get(k) == v for k, v in alt.items()):
            raise click.BadParameter(
                "already in force (the register's default, the scenario's or --set): nothing to "
                "compare", param_hint="--compare-set")
        arms.append(specs(alt_name, alt))
    everything = [spec for arm in arms for spec in arm]
    if scheduler is not None:
        _check_scheduler(scheduler)
    if json_out is not None:  # before hours of play, not after
        try:
            json_out.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise click.BadParameter(f"cannot write there: {exc}", param_hint="--json") from None
    backend = Backend.choose(min(workers or default_workers(), len(everything)), scheduler)
    if backend.kind == "dask" and importlib.util.find_spec("distributed") is None:
        raise click.UsageError("--scheduler needs Dask: pip install 'casebook[dask]'")
    done: list[Any] = []
    try:
        finished: list[Any] = _play_terminable(everything, backend, quiet, done)  # in spec order
        interrupted = None
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the workers are stopped; keep what finished
        finished = _finished(everything, done)  # in spec order, None for the games not finished
        interrupted = f"interrupted: {len(done)} of {len(everything)} games finished"
    records = [r for r in finished if r is not None]
    split = [[r for r in finished[i * games:(i + 1) * games] if r is not None] for i in range(len(arms))]
    kept = split  # every finished game goes to --json
    if interrupted and len(split) == 2:  # compare like with like: the seeds both sides finished
        both = {r.seed for r in split[0]} & {r.seed for r in split[1]}
        split = [[r for r in arm if r.seed in both] for arm in split]
        interrupted += f"; compared on the {len(both)} seed{'s' if len(both) != 1 else ''} both sides finished"

    labels = [_label(arm[0]) for arm in arms]
    if len(labels) == 2 and labels[0] == labels[1]:  # a copied pack in a folder named like the game
        labels[1] = " ".join([str(arms[1][0].game)] + labels[1].split(" ")[1:])
    summaries = [(label, summarize(recs)) for label, recs in zip(labels, split)]
    bots_text = " ".join(f"{s}={k}" for s, k in chosen)
    seed_text = f"seed {seeds[0]}" if games == 1 else f"seeds {seeds[0]}–{seeds[-1]}"
    title = (f"{loaded.engine.pack.manifest.get('name', name)}, {scenario}: {games} "
             f"game{'s' if games != 1 else ''}, {seed_text}, {bots_text}, on {backend.describe()}"
             + (f" — {interrupted}" if interrupted else ""))
    if records:
        _print(title, summaries, changed_seeds(*split) if len(split) == 2 else None,
               differing_traces(*split) if len(split) == 2 else None)
    else:  # interrupted before any game finished: nothing to summarize, the JSON still says so
        click.echo(f"{title}\nno game finished")
    failed = [r for r in records if r.error]
    for r in failed:
        click.echo(f"seed {r.seed} ({_label_of(r)}): {r.error} — at {r.where}", err=True)
    if json_out is not None:
        doc = {"title": title, "interrupted": bool(interrupted), "arms": [
            {"label": label, "records": [r.to_dict() for r in recs], "summary": summary}
            for label, recs, (_, summary) in zip(labels, kept, summaries)]}
        json_out.write_text(json.dumps(doc, indent=1, default=str) + "\n", encoding="utf-8")
    if interrupted:
        click.echo(f"Aborted ({interrupted}; the summary counts those only).", err=True)
        ctx.exit(130)
    if failed:
        ctx.exit(1)


def _compare_same_game(compare_pack: str, loaded: Any) -> None:
    """BadParameter unless ``compare_pack`` is a pack of the same game as the batch."""
    from casebook.content.loader import load_pack
    from casebook.core.errors import ContentError

    try:
        other = load_pack(compare_pack).id
    except ContentError:
        return  # _load names the problem
    if other != loaded.engine.pack.id:
        raise click.BadParameter(f"{compare_pack} is a pack of {other!r}; the batch plays "
                                 f"{loaded.engine.pack.id!r}", param_hint="--compare-pack")


def _check_scheduler(address: str) -> None:
    """BadParameter unless ``address`` is ``local`` or a Dask address ``PROTOCOL://…``
    (``tcp://HOST:PORT``, ``inproc://…``)."""
    import re

    if address != "local" and not re.fullmatch(r"[a-z]+://\S+", address):
        raise click.BadParameter(f"expected local or tcp://HOST:PORT, got {address!r}",
                                 param_hint="--scheduler")


def _label(spec: Any) -> str:
    """An arm's pack and settings, e.g. ``moscow41 road_bridges=river_added``."""
    return " ".join([Path(spec.game).name] + [f"{k}={v}" for k, v in spec.settings])


def _label_of(record: Any) -> str:
    return " ".join([Path(record.game).name] + [f"{k}={v}" for k, v in record.settings.items()])
