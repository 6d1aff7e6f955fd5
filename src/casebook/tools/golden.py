"""Golden playthroughs: whole seeded bot games whose traces are committed and compared byte for byte.

They are the safety net of every restructuring: a change that keeps the engine's behaviour keeps
every golden trace identical; a change that alters play (a rule fix, a new ordering of legal
actions) must say why in the commit that regenerates them. :data:`GOLDEN` lists the games — every
scenario of every installed game (read from its manifest: a new game folder needs no Python), seeds
1 and 2 with the greedy bot and seed 3 with the random bot — and each one's trace lives in the
game's folder, ``games/<game>/golden/<scenario>-<bot>-seed<N>.jsonl``. ``--pack DIR`` plays a pack
folder's own (a copy being ported), its traces in ``DIR/golden/``.

``casebook golden`` plays them all and reports which differ (exit 1), with the first differing
event of each; ``casebook golden --write`` regenerates the files (review ``git diff --stat`` and
the first differences it prints before committing). ``--only TEXT`` keeps the games whose name
(``<game>/<file>``) contains TEXT; a TEXT no game matches is a usage error.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import click

__all__ = ["GoldenGame", "GOLDEN", "RUNS", "golden_games", "golden_dir", "play_golden", "first_difference",
           "golden"]


@dataclass(frozen=True)
class GoldenGame:
    """One golden playthrough: ``game`` id, ``scenario`` id, dice/bot ``seed``, the bot ``kind``
    (``greedy`` or ``random``) playing every side; ``pack``: the pack folder when it is not the
    installed game's (``casebook golden --pack DIR``)."""

    game: str
    scenario: str
    seed: int
    kind: str
    pack: str | None = None

    @property
    def name(self) -> str:
        """The name of its trace: ``<game>/<file>`` (the file lives in :func:`golden_dir` of the game)."""
        return f"{self.game}/{self.file}"

    @property
    def file(self) -> str:
        """The file name of its trace in the game's ``golden/`` folder."""
        return f"{self.scenario}-{self.kind}-seed{self.seed}.jsonl"

    @property
    def path(self) -> Path:
        """Where its trace is committed."""
        return (Path(self.pack) / "golden" if self.pack else golden_dir(self.game)) / self.file


#: The playthroughs of every scenario: (seed, bot) — two greedy games and a random one.
RUNS: tuple[tuple[int, str], ...] = ((1, "greedy"), (2, "greedy"), (3, "random"))


def golden_games(packs: Mapping[str, Path] | None = None, own_folder: bool = False) -> tuple[GoldenGame, ...]:
    """Every scenario (in its manifest's order) of every pack of ``packs`` (game id -> pack folder;
    default: the installed games) x :data:`RUNS`. ``own_folder``: the traces live in each pack
    folder given (``--pack``), not the installed game's. A manifest that cannot be read gives no game
    (``casebook lint`` reports it)."""
    from casebook.content.loader import installed_games
    from casebook.content.yamlio import read_yaml

    out: list[GoldenGame] = []
    for game, folder in (installed_games() if packs is None else packs).items():
        doc, _ = read_yaml(Path(folder) / "game.yaml")
        scenarios = doc.data.get("scenarios") if doc is not None and isinstance(doc.data, dict) else None
        for scenario in scenarios if isinstance(scenarios, dict) else ():
            out += [GoldenGame(game, str(scenario), seed, kind, str(folder) if own_folder else None)
                    for seed, kind in RUNS]
    return tuple(out)


#: Every scenario of every installed game x :data:`RUNS` (Moscow '41, Battle for Moscow, Kestrel Pass: 12).
GOLDEN: tuple[GoldenGame, ...] = golden_games()


def golden_dir(game: str) -> Path:
    """The folder of a game's committed golden traces (``golden/`` of its pack folder)."""
    from casebook.content.loader import find_pack

    return find_pack(game) / "golden"


def play_golden(spec: GoldenGame) -> str:
    """The JSON Lines text of ``spec``'s whole trace (played to the end by its bots)."""
    from casebook.tools.batch import load_game
    from casebook.tools.bots import make_bot

    state = load_game(spec.pack or spec.game, spec.scenario).new_initial_state(spec.seed)
    bots: dict[str, object] = {}
    while not state.is_terminal():
        side = state.current_player()
        if side not in bots:
            bots[side] = make_bot(spec.kind, side, spec.seed)
        state.apply(bots[side].choose(state))  # type: ignore[attr-defined]
    return str(state.trace.dumps())


def first_difference(expected: str, actual: str, context: int = 0) -> str:
    """A short unified diff of the first differing lines of two traces ('' when equal)."""
    if expected == actual:
        return ""
    a, b = expected.splitlines(), actual.splitlines()
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            lo = max(0, i - context)
            lines = difflib.unified_diff(a[lo:i + 1], b[lo:i + 1], "golden", "now", lineterm="", n=context)
            return f"first difference at line {i + 1}:\n" + "\n".join(list(lines)[2:])
    return f"same first {min(len(a), len(b))} lines; golden has {len(a)} lines, now {len(b)}"


@click.command("golden")
@click.option("--write", is_flag=True, help="Regenerate the golden trace files (then review the diff).")
@click.option("--only", default="", metavar="TEXT", help="Only the games whose name (GAME/FILE) contains TEXT.")
@click.option("--pack", "pack_dir", type=click.Path(exists=True, file_okay=False, resolve_path=True, path_type=Path), default=None,
              help="A pack folder's own playthroughs (traces in DIR/golden/) instead of the installed games'.")
def golden(write: bool, only: str, pack_dir: Path | None) -> None:
    """Play the golden playthroughs and compare (or, with --write, regenerate) their traces."""
    from casebook.content.loader import find_pack
    from casebook.content.yamlio import read_yaml
    from casebook.tools.runtime import tune_gc

    specs = GOLDEN
    if pack_dir is not None:
        doc, _ = read_yaml(find_pack(pack_dir) / "game.yaml")
        game = doc.data.get("id") if doc is not None and isinstance(doc.data, dict) else None
        specs = golden_games({str(game): pack_dir}, own_folder=True) if isinstance(game, str) else ()
    chosen = [spec for spec in specs if only in spec.name]
    if not chosen:
        names = sorted({spec.name.split("/", 1)[0] for spec in specs})
        raise click.BadParameter(f"no golden playthrough matches {only!r} (games: {', '.join(names) or 'none'})",
                                 param_hint="--only" if only else "--pack")
    tune_gc()
    changed = 0
    for spec in chosen:
        path = spec.path
        text = play_golden(spec)
        old = path.read_text(encoding="utf-8") if path.is_file() else None
        if old == text:
            click.echo(f"same     {spec.name}")
            continue
        changed += 1
        if old is None:
            click.echo(f"new      {spec.name}")
        else:
            click.echo(f"differs  {spec.name}: {first_difference(old, text)}")
        if write:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", newline="\n")
    if changed and not write:
        raise SystemExit(1)
