"""Whole-engine figures of issue #9: legal actions per second at a Movement Step (figure 4), and wall
time and peak memory of whole games (figure 5). Measured, never asserted.

    python benchmarks/bench_engine.py legal                  # figure 4
    python benchmarks/bench_engine.py game --scenario october-blitz --bot greedy --seed 1
                                                             # one game in this process (JSON line)
    python benchmarks/bench_engine.py games [--campaign]     # figure 5: each game in a fresh process

Figure 4 position: greedy against greedy, seed 1, October Blitz, played to the first German
Movement Step and three actions into it (a typical mid-step position, reproducible from the seed).
Two rates are given: *cold* (the per-state caches emptied before each listing, the board-only
caches kept, as after a load) and *in play* (the next 20 actions of the game: the time of
``apply`` plus ``legal_actions`` against the number of actions listed: what a bot sees).

Figure 5 runs each game in a fresh Python process so that its peak resident memory
(``ru_maxrss``) is its own; the wall time is the game's alone (loading the pack is reported apart).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from typing import Any

from casebook.core.game import Game
from casebook.tools.bots import make_bot
from casebook.tools.runtime import tune_gc

__all__ = ["movement_position", "legal_rates", "play_game", "games"]


def movement_position(seed: int = 1, into_step: int = 3) -> Any:
    """The figure-4 state: greedy vs greedy ``seed``, the first German Movement Step, ``into_step``
    actions into it."""
    game = Game.load("moscow41", "october-blitz")
    state = game.new_initial_state(seed)
    bots = {s: make_bot("greedy", s, seed) for s in ("german", "soviet")}
    done = 0
    while not state.is_terminal():
        at_move = state.data.step == "movement" and state.current_player() == "german"
        if at_move and done >= into_step:
            return state
        state.apply(bots[state.current_player()].choose(state))
        done += at_move
    raise RuntimeError("the game ended before a German Movement Step")


def legal_rates(rounds: int = 5, follow: int = 20) -> dict[str, Any]:
    """Figure 4: ``{"actions", "cold_s", "cold_per_s", "play_actions", "play_s", "play_per_s"}``
    (seconds are medians over ``rounds`` for cold; totals over ``follow`` actions in play)."""
    state = movement_position()
    tune_gc()
    engine = state.game.engine
    times = []
    n = 0
    for _ in range(rounds):
        engine._memos.clear()  # the per-state caches only (private: a benchmark may look inside)
        engine._recent[:] = [None, None]
        state._legal = None
        t = time.perf_counter()
        n = len(state.legal_actions())
        times.append(time.perf_counter() - t)
    cold = sorted(times)[len(times) // 2]
    bots = {s: make_bot("greedy", s, 1) for s in ("german", "soviet")}
    listed, spent = 0, 0.0
    for _ in range(follow):
        if state.is_terminal():
            break
        action = bots[state.current_player()].choose(state)
        t = time.perf_counter()
        state.apply(action)
        listed += len(state.legal_actions())
        spent += time.perf_counter() - t
    return {"actions": n, "cold_s": cold, "cold_per_s": n / cold, "play_actions": listed,
            "play_s": spent, "play_per_s": listed / spent if spent else float("nan")}


def play_game(scenario: str, bot: str, seed: int) -> dict[str, Any]:
    """One game in this process: ``{"scenario", "bot", "seed", "load_s", "wall_s", "actions",
    "turn", "winner", "level", "peak_mb"}``."""
    t0 = time.perf_counter()
    game = Game.load("moscow41", scenario)
    state = game.new_initial_state(seed)
    load = time.perf_counter() - t0
    tune_gc()  # as the casebook command does once a game is loaded
    bots = {s: make_bot(bot, s, seed) for s in ("german", "soviet")}
    t, n = time.perf_counter(), 0
    while not state.is_terminal():
        state.apply(bots[state.current_player()].choose(state))
        n += 1
    wall = time.perf_counter() - t
    result = state.result() or {}
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    return {"scenario": scenario, "bot": bot, "seed": seed, "load_s": round(load, 2),
            "wall_s": round(wall, 2), "actions": n, "turn": state.data.turn,
            "winner": result.get("winner"), "level": result.get("level"),
            "peak_mb": round(peak_kb / 1024, 1)}


def games(campaign: bool, seed: int = 1) -> list[dict[str, Any]]:
    """Figure 5: each (scenario, bot) game in a fresh process; the Campaign only if asked."""
    scenarios = ["october-blitz"] + (["campaign"] if campaign else [])
    out = []
    for scenario in scenarios:
        for bot in ("greedy", "random"):
            cmd = [sys.executable, __file__, "game", "--scenario", scenario, "--bot", bot,
                   "--seed", str(seed)]
            done = subprocess.run(cmd, capture_output=True, text=True, check=True)
            row = json.loads(done.stdout.strip().splitlines()[-1])
            print(json.dumps(row), file=sys.stderr, flush=True)  # progress; the table is stdout
            out.append(row)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("legal")
    g = sub.add_parser("game")
    g.add_argument("--scenario", default="october-blitz")
    g.add_argument("--bot", default="greedy", choices=("greedy", "random"))
    g.add_argument("--seed", type=int, default=1)
    gs = sub.add_parser("games")
    gs.add_argument("--campaign", action="store_true", help="also the 31-turn Campaign (long)")
    args = ap.parse_args()
    if args.cmd == "legal":
        r = legal_rates()
        print(f"cold: {r['actions']} legal actions in {r['cold_s'] * 1e3:.1f} ms "
              f"= {r['cold_per_s']:.0f}/s; in play: {r['play_actions']} listed in "
              f"{r['play_s']:.2f} s = {r['play_per_s']:.0f}/s")
    elif args.cmd == "game":
        print(json.dumps(play_game(args.scenario, args.bot, args.seed)))
    else:
        games(args.campaign)


if __name__ == "__main__":
    main()
