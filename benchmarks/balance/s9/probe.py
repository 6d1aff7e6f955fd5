"""What stands near the objective towns at the start of each turn of one seeded bot game (session 9, #16).

    python benchmarks/balance/s9/probe.py [--seed N] [--radius R]

Prints, at the start of turns 2-4 and at the end: IPs of each side, the ground, and every unit within
R hexes of each objective hex of the scenario's control_count condition (side, id, strength, losses,
fatigue, hex, distance).
"""
from __future__ import annotations

import argparse

from casebook.content.loader import find_pack
from casebook.content.yamlio import load_yaml
from casebook.core.hexgrid import distance, parse_hex
from casebook.tools.batch import load_game
from casebook.tools.bots import make_bot


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--radius", type=int, default=3)
    ap.add_argument("--german", default="planner")
    ap.add_argument("--soviet", default="greedy")
    ap.add_argument("--trace-units", default="", help="comma-separated unit ids or hexes: print the German actions naming them")
    a = ap.parse_args()
    game = load_game("moscow41", "october-blitz")
    state = game.new_initial_state(a.seed)
    bots = {"german": make_bot(a.german, "german", a.seed), "soviet": make_bot(a.soviet, "soviet", a.seed)}
    layout = state.ctx().board.grid.layout
    scen = load_yaml(find_pack("moscow41") / "scenarios" / "october-blitz.yaml").data["scenario"]
    cond = [c for c in scen["victory"]["german"] if c["kind"] == "control_count"][0]
    objectives = dict(zip(cond["names"], cond["hexes"]))

    def show(label: str) -> None:
        d = state.data
        print(f"== {label}: turn {d.turn} weather {d.weather} ip {d.tracks()['ip']}")
        for name, h in objectives.items():
            near = []
            for u in d.units:
                if u.get("hex") and u["class"] != "hq":
                    r = distance(parse_hex(u["hex"]), parse_hex(h), layout)
                    if r <= a.radius:
                        near.append((r, u["side"][0], u["id"], u.get("strength"), u.get("losses"),
                                     ("F" if u.get("fatigued") else "") + ("O" if u.get("oos") else ""), u["hex"]))
            print(f"  {name} {h} ({d.control(h)}):", sorted(near))

    turn = state.data.turn
    while not state.is_terminal():
        if state.data.turn != turn:
            turn = state.data.turn
            show("start")
        side = state.current_player()
        action = bots[side].choose(state)
        if a.trace_units and side == "german" and any(x in str(action) for x in a.trace_units.split(",")):
            print("   ", state.data.turn, state.data.step, action)
        state.apply(action)
    show("end")
    print(state.result())


if __name__ == "__main__":
    main()
