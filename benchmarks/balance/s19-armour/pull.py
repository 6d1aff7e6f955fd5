"""Session 19: which plan term pulls LVII Pz's stack (20th Panzer, 0413) to Smolensk's ring on Turn 1 of
the October Blitz (seed 1, after the planner's first decision, activate-hq g-lvii-pz 0413,0414,0514).

    PYTHONPATH=<tree>/src python benchmarks/balance/s19-armour/pull.py

For the stack moved alone to each destination: plan_value's total gain against staying, and the part of
it that is planner_guard.guard_value's (area, core, approach, fill); the rest is every other term.
"""
from __future__ import annotations

from casebook.core.game import Game
from casebook.tools import planner_guard
from casebook.tools.planner import PlannerBot
from casebook.tools.planner_eval import Mover, build_view, plan_value

state = Game.load("moscow41", "october-blitz").new_initial_state(1)
state.apply("german: activate-hq hq=g-lvii-pz stacks=0413,0414,0514")
bot = PlannerBot("german", 1)
view = build_view(state, "german", bot.goals(state))
units = state.data.units_at("0413")
power = sum(float(u["strength"]) for u in units if u.get("strength"))
key = planner_guard.key_hq(units) if hasattr(planner_guard, "key_hq") else False
print(f"Smolensk need {view.guard_need.get('1308')}, core {view.guard_core.get('1308')}, own in area "
      f"{sum(view.own.get(h, 0.0) for h in ('1308', *view.neighbours('1308')))}; stack 0413 strength {power}")
kw = {"key_hq": True} if key else {}
for d in ("1208", "1109", "1309", "0416", "0216", "0614"):
    m = Mover("0413", power, False, ("0413", d), **kw)
    own = dict(view.own)
    own["0413"] = own.get("0413", 0.0) - power
    own[d] = own.get(d, 0.0) + power
    own0 = dict(view.own)
    g = planner_guard.guard_value(view, [m], [d], own) - planner_guard.guard_value(view, [m], ["0413"], own0)
    t = plan_value(view, [m], [d]) - plan_value(view, [m], ["0413"])
    print(f"0413->{d} (d to 1308 {view.distance(d, '1308')}): plan gain {t:7.1f}, of it guard_value {g:7.1f}, rest {t - g:7.1f}")
