"""Greedy against random: how often the greedy bot wins the October Blitz, on each side.

    python benchmarks/greedy_vs_random.py [--games 50] [--scenario october-blitz] [--workers 2]

Plays ``--games`` seeded games with greedy as the Germans against random Soviets, and as many
with greedy as the Soviets; prints each game's result and a summary table (wins, draws, losses
and mean actions per pairing) to paste into BENCHMARKS.md. Seeds are 1..N, so reruns agree.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from casebook.kernel.game import Game
from casebook.tools.bots import make_bot


def play_one(args: tuple[str, str, str, int]) -> tuple[str, int, str | None, str | None, int, float]:
    scenario, german, soviet, seed = args
    game = Game.load("moscow41", scenario)
    state = game.new_initial_state(seed)
    bots = {"german": make_bot(german, "german", seed), "soviet": make_bot(soviet, "soviet", seed)}
    start, n = time.time(), 0
    while not state.is_terminal():
        state.apply(bots[state.current_player()].choose(state))
        n += 1
    result = state.result() or {}
    return f"{german} vs {soviet}", seed, result.get("winner"), result.get("level"), n, time.time() - start


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--scenario", default="october-blitz")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    jobs = [(args.scenario, "greedy", "random", s) for s in range(1, args.games + 1)]
    jobs += [(args.scenario, "random", "greedy", s) for s in range(1, args.games + 1)]
    tally: dict[str, Counter] = {}
    actions: dict[str, list[int]] = {}
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for pairing, seed, winner, level, n, secs in pool.map(play_one, jobs):
            greedy_side = "german" if pairing.startswith("greedy") else "soviet"
            outcome = "draw" if winner is None else ("win" if winner == greedy_side else "loss")
            tally.setdefault(pairing, Counter())[outcome] += 1
            actions.setdefault(pairing, []).append(n)
            print(f"{pairing} seed {seed}: {winner or 'nobody'} {level} ({n} actions, {secs:.0f} s)", flush=True)
    print("\n| greedy plays | games | greedy wins | draws | greedy losses | mean actions |")
    print("|---|---|---|---|---|---|")
    for pairing, t in tally.items():
        side = "Germans" if pairing.startswith("greedy") else "Soviets"
        n = sum(t.values())
        print(f"| {side} | {n} | {t['win']} | {t['draw']} | {t['loss']} | {sum(actions[pairing]) / n:.0f} |")


if __name__ == "__main__":
    main()
