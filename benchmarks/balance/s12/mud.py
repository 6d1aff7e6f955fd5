"""How often the Turn Track's weather leaves 18.1.3A's three towns within unopposed reach (session 12, #16).

    python benchmarks/balance/s12/mud.py [--ground-mod=T2,T3,T4 ...]

Enumerates every ground history of Turns 2-4 with its exact probability (the dice of 3.0B-C through
3.1-3.5 as benchmarks/balance/s11/weather_odds.py does, from the pack's tables; Turn 1 Warm and Dry,
interpretation blitz-turn1-weather) and runs reach.py's measure (no Soviet unit on the map) on each:
the chance that three towns can be taken by the end of Turn 4 with the activated move alone (``ma``)
and with a force march every turn (``ma+fm``). ``--ground-mod`` replaces the Turn Track's Ground Mod.
of Turns 2-4 in the enumeration only (the shipped pack's is 0,+2,+3); the reach is the shipped pack's.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "s11"))
from reach import NON_COMBAT, Reacher, empty_start, first_turn, three_towns, turn_step  # noqa: E402
from weather_odds import load, next_ground  # noqa: E402

PACK = HERE.parents[2] / "games" / "moscow41"


def histories(ground_mod: list[int] | None) -> dict[tuple[str, ...], Fraction]:
    track = {r["turn"]: r for r in load(PACK, "turn_track")["rows"]}
    table = load(PACK, "weather_table")["cells"]
    box = load(PACK, "temperature_box")["cells"]
    matrix = load(PACK, "ground_condition_matrix")["cells"]
    rows = sorted(int(k) for k in table["temperature"])

    def look(column: str, roll: int) -> str:
        return table[column][max(rows[0], min(rows[-1], roll))]

    dist: dict[tuple[str, ...], Fraction] = {("dry",): Fraction(1)}
    for turn in (2, 3, 4):
        t_drm = track[turn]["temperature_drm"]
        g_drm = ground_mod[turn - 2] if ground_mod else track[turn]["ground_drm"]
        new: dict[tuple[str, ...], Fraction] = defaultdict(Fraction)
        for hist, p in dist.items():
            for d1 in range(1, 7):
                temperature = look("temperature", d1 + t_drm)
                for d2 in range(1, 7):
                    precip = look("precipitation", d2 + g_drm + box[temperature])
                    new[hist + (next_ground(hist[-1], temperature, precip != "none", matrix[precip][temperature]),)] += p / 36
        dist = dict(new)
    return dist


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ground-mod", action="append", default=[], help="T2,T3,T4, repeatable: --ground-mod=0,0,0")
    a = ap.parse_args()
    game, data, towns = empty_start("moscow41")
    rc = Reacher(game, data)
    units = [dict(u) for u in data.units if u.get("side") == "german" and u.get("hex") and u.get("class") not in NON_COMBAT]
    verdict: dict[tuple[tuple[str, ...], str], bool] = {}
    states: dict[tuple[str, tuple[str, ...], str], Any] = {}  # (unit, ground prefix, mode) -> turn_step state

    def per_turn(u: dict[str, Any], hist: tuple[str, ...], mode: str) -> list[frozenset[str]]:
        out = []
        for t in range(1, len(hist) + 1):
            key = (u["id"], hist[:t], mode)
            if key not in states:
                states[key] = turn_step(rc, u, states.get((u["id"], hist[:t - 1], mode)), hist[t - 1], mode)
            out.append(states[key][0])
        return out

    def ok(hist: tuple[str, ...], mode: str) -> bool:
        if (hist, mode) not in verdict:
            turns = {u["id"]: {n: first_turn(per, h) for n, h in towns.items()}
                     for u in units for per in [per_turn(u, hist, mode)]}
            verdict[(hist, mode)] = three_towns(turns, towns, 4)[0] <= 4
        return verdict[(hist, mode)]

    for mods in [None] + [[int(x) for x in m.split(",")] for m in a.ground_mod]:
        dist = histories(mods)
        label = "shipped Turn Track (0,+2,+3)" if mods is None else f"Ground Mod. {','.join(f'{x:+d}' for x in mods)}"
        chance = {mode: float(sum((p for h, p in dist.items() if ok(h, mode)), Fraction(0))) for mode in ("ma", "ma+fm")}
        print(f"{label}: {len(dist)} ground histories; three towns within unopposed reach by Turn 4: "
              f"activated move alone {chance['ma']:.3f}, with a force march every turn {chance['ma+fm']:.3f}")
        top = sorted(dist.items(), key=lambda kv: -kv[1])[:8]
        for h, p in top:
            print(f"   {'/'.join(h)}: {float(p):.3f}  ma {'yes' if ok(h, 'ma') else 'no'}, ma+fm {'yes' if ok(h, 'ma+fm') else 'no'}")
    print(f"({rc.searches} reach searches)")


if __name__ == "__main__":
    main()
