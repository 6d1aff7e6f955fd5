import sys

import yaml

from casebook.areas import supply_trace as T
from casebook.core.game import Game
from casebook.core.hexgrid import hex_label
from casebook.games.moscow41.plugins._area_config import supply_paths

pos = yaml.safe_load(open(sys.argv[1]))
game = Game.load(sys.argv[2] if len(sys.argv) > 2 else "moscow41", "october-blitz")
pos.pop("save", None)
state = game.state_from_dict(pos)
ctx = state.ctx()
cfg = supply_paths(ctx)
side = "german"
lines = {hex_label(h) for h in T.line_supplied(cfg, ctx, side)}
net = set()
m = yaml.safe_load(open("/work/main/games/moscow41/map.yaml"))
for hs in m["hexsides"]:
    if hs.get("road") or hs.get("trail"):
        net |= set(hs["hexes"])
blocked = {hex_label(h) for h in cfg.blocked(ctx, side)}
units = {}
for u in pos["units"]:
    units.setdefault(u["hex"], []).append(u)
print(
    "L = road/trail hex supplied to the west edge, x = road/trail hex not, # = blocked (enemy/EZOC), "
    "G/O german (O: unsupplied stack), S soviet"
)
for c in range(40, 0, -1):
    row = f"{c:02d} "
    for r in range(8, 31):
        h = f"{c:02d}{r:02d}"
        if h in units:
            us = units[h]
            ch = us[0]["side"][0].upper()
            if ch == "G" and any(u.get("oos") for u in us):
                ch = "O"
        elif h in blocked:
            ch = "#"
        elif h in lines:
            ch = "L"
        elif h in net:
            ch = "x"
        else:
            ch = "."
        row += ch + " "
    print(row)
