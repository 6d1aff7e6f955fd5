"""Golden playthroughs: whole seeded bot games whose traces are committed and compared byte for byte.

They are the safety net of every restructuring: a change that keeps the engine's behaviour keeps
every golden trace identical; a change that alters play (a rule fix, a new ordering of legal
actions) must say why in the commit that regenerates them. :data:`GOLDEN` lists the games — every
scenario of every shipped game, three seeds each, greedy and random bots — and each one's trace
lives in the game's folder, ``games/<game>/golden/<scenario>-<bot>-seed<N>.jsonl``.

``casebook golden`` plays them all and reports which differ (exit 1), with the first differing
event of each; ``casebook golden --write`` regenerates the files (review ``git diff --stat`` and
the first differences it prints before committing). ``--only TEXT`` keeps the games whose file
name contains TEXT.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

import click

__all__ = ["GoldenGame", "GOLDEN", "golden_dir", "play_golden", "first_difference", "golden"]


@dataclass(frozen=True)
class GoldenGame:
    """One golden playthrough: ``game`` id, ``scenario`` id, dice/bot ``seed``, the bot ``kind``
    (``greedy`` or ``random``) playing every side."""

    game: str
    scenario: str
    seed: int
    kind: str

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
        return golden_dir(self.game) / self.file


#: Every scenario of every shipped game x three seeds (greedy and random bots).
GOLDEN: tuple[GoldenGame, ...] = tuple(
    GoldenGame(game, scenario, seed, kind)
    for game, scenario in (("moscow41", "october-blitz"), ("moscow41", "campaign"),
                           ("battle_for_moscow", "campaign"), ("kestrel_pass", "meeting"))
    for seed, kind in ((1, "greedy"), (2, "greedy"), (3, "random"))
)


def golden_dir(game: str) -> Path:
    """The folder of a game's committed golden traces (``golden/`` of its pack folder)."""
    from casebook.content.loader import find_pack

    return find_pack(game) / "golden"


def play_golden(spec: GoldenGame) -> str:
    """The JSON Lines text of ``spec``'s whole trace (played to the end by its bots)."""
    from casebook.tools.batch import load_game
    from casebook.tools.bots import make_bot

    state = load_game(spec.game, spec.scenario).new_initial_state(spec.seed)
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
@click.option("--only", default="", metavar="TEXT", help="Only the games whose file name contains TEXT.")
def golden(write: bool, only: str) -> None:
    """Play the golden playthroughs and compare (or, with --write, regenerate) their traces."""
    from casebook.tools.runtime import tune_gc

    tune_gc()
    changed = 0
    for spec in GOLDEN:
        if only not in spec.name:
            continue
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
