"""Count Smolensk losses (18.1.3D) and their turns in the s14-guard batch records (main vs branch)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).parent


def rows(name: str) -> list[dict]:
    path = HERE / name
    if not path.exists():
        return []
    return [r for arm in json.loads(path.read_text())["arms"] for r in arm["records"]]


def main() -> None:
    for row in ("blitz-gp", "blitz-pp"):
        for side in ("main", "branch"):
            recs = rows(f"{side}-{row}.json")
            lost = [(r["seed"], r["turns"]) for r in recs if "Smolensk" in str(r.get("reason"))]
            german = [r["seed"] for r in recs if r.get("winner") == "german"]
            turns: dict[int, int] = {}
            for _, t in lost:
                turns[t] = turns.get(t, 0) + 1
            print(f"{row} {side}: {len(recs)} games, Smolensk lost {len(lost)} "
                  f"(turns {dict(sorted(turns.items()))}; seeds {[s for s, _ in lost]}), German wins {len(german)} {german}")


if __name__ == "__main__":
    sys.exit(main())
