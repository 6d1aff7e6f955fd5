"""Exact odds of each ground condition on the October Blitz's turns (session 11, issue #16).

    python benchmarks/balance/s11/weather_odds.py [PACK_DIR ...]

For each pack (default: games/moscow41), enumerates the two dice of every Weather Phase (3.0B-C)
from the scenario's fixed Turn 1 weather (Warm, Dry: interpretation blitz-turn1-weather) through
the scenario's last turn, reading the pack's own tables (tables/turn_track.yaml Temp. Mod. and
Ground Mod., tables/weather_table.yaml, tables/temperature_box.yaml,
tables/ground_condition_matrix.yaml) and applying the transitions of 3.1-3.5 in the order of the
pack's rules/weather.rules (`ground_condition`, first matching line wins; mirrored here by hand, so
compare with the games' observed weather, blitz_probe.py). Prints, per turn, the probability of each
ground and of Mud's effects (Mud or Drying: 4.3A-H, 3.1B), and for the whole scenario the chance of
Mud's effects on Turn 3, Turn 4, both, and none of Turns 2-4.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import yaml

MUDDY = ("mud", "drying")  # 3.1B: Drying has all the effects of Mud


def load(pack: Path, name: str) -> dict:
    return yaml.safe_load((pack / "tables" / f"{name}.yaml").read_text(encoding="utf-8"))


def next_ground(prev: str, temperature: str, precipitation: bool, table_ground: str) -> str:
    """rules/weather.rules `ground_condition` (3.1-3.5), first matching line."""
    if prev == "snow" and temperature == "warm":
        return "mud"  # 3.4A
    if prev == "deep_snow" and temperature == "warm":
        return "snow"  # 3.4B
    if prev == "deep_snow":
        return "deep_snow"  # 3.3B-C
    if prev == "snow" and table_ground == "snow":
        return "deep_snow"  # 3.3A
    if prev == "snow":
        return "snow"  # 3.2
    if prev == "frozen" and temperature == "warm":
        return "mud"  # 3.5C
    if prev == "mud" and temperature == "warm" and not precipitation:
        return "drying"  # 3.1A
    if prev == "drying" and temperature == "warm" and not precipitation:
        return "dry"  # 3.1B
    if prev == "dry" and temperature in ("cold", "arctic") and not precipitation:
        return "frozen"  # 3.5A
    return table_ground  # 3.0D


def odds(pack: Path, first: int = 1, last: int = 4, start: tuple[str, str] = ("warm", "dry")) -> None:
    track = {r["turn"]: r for r in load(pack, "turn_track")["rows"]}
    table = load(pack, "weather_table")["cells"]
    box = load(pack, "temperature_box")["cells"]
    matrix = load(pack, "ground_condition_matrix")["cells"]
    rows = sorted(int(k) for k in table["temperature"])

    def look(column: str, roll: int) -> str:
        return table[column][max(rows[0], min(rows[-1], roll))]

    # distribution over histories: tuple of grounds by turn -> probability
    dist: dict[tuple[str, ...], Fraction] = {(start[1],): Fraction(1)}
    print(f"== {pack}")
    print(f"turn 1: {start[0]}, {start[1]} (fixed, blitz-turn1-weather)")
    for turn in range(first + 1, last + 1):
        t_drm, g_drm = track[turn]["temperature_drm"], track[turn]["ground_drm"]
        new: dict[tuple[str, ...], Fraction] = defaultdict(Fraction)
        for hist, p in dist.items():
            for d1 in range(1, 7):
                temperature = look("temperature", d1 + t_drm)
                for d2 in range(1, 7):
                    precip_box = look("precipitation", d2 + g_drm + box[temperature])
                    table_ground = matrix[precip_box][temperature]
                    g = next_ground(hist[-1], temperature, precip_box != "none", table_ground)
                    new[hist + (g,)] += p / 36
        dist = dict(new)
        per: dict[str, Fraction] = defaultdict(Fraction)
        for hist, p in dist.items():
            per[hist[-1]] += p
        muddy = sum((p for g, p in per.items() if g in MUDDY), Fraction(0))
        shown = ", ".join(f"{g} {float(p):.3f}" for g, p in sorted(per.items(), key=lambda kv: -kv[1]))
        print(f"turn {turn} (Temp. Mod. {t_drm:+d}, Ground Mod. {g_drm:+d}): {shown}; Mud's effects {float(muddy):.3f}")

    def chance(pred: object) -> float:
        return float(sum((p for h, p in dist.items() if pred(h)), Fraction(0)))  # type: ignore[operator]

    i3, i4 = 3 - first, 4 - first
    print(f"Mud's effects on Turn 3: {chance(lambda h: h[i3] in MUDDY):.3f}; Turn 4: {chance(lambda h: h[i4] in MUDDY):.3f}; "
          f"both: {chance(lambda h: h[i3] in MUDDY and h[i4] in MUDDY):.3f}; "
          f"none of Turns 2-4: {chance(lambda h: not any(g in MUDDY for g in h[1:])):.3f}")


def main() -> None:
    packs = [Path(p) for p in sys.argv[1:]] or [Path("games/moscow41")]
    for pack in packs:
        odds(pack)


if __name__ == "__main__":
    main()
