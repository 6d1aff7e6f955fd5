"""The rows as `casebook batch` plays them (tools/batch.play_one, GameSpec), one seed after another, each
record written with the ground of each turn (read after every action by GameSpec.check)."""
import json
import sys
from dataclasses import asdict

from casebook.tools.batch import GameSpec, play_one

game, scenario, german, soviet, first, last, out = sys.argv[1:8]
grounds = {}

def check(state):
    d = state.data
    w = dict(d.weather or {})
    grounds.setdefault(int(d.turn or 0), w.get("ground"))

with open(out, "a") as fh:
    for seed in range(int(first), int(last) + 1):
        grounds.clear()
        spec = GameSpec(game=game, scenario=scenario, seed=seed, bots=(("german", german), ("soviet", soviet)), check=check, vps=False)
        rec = asdict(play_one(spec))
        rec["ground"] = [grounds.get(t) for t in sorted(grounds)]
        fh.write(json.dumps(rec) + "\n")
        fh.flush()
