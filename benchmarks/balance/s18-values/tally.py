"""Session 18's table: each variant and row against main's records, seed by seed and in sum.

    python benchmarks/balance/s18-values/tally.py [RECORDS_DIR]

RECORDS_DIR (default: records/ beside this file) holds run.sh's one-game `casebook batch --json` files
``VARIANT-ROW-sSEED.json``; the base rows are main's records of the shipped pack: session 17's
``s17/before-pg-1-10.json`` (German planner vs greedy Soviets) and session 14's ``s14-final/blitz-pp.json``
(planner vs planner; the same winners and action counts as session 15's ``s15-road/main-pp.json``).
An end is named by its case: 18.1.3A (three towns), 18.1.3B (Moscow), 18.1.3C (the Germans fell short,
end of Turn 4), 18.1.3D (Smolensk).
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
BASE = {"pg": HERE.parent / "s17" / "before-pg-1-10.json", "pp": HERE.parent / "s14-final" / "blitz-pp.json"}


def end(r: dict) -> str:
    """The case that ended a record's game, and its turn."""
    reason = r["reason"] or ""
    case = ("18.1.3A" if reason.startswith("german controls") else "18.1.3B" if "Moscow" in reason
            else "18.1.3D" if "Smolensk" in reason else "18.1.3C" if "not fulfilled" in reason else reason)
    return f"{case} T{r['turns']}"


def records(path: Path) -> dict[int, dict]:
    return {r["seed"]: r for r in json.loads(path.read_text())["arms"][0]["records"]}


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "records"
    runs: dict[tuple[str, str], dict[int, dict]] = {}
    for f in sorted(folder.glob("*.json")):
        m = re.fullmatch(r"(.+)-(pg|pp)-s(\d+)\.json", f.name)
        if m:
            runs.setdefault((m.group(1), m.group(2)), {}).update(records(f))
    for row in ("pg", "pp"):
        base = records(BASE[row])
        variants = sorted(v for v, r in runs if r == row)
        seeds = sorted({s for v in variants for s in runs[(v, row)]})
        print(f"## row {row}: seeds {seeds[0] if seeds else '-'}-{seeds[-1] if seeds else '-'}")
        print("| seed | main | " + " | ".join(variants) + " |")
        for s in seeds:
            cells = [runs[(v, row)].get(s) for v in variants]
            show = [f"{'**German**' if r['winner'] == 'german' else 'Soviet'} {end(r)} ({r['actions']})" if r else "-"
                    for r in [base.get(s), *cells]]
            print(f"| {s} | " + " | ".join(show) + " |")
        for name, recs in [("main", {s: base[s] for s in seeds if s in base})] + [(v, runs[(v, row)]) for v in variants]:
            ends = Counter(end(r).split()[0] for r in recs.values())
            wins = sum(r["winner"] == "german" for r in recs.values())
            secs = sum(r["seconds"] for r in recs.values()) / max(1, len(recs))
            print(f"{row} {name}: {wins}/{len(recs)} German; ends {dict(sorted(ends.items()))}; {secs:.0f} s a game")
        print()


if __name__ == "__main__":
    main()
