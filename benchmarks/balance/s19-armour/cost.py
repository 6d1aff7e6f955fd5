"""Session 19: what the relief (View.keyed, planner_guard.relief) costs, CPU time on the Blitz's setup (seed 1).

    python benchmarks/balance/s19-armour/cost.py
"""
from __future__ import annotations

import time

from casebook.core.game import Game
from casebook.tools.planner import PlannerBot
from casebook.tools.planner_eval import build_view
from casebook.tools.planner_guard import key_hq, relief

st = Game.load("moscow41", "october-blitz").new_initial_state(1)
g = PlannerBot("german", 1).goals(st)
t, n = time.process_time(), 50
for _ in range(n):
    v = build_view(st, "german", g)
bv = (time.process_time() - t) / n
t = time.process_time()
for _ in range(n):
    k = {u["hex"] for u in st.data.units if u.get("hex") and u.get("side") == "german" and key_hq((u,))}
kk = (time.process_time() - t) / n
t = time.process_time()
for _ in range(10000):
    relief(v, "1308")
rl = (time.process_time() - t) / 10000
print(f"build_view {bv * 1000:.2f} ms CPU, of it keyed {kk * 1000:.3f} ms; relief() {rl * 1e6:.2f} us a call;"
      f" keyed={sorted(v.keyed)}")
