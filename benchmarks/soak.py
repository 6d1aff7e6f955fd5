"""Soak: play whole games with bots and check the invariants after every action.

    python benchmarks/soak.py [--games N] [--scenario october-blitz|campaign] [--bot random|greedy]

Prints one line per game (seed, actions, turns, result, seconds) and exits 1 at the first
failure (an exception or a broken invariant), naming the seed and the action. Not part of the
test suite (CI plays short prefixes in tests/test_play_moscow41.py).
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback

from casebook.kernel.game import Game
from casebook.tools.bots import make_bot


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


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--scenario", default="october-blitz")
    ap.add_argument("--bot", default="random")
    ap.add_argument("--first-seed", type=int, default=1)
    args = ap.parse_args()
    game = Game.load("moscow41", args.scenario)
    for seed in range(args.first_seed, args.first_seed + args.games):
        state = game.new_initial_state(seed)
        bots = {s: make_bot(args.bot, s, seed) for s in ("german", "soviet")}
        start, n = time.time(), 0
        try:
            while not state.is_terminal():
                action = bots[state.current_player()].choose(state)
                state.apply(action)
                n += 1
                check(state)
        except Exception:
            print(f"seed {seed}: FAILED after {n} actions (turn {state.data.turn}, {state.data.step})")
            traceback.print_exc()
            return 1
        result = state.result() or {}
        print(f"seed {seed}: {n} actions, turn {state.data.turn}, {result.get('winner')} "
              f"{result.get('level')}, {time.time() - start:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
