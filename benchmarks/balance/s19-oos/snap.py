"""Replay a trace and save the position just before each given seq (the OOS marking)."""
import sys
from pathlib import Path
from casebook.core.actions import parse_action
from casebook.core.game import Game
from casebook.tools.cmd_replay import read_cut
from casebook.tools.saves import initial_state, asked_passes, write_save, trace_pack

trace = Path(sys.argv[1]); outdir = Path(sys.argv[2]); stops = sorted(int(s) for s in sys.argv[3:])
recorded, cut = read_cut(trace)
setup = recorded[0].data
game = Game.load(str(trace_pack(trace, setup["game"], None)), setup["scenario"])
state = initial_state(game, recorded[0], humans=())
asked_passes(state, recorded)
outdir.mkdir(parents=True, exist_ok=True)
for ev in recorded:
    if ev.kind != "action":
        continue
    while stops and len(state.trace) >= stops[0] and False:
        pass
    # save before applying an action once the trace has passed nothing; check stops by next action seq
    if stops and ev.seq > stops[0]:
        s = stops.pop(0)
        p = outdir / f"before-{s}.yaml"
        write_save(state, p)
        print("saved", p, "trace len", len(state.trace), "turn", state.to_dict().get("turn"), state.to_dict().get("step"), state.to_dict().get("phasing"))
        if not stops:
            break
    state.apply(parse_action(ev.data["action"]))
    asked_passes(state, recorded)
