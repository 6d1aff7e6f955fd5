"""What a rules lawyer and a player feel: the wall and CPU seconds of whole ``casebook`` commands
(issue #18 targets on this 2-core machine: pack load ≤ 0.3 s, any ``ask`` on the full map ≤ 0.5 s,
``play --load`` ≤ 2 s). Nothing is asserted; the figures go into BENCHMARKS.md by hand.

    python benchmarks/bench_cli.py [--rounds N] [--cold]

Every command runs in a fresh process (``python -m casebook.tools …``), so its imports count; the
children may write bytecode (``__pycache__``) as an installed Casebook does, whatever
``PYTHONDONTWRITEBYTECODE`` says.
The compiled-pack cache (src/casebook/content/packcache.py) lives in a temporary folder: one warming run fills
it, then each figure is the median of ``--rounds`` runs. ``--cold`` also times each command with
``CASEBOOK_CACHE=off`` (every YAML file parsed and validated, as before the cache).

Rows: pack load (``load_pack("moscow41")`` in a fresh interpreter; the imports apart), ``ask`` on
the October Blitz setup (weather, supply, reach, zoc, vp, then one of each other question of
docs/ask/: attack, command, drop, fortification, income, move, overrun, partisans, rail,
reinforcements, retreat, stacking), and
``play --load`` of a Blitz position saved after 120 greedy decisions, both sides human: the wall
time to the first prompt (load, the legal actions listed), then the input is closed.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

__all__ = ["ASKS", "timed", "make_save", "main"]

ROOT = Path(__file__).resolve().parent.parent
BLITZ = "games/moscow41/scenarios/october-blitz.yaml"
#: (label, ask arguments) on the October Blitz setup
ASKS = (
    ("ask weather", ["weather"]),
    ("ask supply g-1pz-1", ["supply", "g-1pz-1"]),
    ("ask reach g-xxxxi-pz", ["reach", "g-xxxxi-pz"]),
    ("ask zoc 2712", ["zoc", "2712"]),
    ("ask vp", ["vp"]),
    # one of each other documented question (docs/ask/), on the same full-map position
    ("ask attack 2713 --with g-1pz-1", ["attack", "2713", "--with", "g-1pz-1"]),
    ("ask command g-1pz-1", ["command", "g-1pz-1"]),
    ("ask drop", ["drop"]),
    ("ask fortification 2811", ["fortification", "2811"]),
    ("ask income german", ["income", "german"]),
    ("ask move g-1pz-1 2711", ["move", "g-1pz-1", "2711"]),
    ("ask overrun g-1pz-1 2711", ["overrun", "g-1pz-1", "2711"]),
    ("ask partisans", ["partisans"]),
    ("ask rail g-1pz-1", ["rail", "g-1pz-1"]),
    ("ask reinforcements soviet", ["reinforcements", "soviet"]),
    ("ask retreat g-1pz-1 --hexes 2", ["retreat", "g-1pz-1", "--hexes", "2"]),
    ("ask stacking 2712", ["stacking", "2712"]),
)
_LOAD = ("import time; t = time.process_time(); from casebook.content.loader import load_pack; "
         "i = time.process_time(); load_pack('moscow41'); e = time.process_time(); "
         "print(f'{i - t:.4f} {e - i:.4f}')")


def timed(cmd: list[str], env: dict[str, str], stdin: str = "") -> tuple[float, float, str]:
    """(wall s, CPU s of the child, stdout) of one fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, env=env, input=stdin, capture_output=True, text=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0,):
        raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}:\n{done.stdout[-1500:]}{done.stderr[-1500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def make_save(folder: Path, decisions: int = 120) -> Path:
    """A Blitz position saved after ``decisions`` greedy decisions (seed 1), with its trace."""
    from casebook.content.yamlio import dump_yaml
    from casebook.core.game import Game
    from casebook.tools.bots import make_bot

    state = Game.load("moscow41", "october-blitz").new_initial_state(1)
    bots = {side: make_bot("greedy", side, 1) for side in ("german", "soviet")}
    for _ in range(decisions):
        state.apply(bots[state.current_player()].choose(state))
    save = folder / "save.yaml"
    save.write_text(dump_yaml(state.to_dict()), encoding="utf-8")
    state.trace.write(Path(str(save) + ".trace.jsonl"))
    return save


def _median(runs: list[tuple[float, float]]) -> str:
    wall = statistics.median(r[0] for r in runs)
    cpu = statistics.median(r[1] for r in runs)
    return f"{wall:.2f} s wall, {cpu:.2f} s CPU"


def _rows(env: dict[str, str], save: Path, out: Path, rounds: int) -> list[tuple[str, str]]:
    py = sys.executable
    rows = []
    loads = [timed([py, "-c", _LOAD], env)[2].split() for _ in range(rounds)]
    imp = statistics.median(float(x[0]) for x in loads)
    pack = statistics.median(float(x[1]) for x in loads)
    rows.append(("pack load moscow41 (CPU in process; imports apart)", f"{pack:.3f} s CPU (imports {imp:.2f} s)"))
    for label, args in ASKS:
        runs = [timed([py, "-m", "casebook.tools", "ask", BLITZ, *args], env)[:2] for _ in range(rounds)]
        rows.append((f"casebook {label} (October Blitz setup)", _median(runs)))
    runs = [to_prompt([py, "-m", "casebook.tools", "play", "--load", str(save), "--player", "german=human",
                       "--player", "soviet=human", "--quiet", "--out", f"{out}-{i}"], env) for i in range(rounds)]
    rows.append(("casebook play --load (Blitz save after 120 decisions) to the first prompt",
                 _median(runs)))
    return rows


def _cpu_of(pid: int) -> float:
    """CPU seconds (user + system) a running child has used so far (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def to_prompt(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds from starting ``cmd`` to its first ``SIDE> `` prompt on stdout (then
    its input is closed: the play is left unfinished and written out)."""
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    seen = b""
    assert proc.stdout is not None and proc.stdin is not None
    while b"> " not in seen.rsplit(b"\n", 1)[-1]:
        chunk = proc.stdout.read1(4096)
        if not chunk:
            break
        seen += chunk
    wall = time.perf_counter() - t
    cpu = _cpu_of(proc.pid)
    proc.stdin.close()
    proc.stdout.read()
    proc.wait()
    return wall, cpu


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cold", action="store_true", help="also time every command with the cache off")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cache = folder / "cache"
        # as installed: the bytecode of the sources is written once and reused (this machine's
        # environment sets PYTHONDONTWRITEBYTECODE, which makes every command compile them again)
        env: dict[str, Any] = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["CASEBOOK_CACHE"] = str(cache)
        os.environ["CASEBOOK_CACHE"] = str(cache)
        save = make_save(folder)
        timed([sys.executable, "-m", "casebook.tools", "ask", BLITZ, "weather"], env)  # warm the cache
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {args.rounds} rounds; "
              "median of fresh processes (on a busy machine read the CPU seconds)")
        print("| command | cache warm |" + (" cache off |" if args.cold else ""))
        print("|---|---|" + ("---|" if args.cold else ""))
        warm = _rows(env, save, folder / "out", args.rounds)
        cold = _rows({**env, "CASEBOOK_CACHE": "off"}, save, folder / "cold", 1) if args.cold else None
        for i, (label, figure) in enumerate(warm):
            print(f"| {label} | {figure} |" + (f" {cold[i][1]} |" if cold else ""))


if __name__ == "__main__":
    main()
