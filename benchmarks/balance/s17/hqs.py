"""Replay a saved Blitz trace and, at the start of each German player phase, list the mechanized HQs
(2.2C: only they activate panzer divisions) and the German mobile stacks with the nearest mechanized HQ's
distance (in command when within its radius, 8.4A). python hqs.py TRACE"""
import json
import sys

from casebook.core.actions import parse_action
from casebook.core.game import Game
from casebook.core.hexgrid import distance, parse_hex

path = sys.argv[1]
events = [json.loads(line) for line in open(path)]
seed = events[0]["data"]["seed"]
game = Game.load("moscow41", "october-blitz")
state = game.new_initial_state(seed)
layout = state.ctx().board.grid.layout
seen = set()


def dump() -> None:
    units = [u for u in state.data.units if u.get("hex") and u.get("side") == "german"]
    hqs = [u for u in units if u.get("class") == "hq" and u.get("mechanized")]
    stacks = {}
    for u in units:
        if u.get("class") in ("armor", "mechanized"):
            stacks.setdefault(u["hex"], []).append(u["id"][2:])
    print(f"T{state.data.turn} mech HQs:", ", ".join(f"{h['id'][2:]}@{h['hex']}(r{h.get('radius')})" for h in hqs))
    out = 0
    for h, ids in sorted(stacks.items()):
        d = min(((distance(parse_hex(h), parse_hex(q["hex"]), layout), q["id"][2:]) for q in hqs), default=(99, "-"))
        r = next((q.get("radius") or 0) for q in hqs if q["id"][2:] == d[1]) if hqs else 0
        flag = "" if d[0] <= r else "  OUT OF COMMAND"
        out += bool(flag)
        print(f"   {h} {','.join(ids)}: nearest mech HQ {d[1]} at {d[0]}{flag}")
    print(f"   mobile stacks out of mechanized command: {out} of {len(stacks)}")


for e in events:
    if e["kind"] != "action":
        continue
    if e["side"] == "german" and e["step"] == "command" and e["phase"] in ("first_player", "second_player") \
            and (e["turn"]) not in seen:
        seen.add(e["turn"])
        dump()
    state.apply(parse_action(e["data"]["action"]))
