"""Weather, spearhead distances and the end of seeded October Blitz games (session 11, issue #16).

    python benchmarks/balance/s11/blitz_probe.py [--pack PACK] [--seed N ...] [--german planner] [--soviet planner]

Plays each seed exactly as ``casebook batch`` does (``casebook.tools.batch.play_one``'s loop: the
same game, seed and bots), so its trace digest must equal the batch record's for that seed and
pack (printed as ``digest``: compare it with the ``--json`` records). PACK is the game id or a pack
directory (a copied pack such as /work/wt/balx-variants/nomud).

For each seed, one JSON line on stdout with:
- ``ground`` / ``temperature``: each turn's ground condition and temperature as they stood at the
  turn's first decision, after its Weather Phase (3.0-3.5);
- ``after``: at the end of Turns 2 and 4 (or the game's last turn), for each town of the
  scenario's German ``control_count`` condition (18.1.3A), the distance in hexes from the nearest
  German combat unit (HQs and remnants are not combat units, 17.1/11.3D) — 0 when the Germans
  control the town — and ``third``: the third-smallest of the five (the third town the Germans
  need: 18.1.3A asks for three of the five);
- ``result``: winner, reason (which of 18.1.3A-D), turn and actions.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from casebook.core.hexgrid import distance, parse_hex
from casebook.tools.batch import _digest, load_game
from casebook.tools.bots import make_bot

NON_COMBAT = ("hq", "remnant")  # 17.1, 11.3D: a combat unit is any unit but an HQ or a remnant


def towns(state: Any, objectives: dict[str, str], layout: Any) -> dict[str, Any]:
    """Distance from the nearest German combat unit to each objective town (0 if German-held)."""
    units = [u for u in state.data.units
             if u.get("hex") and u.get("side") == "german" and u.get("class") not in NON_COMBAT]
    out: dict[str, Any] = {}
    for name, h in objectives.items():
        if state.data.control(h) == "german":
            out[name] = 0
            continue
        ds = [distance(parse_hex(u["hex"]), parse_hex(h), layout) for u in units]
        out[name] = min(ds) if ds else None
    ds = sorted(v for v in out.values() if v is not None)
    out["third"] = ds[2] if len(ds) >= 3 else None
    out["held"] = sorted(n for n, h in objectives.items() if state.data.control(h) == "german")
    return out


def play(pack: str, scenario: str, seed: int, german: str, soviet: str) -> dict[str, Any]:
    game = load_game(pack, scenario)
    state = game.new_initial_state(seed)
    bots = {"german": make_bot(german, "german", seed), "soviet": make_bot(soviet, "soviet", seed)}
    layout = state.ctx().board.grid.layout
    victory = game.engine.pack.scenario(game.scenario).scenario.victory
    cond = [c for c in victory["german"] if c["kind"] == "control_count"][0]
    objectives = dict(zip(cond["names"], cond["hexes"]))
    ground: dict[int, str | None] = {}
    temperature: dict[int, str | None] = {}
    after: dict[int, dict[str, Any]] = {}
    turn, actions, start = state.data.turn, 0, time.perf_counter()
    while not state.is_terminal():
        if state.data.turn != turn:
            if turn in (2, 4):
                after[turn] = towns(state, objectives, layout)
            turn = state.data.turn
        w = state.data.weather or {}
        ground.setdefault(state.data.turn, w.get("ground"))
        temperature.setdefault(state.data.turn, w.get("temperature"))
        side = state.current_player()
        state.apply(bots[side].choose(state))
        actions += 1
    if turn not in after:
        after[turn] = towns(state, objectives, layout)  # the turn the game ended in
    result = state.result() or {}
    _, digest = _digest(state.trace)
    return {"pack": pack, "seed": seed, "ground": ground, "temperature": temperature, "after": after,
            "result": {"winner": result.get("winner"), "reason": str(result.get("reason") or ""),
                       "cases": result.get("cases"),
                       "turn": state.data.turn, "actions": actions},
            "digest": digest, "seconds": round(time.perf_counter() - start, 1)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pack", default="moscow41")
    ap.add_argument("--scenario", default="october-blitz")
    ap.add_argument("--seed", type=int, nargs="+", default=[1])
    ap.add_argument("--german", default="planner")
    ap.add_argument("--soviet", default="planner")
    a = ap.parse_args()
    for seed in a.seed:
        print(json.dumps(play(a.pack, a.scenario, seed, a.german, a.soviet), default=str), flush=True)


if __name__ == "__main__":
    main()
