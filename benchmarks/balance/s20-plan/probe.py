"""Session 20 probe (issue #16, branch plan20): after each half-turn of a seeded October Blitz game, where
the German armor and mechanized stacks stand (hexes from Vyazma 1722, the bot_plan objective), who controls Vyazma,
how many Soviet stacks and strength points are out of supply (the supply plugin's answer, 5.2/5.4) and how
many Soviet units were eliminated.

    python benchmarks/balance/s20-plan/probe.py --seed 1 [--german planner] [--soviet greedy] [--turns 2]
    PYTHONPATH=/work/main/src python …/probe.py --seed 1 --pack /work/main/games/moscow41   # main's code and pack

One JSON line per half-turn end (``T1G``: after the German half of Turn 1). Plays as ``casebook batch`` does.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from casebook.core.hexgrid import distance, parse_hex
from casebook.tools.batch import load_game
from casebook.tools.bots import make_bot

NON_COMBAT = ("hq", "remnant")  # 17.1, 11.3D
SEEN: set[str] = set()
TARGET = "1722"


def _s(u: Any) -> float:
    try:
        return float(u.get("strength") or 0)
    except (TypeError, ValueError):
        return 0.0


def snapshot(state: Any) -> dict[str, Any]:
    ctx = state.ctx()
    layout = ctx.board.grid.layout
    mech: dict[str, float] = {}
    sov: dict[str, list[Any]] = {}
    for u in state.data.units:
        if not u.get("hex") or u.get("class") in NON_COMBAT:
            continue
        if u.get("side") == "german" and u.get("class") in ("armor", "mechanized"):
            mech[u["hex"]] = mech.get(u["hex"], 0.0) + _s(u)
        elif u.get("side") == "soviet":
            sov.setdefault(u["hex"], []).append(u)
    oos, oos_s = 0, 0.0
    for _h, us in sorted(sov.items()):
        a = ctx.hook.casebook_supply(ctx=ctx, unit=us[0]["id"])
        if not (a or {}).get("in_supply", True):
            oos, oos_s = oos + 1, oos_s + sum(_s(u) for u in us)
    SEEN.update(u["id"] for u in state.data.units if u.get("side") == "soviet")
    gone = sum(1 for r in state.data.removed if r.get("unit") in SEEN and r.get("reason") == "eliminated")
    near = sorted((distance(parse_hex(h), parse_hex(TARGET), layout), h, s) for h, s in mech.items())
    return {"vyazma": state.data.control(TARGET), "mech_within_3": sum(1 for d, _, _ in near if d <= 3),
            "mech_nearest": near[:6], "sov_oos_stacks": oos, "sov_oos_strength": oos_s, "sov_eliminated": gone}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--german", default="planner")
    ap.add_argument("--soviet", default="greedy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--turns", type=int, default=2)
    ap.add_argument("--pack", default="moscow41", help="the pack (a folder: main's, for the before rows)")
    a = ap.parse_args()
    game = load_game(a.pack, "october-blitz")
    state = game.new_initial_state(a.seed)
    bots = {"german": make_bot(a.german, "german", a.seed), "soviet": make_bot(a.soviet, "soviet", a.seed)}
    half = (state.data.turn, state.data.phasing)
    while not state.is_terminal():
        if (state.data.turn, state.data.phasing) != half:
            print(json.dumps({"seed": a.seed, "half": f"T{half[0]}{half[1][0].upper()}", **snapshot(state)}), flush=True)
            half = (state.data.turn, state.data.phasing)
            if half[0] > a.turns:
                return
        state.apply(bots[state.current_player()].choose(state))


if __name__ == "__main__":
    main()
