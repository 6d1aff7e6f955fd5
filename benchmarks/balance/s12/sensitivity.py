"""One reconstructed value changed at a time in a copied pack, the reach re-measured (session 12, #16).

    python benchmarks/balance/s12/sensitivity.py [--out /tmp/s12-variants] [--weather dry,dry,mud,mud]

Copies games/moscow41 to OUT/NAME for each variant, changes one value by a text substitution in one
file (the shipped pack is never touched), and re-runs reach.py's measure on it: the earliest turn three
towns of 18.1.3A can be taken and the hexes the third town stays short at the end of Turn 4 — with the
activated move alone (``ma``) and with a force march every turn (``ma+fm``), on the map without Soviet
units and with the Soviet setup standing (their hexes and ZOCs bar the way; no combat). The CRT variant
moves no unit: it prints the engine's attack answers of opposed.py (section 4) on the variant pack.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opposed import attacks  # noqa: E402
from reach import NON_COMBAT, Reacher, empty_start, show, three_towns, towns_reached  # noqa: E402

PACK = Path(__file__).resolve().parents[3] / "games" / "moscow41"
GERMAN_FAST = re.compile(r'(side: "german", class: "(?:armor|mechanized)",[^}]*?ma: )8\b')
GERMAN_FOOT = re.compile(r'(side: "german", class: "infantry",[^}]*?ma: )4\b')


def ma(pattern: re.Pattern[str], new: int) -> tuple[str, object]:
    return "counters.yaml", lambda text: pattern.sub(lambda m: m.group(1) + str(new), text)


def crt_shift(text: str) -> str:
    """tables/crt.yaml with each odds column taking the next column's cells (the last keeps its own)."""
    lines = text.splitlines(keepends=True)
    rows = [i for i, x in enumerate(lines) if re.match(r'  "\d+:\d+": \{', x)]
    cells = [lines[i].split(": ", 1)[1] for i in rows]
    for k, i in enumerate(rows):
        lines[i] = lines[i].split(": ", 1)[0] + ": " + cells[min(k + 1, len(rows) - 1)]
    return "".join(lines)


#: name -> (file in the pack, text -> text); "base" copies the pack unchanged
VARIANTS = {
    "base": ("counters.yaml", lambda text: text),
    "panzer+mot MA 8->9": ma(GERMAN_FAST, 9),
    "panzer+mot MA 8->10": ma(GERMAN_FAST, 10),
    "panzer+mot MA 8->12": ma(GERMAN_FAST, 12),
    "German infantry MA 4->5": ma(GERMAN_FOOT, 5),
    "German infantry MA 4->6": ma(GERMAN_FOOT, 6),
    "CRT one column to the attacker": ("tables/crt.yaml", crt_shift),
}


def measure(pack: str, grounds: list[str], mode: str, clear: str | None = "soviet") -> tuple[int, int, int]:
    game, data, towns = empty_start(pack, clear=clear)
    layout = game.engine.ctx(data).board.grid.layout
    rc = Reacher(game, data)
    units = [dict(u) for u in data.units if u.get("side") == "german" and u.get("hex") and u.get("class") not in NON_COMBAT]
    turns, short = towns_reached(rc, units, towns, grounds, mode, layout)
    anyone, distinct = three_towns(turns, towns, len(grounds))
    return anyone, distinct, sorted(short.values())[2]


def towns_of(pack: str) -> dict[str, str]:
    return empty_start(pack)[2]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="/tmp/s12-variants")
    ap.add_argument("--weather", nargs="+", default=["dry,dry,mud,mud"])
    ap.add_argument("--only", nargs="*", default=None)
    a = ap.parse_args()
    print("variant | file | changed lines | ground | map | moves | three towns by Turn (any / three units) | "
          "third town short at the end (hexes)")
    for name, (file, change) in VARIANTS.items():
        if a.only and name not in a.only:
            continue
        out = Path(a.out) / re.sub(r"[^a-z0-9]+", "-", name.lower())
        if out.exists():
            shutil.rmtree(out)
        shutil.copytree(PACK, out, ignore=shutil.ignore_patterns("tests", "golden", "__pycache__"))
        before = (out / file).read_text(encoding="utf-8")
        after = change(before)
        (out / file).write_text(after, encoding="utf-8")
        changed = sum(1 for x, y in zip(before.splitlines(), after.splitlines()) if x != y)
        if file.startswith("tables/crt"):  # the CRT moves no unit: the engine's attack answers instead
            attacks(str(out), towns_of(str(out)), a.weather[0], strength=False)
            continue
        for weather in a.weather:
            for clear, where in (("soviet", "empty map"), (None, "Soviet setup standing")):
                for mode in ("ma", "ma+fm"):
                    anyone, distinct, third = measure(str(out), weather.split(","), mode, clear)
                    print(f"{name} | {file} | {changed} | {weather} | {where} | {mode} | {show(anyone)} / {show(distinct)} "
                          f"| {third}", flush=True)


if __name__ == "__main__":
    main()
