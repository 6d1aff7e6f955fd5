"""Greedy against random: how often the greedy bot wins the October Blitz, on each side.

    python benchmarks/greedy_vs_random.py [--games 50] [--scenario october-blitz] [--workers 2]
                                          [--scheduler ADDRESS]

Plays ``--games`` seeded games with greedy as the Germans against random Soviets, and as many
with greedy as the Soviets, through :func:`casebook.tools.batch.run_batch` (a local process pool,
or Dask with ``--scheduler``); prints each game's result and a summary table (wins, draws, losses
and mean actions per pairing) to paste into BENCHMARKS.md. Seeds are 1..N, so reruns agree.
"""

from __future__ import annotations

import argparse
from collections import Counter

from casebook.tools.batch import Backend, GameRecord, GameSpec, run_batch


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--scenario", default="october-blitz")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--scheduler", default=None)
    args = ap.parse_args()
    pairings = [(("german", "greedy"), ("soviet", "random")), (("german", "random"), ("soviet", "greedy"))]
    specs = [GameSpec("moscow41", args.scenario, seed, bots, vps=False)
             for bots in pairings for seed in range(1, args.games + 1)]

    def show(r: GameRecord) -> None:
        outcome = r.error or f"{r.winner or 'nobody'} {r.level}"
        print(f"{_pairing(r)} seed {r.seed}: {outcome} ({r.actions} actions, {r.seconds:.0f} s)", flush=True)

    records = run_batch(specs, Backend.choose(args.workers, args.scheduler), on_done=show)
    tally: dict[str, Counter] = {}
    actions: dict[str, list[int]] = {}
    for r in records:
        greedy_side = next(side for side, kind in r.bots.items() if kind == "greedy")
        outcome = "error" if r.error else "draw" if r.winner is None else \
            "win" if r.winner == greedy_side else "loss"
        tally.setdefault(greedy_side, Counter())[outcome] += 1
        actions.setdefault(greedy_side, []).append(r.actions)
    print("\n| greedy plays | games | greedy wins | draws | greedy losses | mean actions |")
    print("|---|---|---|---|---|---|")
    for side, t in tally.items():
        n = sum(t.values())
        errors = f" ({t['error']} errors)" if t["error"] else ""
        print(f"| {side.capitalize()}s | {n}{errors} | {t['win']} | {t['draw']} | {t['loss']} | "
              f"{sum(actions[side]) / n:.0f} |")


def _pairing(r: GameRecord) -> str:
    return " vs ".join(r.bots.values())


if __name__ == "__main__":
    main()
