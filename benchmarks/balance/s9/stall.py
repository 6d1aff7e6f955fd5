"""Where a bot game's German advance stalls: one seeded game, measured turn by turn (issue #16).

Session 9 copy of benchmarks/balance/s8/stall.py (unchanged); it also counts the German moves, force marches,
overruns and HQ activations of each turn, and the German bot's CPU seconds next to its wall seconds.

    python benchmarks/balance/s8/stall.py [--seed N] [--german planner] [--soviet greedy]

At the end of each turn: the nearest German combat unit to each objective hex of the scenario's
"control_count" condition (hexes, on the map's grid), the strength on the map of each side, the
turn's ground condition (as it stood at the turn's first decision, after its weather), the attacks
made (German: by odds and CRT result) and each bot's wall seconds for the turn. Game-neutral
apart from the side names it is given. Output: one JSON line a turn on stdout.
"""

from __future__ import annotations

import argparse
import collections
import json
import time

from casebook.content.loader import find_pack
from casebook.content.yamlio import load_yaml
from casebook.core.hexgrid import distance, parse_hex
from casebook.tools.batch import load_game
from casebook.tools.bots import make_bot


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="moscow41")
    ap.add_argument("--scenario", default="october-blitz")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--german", default="planner")
    ap.add_argument("--soviet", default="greedy")
    a = ap.parse_args()
    game = load_game(a.game, a.scenario)
    state = game.new_initial_state(a.seed)
    bots = {"german": make_bot(a.german, "german", a.seed), "soviet": make_bot(a.soviet, "soviet", a.seed)}
    layout = state.ctx().board.grid.layout
    scen = load_yaml(find_pack(a.game) / "scenarios" / f"{a.scenario}.yaml").data["scenario"]
    cond = [c for c in scen["victory"]["german"] if c["kind"] == "control_count"]
    objectives = dict(zip(cond[0]["names"], cond[0]["hexes"])) if cond else {}
    secs = collections.Counter()
    seen_events = 0
    turn = state.data.turn
    stats = collections.Counter()
    grounds: dict[int, str | None] = {}

    def report(t: int) -> None:
        units = [u for u in state.data.units if u.get("hex") and u["class"] != "hq"]
        out: dict = {"turn": t, "ground": grounds.get(t)}
        for name, h in objectives.items():
            ds = [distance(parse_hex(u["hex"]), parse_hex(h), layout) for u in units if u["side"] == "german"]
            out[name] = min(ds) if ds else None
            out[name + "_held"] = state.data.control(h)
        for side in ("german", "soviet"):
            out[side + "_strength"] = sum(int(u.get("strength") or 0) for u in units if u["side"] == side)
        out.update(stats)
        out["german_s"] = round(secs["german"], 1)
        out["soviet_s"] = round(secs["soviet"], 1)
        out["german_cpu_s"] = round(secs["german_cpu"], 1)  # CPU seconds of this process (the load aside)
        print(json.dumps(out), flush=True)

    report(0)
    while not state.is_terminal():
        if state.data.turn != turn:
            report(turn)
            turn = state.data.turn
            stats.clear()
            secs.clear()
        grounds.setdefault(state.data.turn, (state.data.weather or {}).get("ground"))
        side = state.current_player()
        t0, c0 = time.perf_counter(), time.process_time()
        action = bots[side].choose(state)
        secs[side] += time.perf_counter() - t0
        secs[side + "_cpu"] += time.process_time() - c0
        if side == "german" and action.kind in ("force-march", "overrun", "move", "activate-hq"):
            stats["g_" + action.kind] += 1
        state.apply(action)
        for ev in list(state.trace)[seen_events:]:
            k = ev.kind if hasattr(ev, "kind") else ev["kind"]
            d = ev.data if hasattr(ev, "data") else ev["data"]
            if k == "combat" and d.get("attacker_side") == "german":
                stats["g_attacks"] += 1
                stats["g_result " + str(d.get("result"))] += 1
                stats["g_odds " + str(d.get("odds"))] += 1
            if k == "combat" and d.get("attacker_side") == "soviet":
                stats["s_attacks"] += 1
        seen_events = len(state.trace)
    report(turn)
    print(json.dumps({"result": state.result()}, default=str))


if __name__ == "__main__":
    main()
