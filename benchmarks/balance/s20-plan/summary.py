"""Session 20 (branch plan20): per seed, from a ``casebook batch --json`` file's timelines — the winner,
the turn Vyazma 1722 was first German, the Soviet units eliminated and the Soviet units out of supply at
the end of Turns 1 and 2 (the pocket), and the turn Smolensk 1308 was lost (18.1.3D).

    python benchmarks/balance/s20-plan/summary.py FILE.json [--seeds 1-10]
"""

from __future__ import annotations

import argparse
import json


def _first(turns: list[dict], hexes: str, side: str) -> int | None:
    return next((t["turn"] for t in turns if t["control"].get(hexes) == side), None)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--seeds", default="1-10")
    a = ap.parse_args()
    lo, hi = (int(x) for x in a.seeds.split("-"))
    records = [r for arm in json.load(open(a.file))["arms"] for r in arm["records"] if lo <= r["seed"] <= hi]
    rows, wins, vy, smol = [], 0, 0, 0
    sums = {"el1": 0, "el2": 0, "oos1": 0, "oos2": 0}
    for r in sorted(records, key=lambda r: r["seed"]):
        turns = r["timeline"]["turns"]
        el, oos = [], []
        for t in turns[:2]:  # the timeline's eliminated count is the game's so far (batch_timeline)
            el.append(t["eliminated"]["soviet"]["units"])
            oos.append(t["oos"]["soviet"])
        v, s = _first(turns, "1722", "german"), _first(turns, "1308", "soviet")
        wins += r["winner"] == "german"
        vy += v is not None
        smol += s is not None
        for k, x in zip(("el1", "el2", "oos1", "oos2"), (*el, *oos)):
            sums[k] += x
        rows.append(f"seed {r['seed']:>2}: winner {r['winner']:<7} Vyazma German on turn {v or '-'}, Smolensk lost "
                    f"{s or '-'}; Soviet eliminated after T1/T2 {el[0]}/{el[1]}, Soviet OOS after T1/T2 {oos[0]}/{oos[1]}")
    n = len(records)
    print("\n".join(rows))
    print(f"{n} games: German wins {wins}, Vyazma German {vy}, Smolensk lost {smol}; mean Soviet eliminated T1/T2 "
          f"{sums['el1'] / n:.1f}/{sums['el2'] / n:.1f}, mean Soviet OOS T1/T2 {sums['oos1'] / n:.1f}/{sums['oos2'] / n:.1f}")


if __name__ == "__main__":
    main()
