"""Session 19 (armour19): the German planner's Turns 1-2 in the October Blitz, read decision by decision.

    python benchmarks/balance/s19-armour/t12.py --seed N [--turns 2] [--soviet greedy]

Plays the seed as ``casebook batch`` does (the same bots and seed) and prints, for each German half up
to ``--turns``: every ``activate-hq`` (HQ, its hex, the stacks it woke), every move of a stack (from,
to, hexes covered, whether it holds a mechanized HQ or a mobile unit: armor/mechanized class), every
German attack (hex, odds column if traced), and at the half's end where the mechanized HQs stand and
how many hexes from Smolensk (the 18.1.3D guard hex, read from the scenario's guard goals).
"""

from __future__ import annotations

import argparse

from casebook.core.hexgrid import distance, parse_hex
from casebook.tools.batch import load_game
from casebook.tools.bots import make_bot

MOBILE = ("armor", "mechanized")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--turns", type=int, default=2)
    ap.add_argument("--soviet", default="greedy")
    a = ap.parse_args()
    game = load_game("moscow41", "october-blitz")
    state = game.new_initial_state(a.seed)
    layout = state.ctx().board.grid.layout
    bots = {"german": make_bot("planner", "german", a.seed), "soviet": make_bot(a.soviet, "soviet", a.seed)}
    smolensk = "1308"

    def d(x: str, y: str) -> int:
        return distance(parse_hex(x), parse_hex(y), layout)

    def mech_hqs() -> str:
        return ", ".join(f"{u['id']}@{u['hex']}(d{d(u['hex'], smolensk)})" for u in state.data.units
                         if u.get("side") == "german" and u.get("class") == "hq" and u.get("mechanized") and u.get("hex"))

    half = None
    while not state.is_terminal() and (state.data.turn or 0) <= a.turns:
        side = state.current_player()
        now = (state.data.turn, state.data.phasing)
        if now != half:
            if half and half[1] == "german":
                print(f"  end T{half[0]}G mech HQs: {mech_hqs()}")
            half = now
            if now[1] == "german":
                print(f"== seed {a.seed} T{now[0]} German, ground {(state.data.weather or {}).get('ground')}")
        action = bots[side].choose(state)
        if side == "german" and state.data.phasing == "german":
            k = action.kind
            if k == "activate-hq":
                hq = action.get("hq")
                where = next((u["hex"] for u in state.data.units if u["id"] == hq), "?")
                stacks = action.get("stacks") or ()
                desc = []
                for h in stacks:
                    us = [u for u in state.data.units_at(h) if u.get("side") == "german"]
                    tag = "M" if any(u.get("class") in MOBILE for u in us) else "i"
                    tag += "+HQ" if any(u.get("class") == "hq" and u.get("mechanized") for u in us) else ""
                    desc.append(f"{h}[{tag}]")
                print(f"  activate {hq}@{where}: {' '.join(desc)}")
            elif k in ("move", "rail-move") and action.get("stack"):
                src = str(action.get("stack"))
                path = action.get("path") or (action.get("to"),)
                us = [u for u in state.data.units_at(src) if u.get("side") == "german"]
                mob = any(u.get("class") in MOBILE for u in us)
                hq = [u["id"] for u in us if u.get("class") == "hq"]
                ids = ",".join(u["id"] for u in us if u.get("class") != "hq")
                print(f"  {k} {src}->{path[-1]} ({len(path)} steps, d_smolensk {d(src, smolensk)}->{d(path[-1], smolensk)})"
                      f" {'MOBILE ' if mob else ''}{ids}{' HQ ' + ','.join(hq) if hq else ''}")
            elif k in ("attack", "overrun", "force-march"):
                print(f"  {k} {action.get('hex') or action.get('stack') or ''}")
        state.apply(action)
    if half and half[1] == "german":
        print(f"  end T{half[0]}G mech HQs: {mech_hqs()}")


if __name__ == "__main__":
    main()
