"""Summarise session 14's rows: per file set, German/Soviet wins, how the games ended (case, seeds) and on
which turn. Usage: python summarize.py FILE.json [FILE.json ...] [--seeds A-B] (records of `casebook batch
--json`; several files are one row, e.g. the 5-seed chunks)."""

from __future__ import annotations

import json
import sys
from collections import Counter


def main(argv: list[str]) -> None:
    lo, hi = 0, 10**9
    files = []
    for a in argv:
        if a.startswith("--seeds="):
            lo, hi = (int(x) for x in a.split("=", 1)[1].split("-"))
        else:
            files.append(a)
    recs = []
    for f in files:
        for arm in json.load(open(f))["arms"]:
            recs += [r for r in arm["records"] if lo <= r["seed"] <= hi]
    recs.sort(key=lambda r: r["seed"])
    wins = Counter(r["winner"] for r in recs)
    how: dict[str, list[str]] = {}
    for r in recs:
        case = ",".join(r.get("cases") or []) or r.get("reason", "")[:40]
        how.setdefault(f"{r['winner']} {case}", []).append(f"{r['seed']}@T{r['turns']}")
    turns = Counter(r["turns"] for r in recs)
    print(f"games {len(recs)} seeds {recs[0]['seed']}-{recs[-1]['seed']}" if recs else "no records")
    print("wins", dict(wins), "errors", sum(1 for r in recs if r.get("error")))
    for k, v in sorted(how.items()):
        print(f"  {k}: {len(v)}  {' '.join(v)}")
    print("turn of the end", dict(sorted(turns.items())),
          "s/game %.1f" % (sum(r["seconds"] for r in recs) / max(1, len(recs))))


if __name__ == "__main__":
    main(sys.argv[1:])
