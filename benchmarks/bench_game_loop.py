"""The greedy October Blitz game loop of issue #14 item 7: CPU time and function calls of a whole
game (greedy against greedy, seed 1, ``Game`` API; loading the pack is excluded). Measured, never
asserted.

    python benchmarks/bench_game_loop.py run [--pack DIR | --old-map] [--calls] [--prof OUT]
        one game in this process; prints one JSON line: actions, a digest of the actions
        played, CPU seconds of the loop (``time.process_time``) and, with --calls, the number
        of function calls under cProfile (deterministic with PYTHONHASHSEED=0)
    python benchmarks/bench_game_loop.py compare --base TREE [--rounds 4] [--calls]
        the one command of a comparison: this tree (on the old-map copy of its pack, built
        from git, see below) and TREE (a checkout of 8023ab2 with its own .venv, on its own
        pack) alternately, each game in a fresh process with PYTHONHASHSEED=0; one line per
        round with the load average and the ratio, then the medians

The reference of #14 item 7 is commit 8023ab2 (session 6's end), which ships the old (affine)
map; this tree ships the similarity-fit map since b3bad5b. ``--old-map`` plays this tree on a
copy of ``games/moscow41`` whose map, geography, scenarios and initiative chart (and the counters
and TEC values session 9 changed) are restored from ``b3bad5b^`` (git must be able to read this
repository), so both trees play the same game:
the digests of the actions played must be equal (801 actions at 8023ab2). The digest leaves out
the ``with`` list of ``advance`` actions: since d9f8727 (11.4B) the listed advance names only the
attackers that fit the stacking limit (21 of the 801 actions differ there and nowhere else).

The machine is shared and noisy: only the ratios within a round mean much; note the load.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

#: the files b3bad5b (the similarity-fit map) changed in the pack, restored from its parent
OLD_MAP_COMMIT = "b3bad5b^"
#: (and the content values session 9 changed for #16 — German strengths x1.4, the TEC's Mud column —
#: restored from the same commit, so the game played is still 8023ab2's)
OLD_MAP_FILES = ("map.yaml", "geography.yaml", "scenarios/campaign.yaml",
                 "scenarios/october-blitz.yaml", "tables/initiative_chart.yaml",
                 "counters.yaml", "tables/tec.yaml", "tables/tec_hexside.yaml", "tables/tec_prohibited.yaml",
                 "tables/withdrawals.yaml")

__all__ = ["old_map_pack", "play", "compare"]


def old_map_pack(dest: Path) -> Path:
    """A copy of this tree's ``games/moscow41`` at ``dest`` with the old (affine) map restored
    from :data:`OLD_MAP_COMMIT`; returns ``dest``."""
    import shutil

    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(ROOT / "games" / "moscow41", dest)
    for name in OLD_MAP_FILES:
        text = subprocess.run(["git", "show", f"{OLD_MAP_COMMIT}:games/moscow41/{name}"], cwd=ROOT,
                              check=True, capture_output=True, text=True).stdout
        (dest / name).write_text(text)
    return dest


def play(pack: str, seed: int = 1, calls: bool = False, prof: str | None = None,
         gc_mode: str = "default") -> dict[str, Any]:
    """Greedy against greedy on October Blitz of ``pack`` (id or directory): the loop's CPU
    seconds, the number of actions and a digest of them, and with ``calls`` (or ``prof``, a
    file for the cProfile stats) the function calls of the loop."""
    from casebook.core.game import Game
    from casebook.tools.bots import make_bot

    game = Game.load(pack, "october-blitz")
    state = game.new_initial_state(seed)
    bots = {s: make_bot("greedy", s, seed) for s in ("german", "soviet")}
    played: list[str] = []
    if gc_mode == "tuned":  # what the casebook command does once a game is loaded
        from casebook.tools.runtime import tune_gc

        tune_gc()
    elif gc_mode == "off":
        import gc

        gc.disable()

    def loop() -> None:
        while not state.is_terminal():
            action = bots[state.current_player()].choose(state)
            args = action.args if action.kind != "advance" else tuple(a for a in action.args if a[0] != "with")
            played.append(repr((action.kind, action.side, args)))
            state.apply(action)

    out: dict[str, Any] = {}
    if calls or prof:
        import cProfile
        import pstats

        profile = cProfile.Profile()
        t = time.process_time()
        profile.enable()
        loop()
        profile.disable()
        out["cpu_s_profiled"] = round(time.process_time() - t, 3)
        if prof:
            profile.dump_stats(prof)
        out["calls"] = sum(v[1] for v in pstats.Stats(profile).stats.values())  # type: ignore[attr-defined]
    else:
        t = time.process_time()
        loop()
        out["cpu_s"] = round(time.process_time() - t, 3)
    digest = hashlib.sha256("\n".join(played).encode()).hexdigest()[:16]
    return {"actions": len(played), "digest": digest, **out}


def _run_one(python: str, pack: str, calls: bool) -> dict[str, Any]:
    cmd = [python, str(Path(__file__).resolve()), "run", "--pack", pack] + (["--calls"] if calls else [])
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if done.returncode:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stderr[-3000:]}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def compare(base: Path, rounds: int, calls: bool) -> None:
    """Alternate ``base`` (its own venv and pack) and this tree (the old-map pack copy), one game
    per fresh process, and print a line per round and the medians."""
    base_python = str(base / ".venv" / "bin" / "python")
    with tempfile.TemporaryDirectory() as tmp:
        pack = str(old_map_pack(Path(tmp) / "moscow41"))
        ratios: list[float] = []
        cols: dict[str, list[float]] = {"base": [], "this": []}
        if calls:
            b = _run_one(base_python, str(base / "games" / "moscow41"), True)
            t = _run_one(sys.executable, pack, True)
            print(f"calls: base {b['calls']:,} ({b['actions']} actions, {b['digest']}), this "
                  f"{t['calls']:,} ({t['actions']} actions, {t['digest']}): "
                  f"{(t['calls'] / b['calls'] - 1) * 100:+.1f}%", flush=True)
        for r in range(1, rounds + 1):
            load = os.getloadavg()
            order = ("base", "this") if r % 2 else ("this", "base")
            got: dict[str, dict[str, Any]] = {}
            for who in order:
                if who == "base":
                    got[who] = _run_one(base_python, str(base / "games" / "moscow41"), False)
                else:
                    got[who] = _run_one(sys.executable, pack, False)
            same = got["base"]["digest"] == got["this"]["digest"]
            ratio = got["this"]["cpu_s"] / got["base"]["cpu_s"]
            ratios.append(ratio)
            cols["base"].append(got["base"]["cpu_s"])
            cols["this"].append(got["this"]["cpu_s"])
            print(f"round {r} (load {load[0]:.2f}-{os.getloadavg()[0]:.2f}): base {got['base']['cpu_s']:.2f} s, "
                  f"this {got['this']['cpu_s']:.2f} s, this/base {ratio:.3f}"
                  + ("" if same else f"  DIFFERENT GAMES ({got['base']['digest']} vs {got['this']['digest']})"),
                  flush=True)
        print(f"median of the paired ratios {statistics.median(ratios):.3f}; column medians base "
              f"{statistics.median(cols['base']):.2f} s, this {statistics.median(cols['this']):.2f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    run = sub.add_parser("run", help="one game in this process")
    where = run.add_mutually_exclusive_group()
    where.add_argument("--pack", default="moscow41", help="pack id or directory (default moscow41)")
    where.add_argument("--old-map", action="store_true", help="this tree's pack with the old map")
    run.add_argument("--seed", type=int, default=1)
    run.add_argument("--calls", action="store_true", help="count function calls (cProfile)")
    run.add_argument("--prof", help="write the cProfile stats here")
    cmp = sub.add_parser("compare", help="this tree against a base tree, alternating")
    cmp.add_argument("--base", type=Path, required=True, help="checkout of the base commit with .venv")
    cmp.add_argument("--rounds", type=int, default=4)
    cmp.add_argument("--calls", action="store_true", help="also count function calls once each")
    args = parser.parse_args(argv)
    if args.cmd == "compare":
        compare(args.base, args.rounds, args.calls)
        return 0
    if args.old_map:
        with tempfile.TemporaryDirectory() as tmp:
            print(json.dumps(play(str(old_map_pack(Path(tmp) / "moscow41")), args.seed, args.calls, args.prof)))
        return 0
    print(json.dumps(play(args.pack, args.seed, args.calls, args.prof)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
