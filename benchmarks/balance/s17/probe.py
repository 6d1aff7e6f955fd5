"""Turn-by-turn reading of seeded October Blitz games (session 17, issue #16): where the panzers are,
how far the towns of 18.1.3A are, force marches, attacks on the towns' defenders, who reaches the
towns first.

    python benchmarks/balance/s17/probe.py --seed N [N ...] [--german planner] [--soviet greedy] [--out DIR]

Plays each seed exactly as ``casebook batch`` does (the same game, seed and bots: its ``digest`` must
equal the batch record's) and prints, per seed, one JSON line per half-turn end (``T1G``: after the
German half of Turn 1, ``T1S``: after the Soviet half) and a last line with the result:

- ``ground``: the ground condition of the half's turn (3.0-3.5; read at the half's first decision);
- ``towns``: per town of the German ``control_count`` condition (18.1.3A) ``ctl`` (who controls it),
  ``d`` (hexes from the nearest German combat unit, HQs and remnants excluded, 17.1/11.3D), ``dm``
  (from the nearest German mobile stack: armor/mechanized units, at least 6 strength), ``sov``
  (Soviet combat strength in the town) and ``ring`` (in the six hexes next to it);
- ``third`` / ``third_m``: the third-smallest ``d`` / ``dm`` (18.1.3A asks for three of five);
- ``mobile``: the German mobile stacks (hex: strength), ``fm``: German force marches declared in the
  half, ``att``: German attacks (all / on a town hex / on a hex next to a town), ``town_att``: the
  attacks on a town hex with the defender's result.

With ``--out DIR`` each game's trace is written to ``DIR/trace-seedN.jsonl`` (``state.trace.write``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from casebook.core.hexgrid import distance, parse_hex
from casebook.tools.batch import _digest, load_game
from casebook.tools.bots import make_bot

NON_COMBAT = ("hq", "remnant")  # 17.1, 11.3D
MOBILE = ("armor", "mechanized")


def _strength(u: Any) -> float:
    try:
        return float(u.get("strength") or 0)
    except (TypeError, ValueError):
        return 0.0


def snapshot(state: Any, objectives: dict[str, str], layout: Any) -> dict[str, Any]:
    units = [u for u in state.data.units if u.get("hex") and u.get("class") not in NON_COMBAT]
    ger = [u for u in units if u.get("side") == "german"]
    sov = [u for u in units if u.get("side") == "soviet"]
    mobile: dict[str, float] = {}
    for u in ger:
        if u.get("class") in MOBILE:
            mobile[u["hex"]] = mobile.get(u["hex"], 0.0) + _strength(u)
    strong = [h for h, s in mobile.items() if s >= 6]
    sov_at: dict[str, float] = {}
    for u in sov:
        sov_at[u["hex"]] = sov_at.get(u["hex"], 0.0) + _strength(u)

    def dist(a: str, b: str) -> int:
        return distance(parse_hex(a), parse_hex(b), layout)

    towns: dict[str, Any] = {}
    for name, h in objectives.items():
        ctl = state.data.control(h)
        d = min((dist(u["hex"], h) for u in ger), default=None)
        dm = min((dist(m, h) for m in strong), default=None)
        ring = sum(s for x, s in sov_at.items() if dist(x, h) == 1)
        towns[name] = {"ctl": ctl, "d": 0 if ctl == "german" else d, "dm": dm,
                       "sov": sov_at.get(h, 0.0), "ring": ring}
    ds = sorted(t["d"] for t in towns.values() if t["d"] is not None)
    dms = sorted(t["dm"] for t in towns.values() if t["dm"] is not None)
    return {"towns": towns, "third": ds[2] if len(ds) > 2 else None,
            "third_m": dms[2] if len(dms) > 2 else None,
            "mobile": dict(sorted(mobile.items())),
            "strength": {"german": sum(_strength(u) for u in ger), "soviet": sum(sov_at.values())}}


def play(pack: str, scenario: str, seed: int, german: str, soviet: str, out: Path | None) -> None:
    game = load_game(pack, scenario)
    state = game.new_initial_state(seed)
    board = state.ctx().board
    layout = board.grid.layout
    bots = {side: make_bot(kind, side, seed) for side, kind in (("german", german), ("soviet", soviet))}
    count = next(c for c in game.engine.pack.scenario(game.scenario).scenario.victory["german"]
                 if c["kind"] == "control_count")  # 18.1.3A
    objectives, town_hexes = dict(zip(count["names"], count["hexes"])), set(count["hexes"])
    near_town = {n for t in town_hexes for n in board.label_neighbours(t)}
    half = (state.data.turn, state.data.phasing)
    counts: dict[str, Any] = {"fm": 0, "att": [0, 0, 0], "town_att": [], "ips": 0}
    actions = 0

    ground = [(state.data.weather or {}).get("ground")]

    def emit(label: tuple[int, str]) -> None:
        row = {"seed": seed, "half": f"T{label[0]}{label[1][0].upper()}", "ground": ground[0],
               **counts, **snapshot(state, objectives, layout)}
        print(json.dumps(row, default=str), flush=True)

    while not state.is_terminal():
        side = state.current_player()
        if (state.data.turn, state.data.phasing) != half:
            emit(half)
            half = (state.data.turn, state.data.phasing)
            ground[0] = (state.data.weather or {}).get("ground")
            counts = {"fm": 0, "att": [0, 0, 0], "town_att": [], "ips": 0}
        action = bots[side].choose(state)
        state.apply(action)
        actions += 1
        if action.side != "german" or state.data.phasing != "german":
            continue
        if action.kind == "force-march":
            counts["fm"] += 1
        if action.kind == "attack":
            h = action.get("hex")
            counts["att"][0] += 1
            counts["att"][1] += h in town_hexes
            counts["att"][2] += h in near_town
            counts["ips"] += int(action.get("support") or 0)
            if h in town_hexes:
                last = [e.data.get("result") for e in state.trace if "result" in (e.data or {})][-1:]
                counts["town_att"].append([h, len(action.get("with") or ()), last])
    emit(half)
    result = state.result() or {}
    _, digest = _digest(state.trace)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        state.trace.write(out / f"trace-seed{seed}.jsonl")
    print(json.dumps({"seed": seed, "result": {"winner": result.get("winner"), "cases": result.get("cases"),
                                               "turn": state.data.turn, "actions": actions},
                      "digest": digest}, default=str), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    for flag, default in (("--pack", "moscow41"), ("--scenario", "october-blitz"), ("--german", "planner"),
                          ("--soviet", "greedy")):
        ap.add_argument(flag, default=default)
    ap.add_argument("--seed", type=int, nargs="+", default=[1])
    ap.add_argument("--out", type=Path, default=None)
    a = ap.parse_args()
    for seed in a.seed:
        play(a.pack, a.scenario, seed, a.german, a.soviet, a.out)


if __name__ == "__main__":
    main()
