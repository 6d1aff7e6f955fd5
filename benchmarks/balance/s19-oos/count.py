"""German (and Soviet) units out of supply in a saved position, on a pack folder: supply_answer (ask's path)."""

import sys

import yaml

from casebook.core.game import Game
from casebook.games.moscow41.plugins.supply import supply_answer

pack = sys.argv[1]
game = Game.load(pack, "october-blitz")
for path in sys.argv[2:]:
    pos = yaml.safe_load(open(path))
    pos.pop("save", None)
    state = game.state_from_dict(pos)
    ctx = state.ctx()
    out = {
        s: sorted(u["id"] for u in pos["units"] if u["side"] == s and not supply_answer(ctx, u["id"])["in_supply"])
        for s in ("german", "soviet")
    }
    print(path, pack.split("/")[-1], {s: len(v) for s, v in out.items()}, "german:", " ".join(out["german"]))
