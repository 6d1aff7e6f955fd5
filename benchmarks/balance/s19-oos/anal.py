"""Replay a trace; just before the action whose step-end marks OOS (seq STOP), read every unit's supply
of SIDE with the plugin's supply_answer (ask's code path) and classify why it fails."""

import sys
from pathlib import Path

from casebook.core.actions import parse_action
from casebook.core.game import Game
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.tools.cmd_replay import read_cut
from casebook.tools.saves import asked_passes, initial_state, trace_pack, write_save

trace = Path(sys.argv[1])
outdir = Path(sys.argv[2])
side = sys.argv[3]
stops = sorted(int(s) for s in sys.argv[4:])
recorded, cut = read_cut(trace)
setup = recorded[0].data
game = Game.load(str(trace_pack(trace, setup["game"], None)), setup["scenario"])
state = initial_state(game, recorded[0], humans=())
asked_passes(state, recorded)
actions = [e for e in recorded if e.kind == "action"]
marks = {e.seq: e for e in recorded if e.kind == "oos-marking"}
trigger = {}
for s in stops:
    last = max(i for i, a in enumerate(actions) if a.seq < s)
    trigger[last] = s
outdir.mkdir(parents=True, exist_ok=True)
sup = None


def lab(h):
    try:
        return hex_label(h)
    except Exception:
        return str(h)


def analyse(s):
    from casebook.areas import supply_trace as T
    from casebook.games.moscow41.plugins._area_config import supply_paths
    from casebook.games.moscow41.plugins.supply import supply_answer

    ctx = state.ctx()
    cfg = supply_paths(ctx)
    d = state.to_dict()
    units = [u for u in d["units"] if u["side"] == side]
    blocked = cfg.blocked(ctx, side)
    usable = cfg.usable(ctx, side)
    lines = T.line_supplied(cfg, ctx, side)
    hqs = {h[0]: h for h in T.supplied_hqs(cfg, ctx, side)}
    rows = []
    for u in units:
        a = supply_answer(ctx, u["id"])
        if a["in_supply"]:
            continue
        start = parse_hex(u["hex"])
        seen = {start}
        todo = [start]
        reach_src = reach_line = False
        while todo:
            h = todo.pop()
            if h in usable:
                reach_src = True
            if h in lines:
                reach_line = True
            for n in ctx.board.neighbours(h):
                if n in seen or n in blocked:
                    continue
                seen.add(n)
                todo.append(n)
        far = T.trace_mp(cfg, ctx, u["id"], 99, why=False)
        near_hq = sorted((ctx.board.grid.distance(hh[1], start), hid) for hid, hh in hqs.items())[:2]
        if not reach_src and not reach_line:
            cls = "b:cut-off (no unblocked path to a line or the edge)"
        else:
            cls = f"a:too far ({far.get('mp')} MP to a {far.get('kind')})"
        rows.append((u["id"], u["class"], u["hex"], len(seen), cls, near_hq))
    print(
        f"== stop {s}: {side} OOS now {len(rows)} of {len(units)}; "
        f"marked in trace: {marks.get(s).data.get('marked') if s in marks else None}; supplied HQs {sorted(hqs)}"
    )
    for r in rows:
        print(*r)
    write_save(state, outdir / f"before-{s}.yaml")


for i, ev in enumerate(actions):
    if i in trigger:
        analyse(trigger.pop(i))
        if not trigger:
            break
    state.apply(parse_action(ev.data["action"]))
    asked_passes(state, recorded)
