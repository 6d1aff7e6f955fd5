"""Session 20 (relief20): how Smolensk (18.1.3D, a Soviet combat unit entering it wins) falls, planner vs planner.

    python benchmarks/balance/s20-relief/smol.py --seed N [--soviet planner] [--german planner]

Plays the seed as ``casebook batch`` does and prints at the end of each half-turn: the German units in
Smolensk and next to it (id, class, strength), the mechanized (panzer corps) HQs and their distance to
Smolensk, the Soviet combat units within 4 hexes of Smolensk; every Soviet action that puts a Soviet unit
within 1 hex of Smolensk (kind, from, path); the end (winner, reason). The last line counts the panzer
HQ half-turn ends within 2 hexes of Smolensk (German half ends).
"""

from __future__ import annotations

import argparse

from casebook.core.hexgrid import distance, parse_hex
from casebook.tools.batch import load_game
from casebook.tools.bots import make_bot

SMOLENSK = "1308"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--soviet", default="planner")
    ap.add_argument("--german", default="planner")
    a = ap.parse_args()
    game = load_game("moscow41", "october-blitz")
    state = game.new_initial_state(a.seed)
    layout = state.ctx().board.grid.layout
    bots = {"german": make_bot(a.german, "german", a.seed), "soviet": make_bot(a.soviet, "soviet", a.seed)}

    def d(x: str) -> int:
        return distance(parse_hex(x), parse_hex(SMOLENSK), layout)

    def units(side: str, radius: int) -> list[dict]:
        return [u for u in state.data.units if u.get("side") == side and u.get("hex") and d(u["hex"]) <= radius]

    def tag(u: dict) -> str:
        return f"{u['id']}@{u['hex']}({u.get('class')},{u.get('strength')})"

    near_hq = 0
    half = None

    def report(h: tuple) -> None:
        nonlocal near_hq
        ger = units("german", 1)
        hqs = [u for u in state.data.units if u.get("side") == "german" and u.get("class") == "hq"
               and u.get("mechanized") and u.get("hex")]
        if h[1] == "german":
            near_hq += sum(1 for u in hqs if d(u["hex"]) <= 2)
        guard = " ".join(tag(u) for u in ger)
        print(f"  end T{h[0]}{h[1][0].upper()}: guard(<=1) {len(ger)}: {guard}")
        where = " ".join(f"{u['id']}@{u['hex']}(d{d(u['hex'])})" for u in hqs)
        print(f"     mech HQs: {where}")
        sov = [u for u in units("soviet", 4) if u.get("class") != "hq"]
        near = " ".join(f"{tag(u)}d{d(u['hex'])}" for u in sov)
        print(f"     soviet <=4: {near}")

    while not state.is_terminal():
        now = (state.data.turn, state.data.phasing)
        if now != half:
            if half:
                report(half)
            half = now
        side = state.current_player()
        action = bots[side].choose(state)
        before = {u["id"]: u.get("hex") for u in units("soviet", 1)}
        gbefore = {u["id"]: u.get("hex") for u in units("german", 1)}
        where = {u["id"]: u.get("hex") for u in state.data.units}
        state.apply(action)
        after = {u["id"]: u.get("hex") for u in units("soviet", 1)}
        gafter = {u["id"]: u.get("hex") for u in units("german", 1)}
        gone = [i for i in gbefore if i not in gafter]
        came = [i for i in gafter if i not in gbefore]
        if gone or came:
            now_at = {u["id"]: u.get("hex") for u in state.data.units}
            out = ", ".join(f"{i}:{where.get(i)}->{now_at.get(i)}" for i in gone)
            inn = ", ".join(f"{i}:{where.get(i)}->{now_at.get(i)}" for i in came)
            print(f"  T{now[0]}{now[1][0].upper()} {action.kind} {dict(action.args)} german out [{out}] in [{inn}]")
        moved = [i for i, h in after.items() if before.get(i) != h]
        if moved:
            went = ", ".join(f"{i}@{after[i]}(d{d(after[i])})" for i in moved)
            print(f"  T{now[0]}{now[1][0].upper()} {action.kind} {dict(action.args)}"
                  f" -> {went}")
    if half:
        report(half)
    result = state.result() or {}
    print(f"end: turn {state.data.turn} winner {result.get('winner')} reason {result.get('reason')}")
    print(f"panzer HQ German-half ends within 2 hexes of Smolensk: {near_hq}")


if __name__ == "__main__":
    main()
