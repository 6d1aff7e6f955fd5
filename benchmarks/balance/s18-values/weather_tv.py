"""How far a Turn Track change can move a win rate: the total variation distance between two packs'
October Blitz weather histories (session 18, issue #16).

    python benchmarks/balance/s18-values/weather_tv.py BASE_PACK VARIANT_PACK [...]

Enumerates the dice of every Weather Phase (3.0B-C) of Turns 2-4 from the fixed Turn 1 (Warm, Dry)
with session 11's transcription of rules/weather.rules (`benchmarks/balance/s11/weather_odds.py`),
keeping the whole history of (temperature, ground) per turn. Nothing but the weather rolls reads the
Turn Track's Ground Mod. (rules/weather.rules; the bots do not read it), and the other dice are drawn
independently of what a weather roll showed, so for any bots a side's win rate in the variant differs
from the base's by at most this distance. Printed twice: over (temperature, ground) histories, and
with Drying counted as Mud (3.1B: it has all of Mud's effects).
"""

from __future__ import annotations

import importlib.util
import sys
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

_spec = importlib.util.spec_from_file_location("weather_odds", Path(__file__).parents[1] / "s11" / "weather_odds.py")
assert _spec and _spec.loader
W = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(W)


def histories(pack: Path, last: int = 4) -> dict[tuple, Fraction]:
    """(temperature, ground) of Turns 2..last -> probability, from Warm/Dry on Turn 1."""
    track = {r["turn"]: r for r in W.load(pack, "turn_track")["rows"]}
    table = W.load(pack, "weather_table")["cells"]
    box = W.load(pack, "temperature_box")["cells"]
    matrix = W.load(pack, "ground_condition_matrix")["cells"]
    rows = sorted(int(k) for k in table["temperature"])

    def look(column: str, roll: int) -> str:
        return table[column][max(rows[0], min(rows[-1], roll))]

    dist: dict[tuple, Fraction] = {(("warm", "dry"),): Fraction(1)}
    for turn in range(2, last + 1):
        t_drm, g_drm = track[turn]["temperature_drm"], track[turn]["ground_drm"]
        new: dict[tuple, Fraction] = defaultdict(Fraction)
        for hist, p in dist.items():
            for d1 in range(1, 7):
                temperature = look("temperature", d1 + t_drm)
                for d2 in range(1, 7):
                    precip = look("precipitation", d2 + g_drm + box[temperature])
                    g = W.next_ground(hist[-1][1], temperature, precip != "none", matrix[precip][temperature])
                    new[hist + ((temperature, g),)] += p / 36
        dist = dict(new)
    return dist


def tv(a: dict[tuple, Fraction], b: dict[tuple, Fraction], merge: bool = False) -> float:
    """Total variation distance; with ``merge``, Drying is counted as Mud (3.1B)."""
    def fold(d: dict[tuple, Fraction]) -> dict[tuple, Fraction]:
        out: dict[tuple, Fraction] = defaultdict(Fraction)
        for h, p in d.items():
            out[tuple((t, "mud" if merge and g == "drying" else g) for t, g in h)] += p
        return out
    fa, fb = fold(a), fold(b)
    return float(sum((abs(fa.get(k, Fraction(0)) - fb.get(k, Fraction(0))) for k in set(fa) | set(fb)),
                     Fraction(0)) / 2)


def dry(d: dict[tuple, Fraction], turns: tuple[int, ...]) -> float:
    """The chance of Dry ground on every one of ``turns`` (session 15: every German win had Dry Turns 2-3)."""
    return float(sum((p for h, p in d.items() if all(h[t - 1][1] == "dry" for t in turns)), Fraction(0)))


def main() -> None:
    base, *variants = (Path(p) for p in sys.argv[1:])
    a = histories(base)
    print(f"{base}: Dry on Turns 2-3 {dry(a, (2, 3)):.3f}, on Turns 2-4 {dry(a, (2, 3, 4)):.3f}")
    for v in variants:
        b = histories(v)
        print(f"{v} against {base}: total variation {tv(a, b):.3f} over (temperature, ground) histories, "
              f"{tv(a, b, merge=True):.3f} with Drying as Mud; Dry on Turns 2-3 {dry(b, (2, 3)):.3f}, "
              f"on Turns 2-4 {dry(b, (2, 3, 4)):.3f}")


if __name__ == "__main__":
    main()
