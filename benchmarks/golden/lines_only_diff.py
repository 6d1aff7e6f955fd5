"""Check that golden traces changed in their events' ``lines`` only (issue #15 item 3).

Compares every ``games/*/golden/*.jsonl`` of the working tree with the same file at a git
revision (default ``HEAD``): the same events in the same order, each equal to the old one once
``data["lines"]`` is dropped from both. Prints one summary line per trace (events, events whose
lines changed, lines gained and lost) and exits 1 naming the first event that changed otherwise.

    python benchmarks/golden/lines_only_diff.py [REV]
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _events(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _without_lines(event: dict) -> dict:
    data = {k: v for k, v in (event.get("data") or {}).items() if k != "lines"}
    return {**event, "data": data}


def _sources(event: dict) -> list[str]:
    return [ln["source"] for ln in (event.get("data") or {}).get("lines") or ()]


def main(rev: str = "HEAD") -> int:
    bad = 0
    totals = [0, 0, 0, 0]
    for path in sorted(ROOT.glob("games/*/golden/*.jsonl")):
        rel = path.relative_to(ROOT).as_posix()
        old = _events(subprocess.run(["git", "show", f"{rev}:{rel}"], cwd=ROOT, capture_output=True,
                                     text=True, check=True).stdout)
        new = _events(path.read_text())
        if len(old) != len(new):
            print(f"{rel}: {len(old)} events before, {len(new)} now")
            bad += 1
            continue
        changed = gained = lost = 0
        for a, b in zip(old, new):
            if _without_lines(a) != _without_lines(b):
                print(f"{rel}: event {a.get('seq')} ({a.get('kind')}) changed beyond its lines")
                bad += 1
                break
            sa, sb = _sources(a), _sources(b)
            if sa != sb:
                changed += 1
                gained += len(set(sb) - set(sa))
                lost += len(set(sa) - set(sb))
        print(f"{rel}: {len(new)} events, {changed} with other lines (+{gained} line names, -{lost})")
        for i, n in enumerate((len(new), changed, gained, lost)):
            totals[i] += n
    print(f"all: {totals[0]} events, {totals[1]} with other lines (+{totals[2]}, -{totals[3]}); "
          f"{'only lines changed' if not bad else f'{bad} trace(s) changed beyond lines'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:2]))
