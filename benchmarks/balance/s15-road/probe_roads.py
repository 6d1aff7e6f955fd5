"""Per German combat step: targets, hex distance and steps of the nearest strong stack, gains, attacks; ground per turn."""
import sys

from casebook.core.game import Game
from casebook.tools.bots import make_bot
from casebook.tools.planner_eval import build_view
from casebook.tools.planner_road import STRONG, _kept, road_gains, wanted

g = Game.load("moscow41", "october-blitz")
seed = int(sys.argv[1])
sov = sys.argv[2] if len(sys.argv) > 2 else "greedy"
st = g.new_initial_state(seed=seed)
bots = {"german": make_bot("planner", "german", seed), "soviet": make_bot(sov, "soviet", seed)}
shown: set = set()
gt: dict = {}
while not st.is_terminal():
    side = st.current_player()
    d = st.data
    if d.turn not in gt:
        gt[d.turn] = dict(d.weather or {}).get("ground")
        print("TURN", d.turn, "weather", d.weather, flush=True)
    if side == "german" and d.step == "combat" and (d.turn, d.phase) not in shown:
        shown.add((d.turn, d.phase))
        goals = bots["german"].goals(st)
        v = build_view(st, "german", goals)
        tg = wanted(v.counts, v.control, "german")
        own = [h for h, s in v.own.items() if s >= STRONG]
        for t in tg:
            f = _kept(v.board, t, frozenset(v.enemy), v.board.label_neighbours)
            print("  target", t, "hexes", min(v.distance(t, h) for h in own), "steps", min(f.get(h, 999) for h in own), flush=True)
        print("  gains", dict(sorted(road_gains(v, tg).items(), key=lambda x: -x[1])[:8]), "held", [c.held for c in v.counts], flush=True)
    a = bots[side].choose(st)
    if a.kind in ("attack", "overrun") and side == "german":
        print("  ", a.kind, a.get("hex") or a.get("stack"), flush=True)
    st.apply(a)
print("END", st.data.turn, [(k, v) for k, v in gt.items()], flush=True)
