"""What ``casebook play`` writes besides the account: the output folder and the progress bar.

**The output folder.** A play writes ``trace.jsonl``, ``final.yaml`` (with
``final.yaml.trace.jsonl``) and ``turn-NN.svg`` into ``--out`` (default ``out/``). A folder never
mixes two games: :func:`prepare_out` uses ``--out`` as it is when it holds no play's files, or
when the game continued with ``--load`` is the one saved there (``--load out/final.yaml``);
otherwise — it holds an earlier game — the play goes to the next free ``out-2``, ``out-3``, …
and says so (a save loaded from elsewhere, e.g. ``--load out-2/final.yaml`` with the default
``--out``, too: the line names it and ``--out`` of its folder), unless ``--overwrite`` is
given: then the earlier game's files (only the files a play writes; nothing else in the folder)
are deleted first.

**A finished game loaded** (``--load`` of a save whose game is over) is not played again:
:func:`game_over_lines` says it is over — the trace's game-over event (who won, the level, the
reason and its cases), the lines that decided it and the result — and nothing is written (it rewrote the whole account, the
trace and every turn's map, ~5 MB for a Campaign, each map drawn from the final position).

**The progress bar.** :class:`ProgressBar` is a transient rich bar on stderr (turns done out of
the scenario's last turn) while bots decide, and only then: it is taken down before a human's
decision, so the prompt and the list of actions are never drawn over, and put back when the
bots play on. Not shown when stderr is not a terminal or with ``--quiet``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["PLAY_FILES", "is_play_file", "prepare_out", "ProgressBar", "result_line", "game_over_lines"]

#: The files a play writes (turn maps match ``turn-NN.svg``).
PLAY_FILES = ("trace.jsonl", "final.yaml", "final.yaml.trace.jsonl")
_TURN_MAP = re.compile(r"^turn-\d+\.svg$")


def is_play_file(path: Path) -> bool:
    """Whether ``path`` is one of the files a play writes."""
    return path.is_file() and (path.name in PLAY_FILES or bool(_TURN_MAP.match(path.name)))


def _play_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if is_play_file(p))


def prepare_out(out: Path, load: str | None = None, overwrite: bool = False,
                echo: Callable[[str], Any] = print) -> Path:
    """The folder a play writes to (created), following the rules of the module docstring:
    ``out`` itself, or ``out`` emptied of an earlier game's files (``overwrite``), or the next
    free ``out-N``. ``load`` is the position continued, if any."""
    earlier = _play_files(out)
    if not earlier:
        out.mkdir(parents=True, exist_ok=True)
        return out
    if load is not None and Path(load).resolve().parent == out.resolve():
        return out  # the same game goes on where it was saved
    if overwrite:
        for p in earlier:
            p.unlink()
        echo(f"{out}/: the earlier game's {len(earlier)} files deleted (--overwrite)")
        return out
    n = 2
    while _play_files(Path(f"{out}-{n}")) or (Path(f"{out}-{n}").exists() and not Path(f"{out}-{n}").is_dir()):
        n += 1
    fresh = Path(f"{out}-{n}")
    fresh.mkdir(parents=True, exist_ok=True)
    if load is not None:  # a save from elsewhere (out-2/final.yaml, a `save` file): say how to go on in its folder
        echo(f"{out}/ holds an earlier game: this one (continued from {load}) is written to {fresh}/ "
             f"(--out {Path(load).parent} goes on beside the save; --overwrite replaces {out}/'s game instead)")
        return fresh
    echo(f"{out}/ holds an earlier game: this one is written to {fresh}/ (--overwrite replaces it instead)")
    return fresh


def result_line(result: Any) -> str:
    """The account's last line: ``Result: WINNER — LEVEL (REASON)`` (``nobody`` for a draw)."""
    return f"Result: {result.get('winner') or 'nobody'} — {result.get('level')} ({result.get('reason', '')})"


def game_over_lines(state: Any, load: str | Path, narrator: Any) -> list[str]:
    """What ``play --load`` says of a save whose game is over (the module docstring): the game-over
    event of its trace as the account shows it (with its cases), the lines that decided it (each
    ``file:line``, its cases and text, as ``casebook explain`` prints them: a Blitz won
    "otherwise" names ``scenarios/october-blitz.yaml:18`` and the German conditions' lines), the
    result, and that nothing is played or written."""
    from casebook.tools.cmd_explain import line_text

    over = [e for e in state.trace if e.kind == "game-over"]
    lines = [f"{load}: this game is over — nothing is left to play, nothing is written."]
    lines += [ln.lstrip("\n") for ln in narrator.lines(over[-1:])]
    pack = state.game.engine.pack
    decided = [ln for e in over[-1:] for ln in e.data.get("lines") or [] if isinstance(ln, dict)]
    lines += ["  the lines that decided it:"] if decided else []
    for ln in decided:  # as `casebook explain TRACE SEQ` prints them: file:line, cases, text
        text = line_text(str(ln.get("source", "")), pack.rules_dir, pack.dir)
        lines.append(f"    {ln.get('source')} ({', '.join(map(str, ln.get('cases') or []))})" + (f"  {text}" if text else ""))
    result = state.result()
    if result is not None:
        lines.append(result_line(result))
    return lines


class ProgressBar:
    """A transient bar of turns on stderr, shown only while bots decide (module docstring)."""

    def __init__(self, total: int | None, enabled: bool = True) -> None:
        self.total = total
        self.enabled = enabled and sys.stderr.isatty()
        self._bar: Any = None
        self._task: Any = None
        self._turn = 0

    def _start(self) -> None:
        from rich.console import Console
        from rich.progress import Progress

        # the account (stdout) goes through the bar's console only when both are the terminal
        self._bar = Progress(console=Console(stderr=True), transient=True,
                             redirect_stdout=sys.stdout.isatty(), redirect_stderr=False)
        self._bar.start()
        self._task = self._bar.add_task(f"turn {self._turn + 1}" if self._turn else "playing",
                                        total=self.total or None, completed=self._turn)

    def bots(self, turn: int) -> None:
        """Bots decide now in ``turn``: show (or update) the bar."""
        if not self.enabled:
            return
        if self._bar is None:
            self._turn = turn - 1
            self._start()
        self._turn = turn - 1
        self._bar.update(self._task, completed=turn - 1, description=f"turn {turn}")

    def human(self) -> None:
        """A human decides now: take the bar down (the prompt is the display)."""
        self.stop()

    def stop(self) -> None:
        """Take the bar down (it leaves nothing on the terminal)."""
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
