"""Session 20 (relief20): what the relief's ring (planner_guard.open_ring, the ring term of guard_value) costs,
CPU time on the Blitz's Turn 1 after LVII Pz's activation (seed 1): one plan's guard_value with the side's
key HQs on the map (the ring read) and without (View.keyed emptied: the term skipped, as before session 20).

    python benchmarks/balance/s20-relief/cost.py
"""
from __future__ import annotations

import time

from casebook.core.game import Game
from casebook.tools.planner import PlannerBot
from casebook.tools.planner_eval import Mover, W, build_view
from casebook.tools.planner_guard import guard_value, relief

st = Game.load("moscow41", "october-blitz").new_initial_state(1)
st.apply("german: activate-hq hq=g-lvii-pz stacks=0413,0414,0514")
v = build_view(st, "german", PlannerBot("german", 1).goals(st))
movers = [Mover("1209", 10.0, False, ("1209", "1208")), Mover("0413", 18.0, False, ("0413", "0513"), key_hq=True)]
dests = ["1208", "0513"]
own = dict(v.own)
own["1208"] = 10.0
N = 20000


def per_call(fn) -> float:
    t = time.process_time()
    for _ in range(N):
        fn()
    return (time.process_time() - t) / N * 1e6


with_ring = per_call(lambda: guard_value(v, movers, dests, own, (W["guard"], W["screen"])))
rl = per_call(lambda: relief(v, "1308"))
keyed, v.keyed = v.keyed, set()
without = per_call(lambda: guard_value(v, movers, dests, own, (W["guard"], W["screen"])))
print(f"guard_value {with_ring:.2f} us a plan with the ring read, {without:.2f} us without (keyed emptied); "
      f"relief() {rl:.2f} us a call (keyed={sorted(keyed)})")
