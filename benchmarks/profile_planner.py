"""cProfile of planner side-turns (issue #16): planner against planner in the October Blitz, the
``--side`` player's decisions of turn ``--turn`` on ``--seed`` (session 15/16: Soviet, Turn 1, seed 3;
``--turn 0``: every turn of the game, the side-turns of ``bench_planner.py --both-sides SEED``).
Prints the side-turns' CPU seconds (``time.process_time``, profiler running) and the top functions
by cumulative time; ``--out F`` keeps the stats for ``pstats``. Measured, never asserted.

    python benchmarks/profile_planner.py --seed 3 --side soviet --turn 1 --top 45 --out /tmp/s.prof
    python benchmarks/profile_planner.py --seed 1 --side german --turn 0    # a whole game's German side-turns
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from casebook.core.game import Game
from casebook.tools.planner import PlannerBot


def profile_turn(seed: int, side: str, turn: int) -> tuple[cProfile.Profile, float]:
    """The profile of ``side``'s decisions in ``turn`` (0: every turn) and their CPU seconds."""
    state = Game.load("moscow41", "october-blitz").new_initial_state(seed)
    bots = {s: PlannerBot(s, seed) for s in state.data.sides}
    prof, cpu = cProfile.Profile(), 0.0
    while not state.is_terminal() and (turn == 0 or state.data.turn <= turn):
        who = state.current_player()
        measured = who == side and turn in (0, state.data.turn)
        c = time.process_time()
        if measured:
            prof.enable()
        action = bots[who].choose(state)
        if measured:
            prof.disable()
            cpu += time.process_time() - c
        state.apply(action)
    return prof, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--side", default="soviet")
    parser.add_argument("--turn", type=int, default=1, help="the turn profiled (0: every turn)")
    parser.add_argument("--top", type=int, default=45)
    parser.add_argument("--out", help="write the stats here (pstats)")
    args = parser.parse_args()
    prof, cpu = profile_turn(args.seed, args.side, args.turn)
    print(f"{args.side} turn {args.turn or 'all'}, seed {args.seed}: {cpu:.2f} s CPU (profiled)")
    stats = pstats.Stats(prof)
    if args.out:
        stats.dump_stats(args.out)
    stats.sort_stats("cumulative").print_stats(args.top)


if __name__ == "__main__":
    main()
