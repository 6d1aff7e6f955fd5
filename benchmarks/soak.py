"""Soak: play whole games with bots and check the invariants after every action.

    python benchmarks/soak.py [--games N] [--scenario october-blitz|campaign] [--bot random|greedy]
                              [--first-seed S] [--workers W] [--max-actions A]

Games are played by :func:`casebook.tools.batch.run_batch` (serially, or on ``--workers``
processes) with :func:`check` run after every action. Prints one line per game (seed, actions,
turns, result, seconds); a failure (an exception or a broken invariant) is printed with its seed,
where it happened and the traceback, the other games go on, and the script exits 1. Not part of
the test suite (CI plays short prefixes in tests/test_play_moscow41.py).
"""

from __future__ import annotations

import argparse
import sys

from casebook.tools.batch import Backend, GameRecord, GameSpec, run_batch


def check(state) -> None:
    data = state.data
    for side in ("german", "soviet"):
        assert 0 <= data.ip(side) <= 99, (side, data.ip(side))
    ids = [u.get("id") for u in data.units]
    assert len(ids) == len(set(ids)), "a unit is in two places"
    for u in data.units:
        assert 0 <= int(u.get("losses") or 0) <= 3, u
    seqs = [e.seq for e in state.trace]
    assert seqs == list(range(len(seqs))), "trace sequence not dense"


def show(r: GameRecord) -> None:
    if r.error:
        print(f"seed {r.seed}: FAILED at {r.where}: {r.error}\n{r.detail}", flush=True)
    else:
        print(f"seed {r.seed}: {r.actions} actions, turn {r.turns}, {r.winner} {r.level}, "
              f"{r.seconds:.1f} s", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--scenario", default="october-blitz")
    ap.add_argument("--bot", default="random")
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--max-actions", type=int, default=None, help="stop each game after this many")
    args = ap.parse_args()
    bots = tuple((side, args.bot) for side in ("german", "soviet"))
    specs = [GameSpec("moscow41", args.scenario, seed, bots, vps=False, check=check,
                      max_actions=args.max_actions)
             for seed in range(args.first_seed, args.first_seed + args.games)]
    records = run_batch(specs, Backend.choose(args.workers, None), on_done=show)
    return 1 if any(r.error for r in records) else 0


if __name__ == "__main__":
    sys.exit(main())
