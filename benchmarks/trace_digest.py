"""Determinism check for speed work: play seeded games and print one SHA-256 per game of its
trace events (JSON lines), to compare before and after a change that must not change play.

    python benchmarks/trace_digest.py --save /tmp/before.txt     # on the commit before the change
    python benchmarks/trace_digest.py --check /tmp/before.txt    # after it: IDENTICAL or the games that differ

The games: the October Blitz greedy vs greedy seeds 1 and 4 (whole), random vs random seed 2 (first
400 actions), and the Campaign greedy vs greedy seed 3 (first 700 actions) — about a minute. A
speed change (a cache, a faster search) must print IDENTICAL; a rule change is expected to differ.
Exit status: 0, or 1 when --check finds a difference.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys

from casebook.core.game import Game
from casebook.tools.bots import make_bot

#: (scenario, bot kind, seed, action limit or None for the whole game)
RUNS = [("october-blitz", "greedy", 1, None), ("october-blitz", "random", 2, 400),
        ("october-blitz", "greedy", 4, None), ("campaign", "greedy", 3, 700)]


def digest(scenario: str, bot: str, seed: int, limit: int | None) -> str:
    """``"scenario/bot/seed/limit: N actions SHA256"`` of one game's trace events."""
    state = Game.load("moscow41", scenario).new_initial_state(seed)
    bots = {s: make_bot(bot, s, seed) for s in ("german", "soviet")}
    n = 0
    while not state.is_terminal() and (limit is None or n < limit):
        state.apply(bots[state.current_player()].choose(state))
        n += 1
    h = hashlib.sha256()
    for ev in state.trace:
        data = ev.to_dict() if hasattr(ev, "to_dict") else ev
        h.update(json.dumps(data, sort_keys=True, default=str).encode())
        h.update(b"\n")
    return f"{scenario}/{bot}/{seed}/{limit}: {n} actions {h.hexdigest()}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--save", metavar="FILE", help="write the digests to FILE")
    group.add_argument("--check", metavar="FILE", help="compare with the digests saved in FILE")
    args = ap.parse_args()
    out = [digest(*run) for run in RUNS]
    print("\n".join(out))
    if args.save:
        with open(args.save, "w", encoding="utf-8") as f:
            f.write("\n".join(out) + "\n")
    elif args.check:
        with open(args.check, encoding="utf-8") as f:
            want = f.read().splitlines()[:len(out)]
        bad = [(w, o) for w, o in zip(want, out) if w != o]
        print("IDENTICAL" if not bad and len(want) == len(out) else f"DIFFERENT: {bad}")
        sys.exit(1 if bad or len(want) != len(out) else 0)


if __name__ == "__main__":
    main()
