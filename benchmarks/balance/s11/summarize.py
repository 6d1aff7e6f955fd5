"""Pair two ``casebook batch --json`` files of the October Blitz by seed (session 11, issue #16).

    python benchmarks/balance/s11/summarize.py BASE.json[:ARM] VARIANT.json[:ARM]

ARM is the index of the arm in the file (default 0; a ``--compare-pack`` file holds two). Prints,
for each side and for the seeds both finished: games, German wins, how the games ended (18.1.3A-D,
read from the record's winner and reason) and the turn of the end; then the seeds whose winner or
end changed. Also each side alone over all its finished games.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any


def arm(spec: str) -> list[dict[str, Any]]:
    path, _, index = spec.partition(":")
    doc = json.loads(open(path, encoding="utf-8").read())
    return [r for r in doc["arms"][int(index or 0)]["records"] if not r.get("error")]


def end(r: dict[str, Any]) -> str:
    """Which condition ended the game (18.1.3): from the record's winner and reason text."""
    reason = str(r.get("reason") or "").lower()
    if r.get("winner") == "german":
        return "18.1.3A three towns" if "controls" in reason else "18.1.3B Moscow"  # "… entered 2242"
    if "smolensk" in reason:
        return "18.1.3D Smolensk"
    return "18.1.3C end of Turn 4"


def show(label: str, recs: list[dict[str, Any]]) -> None:
    n = len(recs)
    g = sum(1 for r in recs if r.get("winner") == "german")
    ends = Counter(end(r) for r in recs)
    turns = Counter(f"T{r.get('turns')}" for r in recs)
    seeds = sorted(r["seed"] for r in recs)
    span = f"seeds {seeds[0]}-{seeds[-1]}" if seeds else "no seeds"
    rate = f"{100 * g / n:.1f}%" if n else "-"
    print(f"{label}: {n} games ({span}); German wins {g} ({rate}); ends {dict(sorted(ends.items()))}; "
          f"turn of the end {dict(sorted(turns.items()))}; mean s a game "
          f"{sum(r.get('seconds') or 0 for r in recs) / max(n, 1):.0f}")


def main() -> None:
    base, variant = arm(sys.argv[1]), arm(sys.argv[2])
    show("base, all finished", base)
    show("variant, all finished", variant)
    both = {r["seed"] for r in base} & {r["seed"] for r in variant}
    b = {r["seed"]: r for r in base if r["seed"] in both}
    v = {r["seed"]: r for r in variant if r["seed"] in both}
    show("base, paired seeds", list(b.values()))
    show("variant, paired seeds", list(v.values()))
    changed = [s for s in sorted(both) if end(b[s]) != end(v[s]) or b[s]["turns"] != v[s]["turns"]]
    print(f"paired seeds whose end changed: {len(changed)} of {len(both)}")
    for s in changed:
        print(f"  seed {s}: {end(b[s])} T{b[s]['turns']} -> {end(v[s])} T{v[s]['turns']}")
    same = sum(1 for s in both if b[s]["digest"] == v[s]["digest"])
    print(f"identical traces (same digest): {same} of {len(both)}")


if __name__ == "__main__":
    main()
