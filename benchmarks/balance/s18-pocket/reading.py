"""Pocket reading (session 18, issue #16): after each half-turn of a seeded October Blitz game, how many
Soviet stacks are out of supply (the supply plugin's answer, 5.2/5.4) or have no retreat (every hex next to
them German-held or next to a German stack and not Soviet-held, 11.2B), how many Soviet units were
eliminated, where the German mobile stacks stand, and which hexes on the Soviet supply paths a German mobile
stack could reach (within its MA 8 in hexes, not Soviet-held), with the Soviet strength whose path passes them,
and the German planner's pocket cuts (``tools/planner_pocket.pocket_cuts``: hex -> Soviet strength a German
stack there would cut from supply; session 18's branch only).

    python benchmarks/balance/s18-pocket/reading.py --seed 1 [--german planner] [--soviet planner] [--turns 2]

One JSON line per half-turn end (``T1G``: after the German half of Turn 1) and a result line. Plays exactly as
``casebook batch`` does (the same bots and seed; the result line's digest equals the batch record's when the
game is played to its end).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from casebook.core.hexgrid import distance, parse_hex
from casebook.tools.batch import _digest, load_game
from casebook.tools.bots import make_bot
from casebook.tools.planner import PlannerBot
from casebook.tools.planner_eval import build_view

try:  # session 18's branch; main before it has no pocket aims (PYTHONPATH=<main>/src for the "before" rows)
    from casebook.tools.planner_pocket import pocket_cuts
except ImportError:  # pragma: no cover
    pocket_cuts = None

NON_COMBAT = ("hq", "remnant")  # 17.1, 11.3D
SEEN: set[str] = set()  # Soviet unit ids seen on the map (the removed list names units only)
MOBILE = ("armor", "mechanized")


def _s(u: Any) -> float:
    try:
        return float(u.get("strength") or 0)
    except (TypeError, ValueError):
        return 0.0


def snapshot(state: Any) -> dict[str, Any]:
    ctx = state.ctx()
    board = ctx.board
    layout = board.grid.layout
    units = [u for u in state.data.units if u.get("hex") and u.get("class") not in NON_COMBAT]
    ger: dict[str, float] = {}
    mobile: dict[str, float] = {}
    sov: dict[str, list[Any]] = {}
    for u in units:
        if u.get("side") == "german":
            ger[u["hex"]] = ger.get(u["hex"], 0.0) + _s(u)
            if u.get("class") in MOBILE:
                mobile[u["hex"]] = mobile.get(u["hex"], 0.0) + _s(u)
        else:
            sov.setdefault(u["hex"], []).append(u)
    oos, oos_s, shared = 0, 0.0, {}
    for _h, us in sorted(sov.items()):
        a = ctx.hook.casebook_supply(ctx=ctx, unit=us[0]["id"])
        st = sum(_s(u) for u in us)
        if not (a or {}).get("in_supply", True):
            oos, oos_s = oos + 1, oos_s + st
            continue
        for p in (a or {}).get("path") or ():
            if p not in sov:
                shared[p] = shared.get(p, 0.0) + st
    pocketed = 0
    for h in sov:
        ok = True
        for n in board.label_neighbours(h):
            if n in ger:
                continue
            if n in sov or not any(m in ger for m in board.label_neighbours(n)):
                ok = False
                break
        pocketed += ok
    strong = [h for h, s in mobile.items() if s >= 6]
    reach = {p: s for p, s in shared.items()
             if any(distance(parse_hex(p), parse_hex(m), layout) <= 8 for m in strong)}
    top = sorted(reach.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    SEEN.update(u["id"] for u in state.data.units if u.get("side") == "soviet")
    gone = sum(1 for r in state.data.removed if r.get("unit") in SEEN and r.get("reason") == "eliminated")
    cuts: list[Any] = []
    if pocket_cuts is not None:
        view = build_view(state, "german", PlannerBot("german", 1).goals(state))
        cuts = sorted(pocket_cuts(state, view, 8).items(), key=lambda kv: (-kv[1], kv[0]))[:4]
    return {"sov_stacks": len(sov), "oos": oos, "oos_strength": oos_s, "no_retreat": pocketed,
            "sov_eliminated": gone, "mobile": dict(sorted(mobile.items())),
            "path_hexes_in_reach": len(reach), "top_in_reach": top, "german_pocket_cuts": cuts}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--german", default="planner")
    ap.add_argument("--soviet", default="planner")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--turns", type=int, default=4)
    a = ap.parse_args()
    game = load_game("moscow41", "october-blitz")
    state = game.new_initial_state(a.seed)
    bots = {"german": make_bot(a.german, "german", a.seed), "soviet": make_bot(a.soviet, "soviet", a.seed)}
    half = (state.data.turn, state.data.phasing)
    while not state.is_terminal():
        if (state.data.turn, state.data.phasing) != half:
            print(json.dumps({"seed": a.seed, "half": f"T{half[0]}{half[1][0].upper()}", **snapshot(state)}), flush=True)
            half = (state.data.turn, state.data.phasing)
            if half[0] > a.turns:
                return
        state.apply(bots[state.current_player()].choose(state))
    print(json.dumps({"seed": a.seed, "half": "end", **snapshot(state)}), flush=True)
    result = state.result() or {}
    print(json.dumps({"seed": a.seed, "result": {"winner": result.get("winner"), "cases": result.get("cases"),
                                                 "turn": state.data.turn}, "digest": _digest(state.trace)[1]}), flush=True)


if __name__ == "__main__":
    main()
