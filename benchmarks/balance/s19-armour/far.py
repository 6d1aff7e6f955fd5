"""Session 19 (armour19): how far the Germans got in seeded October Blitz games.

    python benchmarks/balance/s19-armour/far.py --seeds 1 2 3 [--german planner] [--soviet greedy]

Plays each seed as ``casebook batch`` does (same bots and seed: ``digest`` equals the batch record's)
and prints one JSON line a game: winner and reason, ``vyazma`` (the first turn after whose German half
the Germans control Vyazma, 1722; null: never), ``towns`` (the 18.1.3A towns the Germans control at
the end, by hex), ``sov_elim`` (Soviet units in the eliminated box at the end: ``removed`` with reason
``eliminated``), ``smolensk`` (whether the game ended by 18.1.3D).
"""
from __future__ import annotations

import argparse
import json

from casebook.tools.batch import _digest, load_game
from casebook.tools.bots import make_bot

VYAZMA = "1722"


def play(seed: int, german: str, soviet: str) -> dict:
    game = load_game("moscow41", "october-blitz")
    state = game.new_initial_state(seed)
    bots = {"german": make_bot(german, "german", seed), "soviet": make_bot(soviet, "soviet", seed)}
    count = next(c for c in game.engine.pack.scenario(game.scenario).scenario.victory["german"]
                 if c["kind"] == "control_count")  # 18.1.3A
    half = (state.data.turn, state.data.phasing)
    vyazma = None
    while not state.is_terminal():
        if (state.data.turn, state.data.phasing) != half:
            if half[1] == "german" and vyazma is None and state.data.control(VYAZMA) == "german":
                vyazma = half[0]
            half = (state.data.turn, state.data.phasing)
        state.apply(bots[state.current_player()].choose(state))
    if vyazma is None and state.data.control(VYAZMA) == "german":
        vyazma = state.data.turn
    removed = list(getattr(state.data, "removed", None) or state.data._d.get("removed", []))
    elim = [r for r in removed if r.get("reason") == "eliminated" and str(r.get("unit", "")).startswith("s-")]
    result = state.result() or {}
    events, digest = _digest(state.trace)
    towns = {n: h for n, h in zip(count["names"], count["hexes"]) if state.data.control(h) == "german"}
    return {"seed": seed, "german": german, "soviet": soviet, "winner": result.get("winner"),
            "reason": str(result.get("reason") or "")[:120], "vyazma": vyazma,
            "towns": towns, "sov_elim": len(elim), "events": events, "digest": digest}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, nargs="+", required=True)
    ap.add_argument("--german", default="planner")
    ap.add_argument("--soviet", default="greedy")
    a = ap.parse_args()
    for s in a.seeds:
        print(json.dumps(play(s, a.german, a.soviet), default=str), flush=True)


if __name__ == "__main__":
    main()
