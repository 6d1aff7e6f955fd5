"""Play German planner vs Soviet greedy, October Blitz, on a pack folder; per game record the OOS
markings of every Recovery Step (oos-marking events: marked, fatigued, losses) and the result."""

import json
import sys
import time
from pathlib import Path

from casebook.core.game import Game
from casebook.tools.bots import make_bot

pack, label, out = sys.argv[1], sys.argv[2], Path(sys.argv[3])
seeds = [int(s) for s in sys.argv[4].split(",")]
out.mkdir(parents=True, exist_ok=True)
game = Game.load(pack, "october-blitz")
for seed in seeds:
    t = time.time()
    state = game.new_initial_state(seed)
    bots = {"german": make_bot("planner", "german", seed), "soviet": make_bot("greedy", "soviet", seed)}
    while not state.is_terminal():
        side = state.current_player()
        state.apply(bots[side].choose(state))
    steps = []
    for e in state.trace:
        if e.kind == "oos-marking":
            d = e.data
            oos_now = None
            steps.append(
                {
                    "turn": e.turn,
                    "side": e.side,
                    "marked": d.get("marked", []),
                    "fatigued": d.get("fatigued", []),
                    "losses": d.get("losses", []),
                    "restored": d.get("restored", []),
                }
            )
    d = state.to_dict()
    oos_end = {s: sum(1 for u in d["units"] if u["side"] == s and u.get("oos")) for s in ("german", "soviet")}
    units_end = {s: sum(1 for u in d["units"] if u["side"] == s) for s in ("german", "soviet")}
    res = state.result() or {}
    rec = {
        "label": label,
        "seed": seed,
        "winner": res.get("winner"),
        "level": res.get("level"),
        "reason": str(res.get("reason", ""))[:160],
        "turn": d.get("turn"),
        "oos_end": oos_end,
        "units_end": units_end,
        "steps": steps,
        "seconds": round(time.time() - t, 1),
    }
    state.trace.write(out / f"{label}-seed{seed}.trace.jsonl")
    with open(out / f"{label}.jsonl", "a") as f:
        f.write(json.dumps(rec) + "\n")
    print(
        label,
        seed,
        rec["winner"],
        rec["level"],
        "OOS end",
        oos_end,
        "marked/step",
        [(s["turn"], s["side"][0], len(s["marked"])) for s in steps],
        rec["seconds"],
        "s",
        flush=True,
    )
