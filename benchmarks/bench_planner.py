"""What the planning bot costs (issue #16): the Game API operations a look-ahead bot would use,
and the planner's own decisions and whole bot turns. Measured, never asserted.

    python benchmarks/bench_planner.py                 # both games, seed 1, a markdown table
    python benchmarks/bench_planner.py --turns 2 --nodes 400
    python benchmarks/bench_planner.py --side-turns 3 [--against planner]   # time per side-turn, whole games
    python benchmarks/bench_planner.py --both-sides 2 --out /tmp/s2.json   # one seed, planner vs planner:
        # every side-turn of both sides of both games in the same games (one process per seed runs in parallel);
    python benchmarks/bench_planner.py --summarize /tmp/s1.json /tmp/s2.json /tmp/s3.json   # ... their table
    python benchmarks/bench_planner.py --side-turns 3 --against planner --digest /tmp/after.txt
        # ... and each game's trace SHA-256 (diff two such files: a speed change must leave them equal);
        # every side-turn's figures go to stderr as they come

Rows:

- *clone* / *peek* / *apply*: ``State.clone()``, ``State.peek(action)`` and ``State.apply`` plus
  the next ``legal_actions()``, at the decisions of the first German turn of the October Blitz
  (median over those decisions); what a simulation-based planner would pay per node;
- *plan evaluation*: one :func:`casebook.tools.planner_eval.plan_value` call (median), what the
  planner pays per node instead;
- *bot turn*: the wall time of every decision one side's planner made in a turn (the other side
  greedy), turn by turn, with the number of decisions and the nodes they used.

The load average at the start is printed: figures taken on a busy machine are slower.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import time
from collections import defaultdict
from typing import Any

from casebook.core.game import Game
from casebook.tools.bots import make_bot
from casebook.tools.planner import PlannerBot
from casebook.tools.planner_eval import Mover, build_view, plan_value
from casebook.tools.runtime import tune_gc

__all__ = ["api_costs", "bot_turns", "side_turns", "main"]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms" if seconds < 1 else f"{seconds:.2f} s"


def api_costs(seed: int = 1, decisions: int = 40) -> dict[str, float]:
    """Median seconds of clone, peek, apply+legal and one plan evaluation over the first
    ``decisions`` German decisions of the October Blitz (greedy moves)."""
    game = Game.load("moscow41", "october-blitz")
    state = game.new_initial_state(seed)
    bots = {s: make_bot("greedy", s, seed) for s in state.data.sides}
    planner = PlannerBot("german", seed)
    clone, peek, apply, evaluate = [], [], [], []
    while len(clone) < decisions and not state.is_terminal():
        side = state.current_player()
        action = bots[side].choose(state)
        if side == "german":
            t = time.perf_counter()
            state.clone()
            clone.append(time.perf_counter() - t)
            t = time.perf_counter()
            state.peek(action)
            peek.append(time.perf_counter() - t)
            view = build_view(state, side, planner.goals(state))
            movers = [Mover(h, 6.0, False, (h,)) for h in sorted(view.own)[:3]]
            t = time.perf_counter()
            plan_value(view, movers, tuple(m.origin for m in movers))
            evaluate.append(time.perf_counter() - t)
        t = time.perf_counter()
        state.apply(action)
        state.legal_actions()
        if side == "german":
            apply.append(time.perf_counter() - t)
    return {k: statistics.median(v) for k, v in
            (("clone", clone), ("peek", peek), ("apply", apply), ("evaluate", evaluate))}


def bot_turns(game_id: str, scenario: str, side: str, turns: int, seed: int = 1,
              nodes: int | None = None, others: str = "greedy",
              digests: list[str] | None = None) -> list[dict[str, Any]]:
    """Per turn up to ``turns``: ``{"turn", "seconds", "cpu", "decisions", "nodes"}`` (wall and
    CPU seconds) of ``side``'s
    planner (the other sides ``others``: greedy, or planner with the default budget). With
    ``digests``, appends the game's line ``"game/side/seed: N actions SHA256"`` (the SHA-256 of its
    actions and trace events), to check that a speed change left every decision as it was."""
    game = Game.load(game_id, scenario)
    state = game.new_initial_state(seed)
    bots: dict[str, Any] = {s: make_bot(others, s, seed) for s in state.data.sides}
    bots[side] = PlannerBot(side, seed) if nodes is None else PlannerBot(side, seed, nodes=nodes)
    rows: dict[int, dict[str, Any]] = defaultdict(lambda: {"seconds": 0.0, "cpu": 0.0, "decisions": 0, "nodes": 0})
    while not state.is_terminal() and state.data.turn <= turns:
        who = state.current_player()
        t, c = time.perf_counter(), time.process_time()
        action = bots[who].choose(state)
        if who == side:
            row = rows[state.data.turn]
            row["seconds"] += time.perf_counter() - t
            row["cpu"] += time.process_time() - c
            row["decisions"] += 1
            row["nodes"] += bots[who].last_nodes
        state.apply(action)
    if digests is not None:
        digests.append(f"{game_id}/{scenario}/{side}/{seed}: {len(state.trace)} events {_digest(state)}")
    return [{"turn": k, **v} for k, v in sorted(rows.items())]


def _digest(state: Any) -> str:
    """The SHA-256 of a play's trace events (each as sorted JSON, a line)."""
    h = hashlib.sha256()
    for ev in state.trace:
        data = ev.to_dict() if hasattr(ev, "to_dict") else ev
        h.update(json.dumps(data, sort_keys=True, default=str).encode() + b"\n")
    return h.hexdigest()


def side_turns(seeds: list[int], turns: int, others: str, nodes: int | None = None,
               digests: list[str] | None = None) -> list[dict[str, Any]]:
    """Per game and side: the planner's wall seconds per side-turn over ``seeds`` (whole games up
    to ``turns`` turns, the other side ``others``): ``{"game", "side", "turns", "median", "max",
    "over_10s", "cpu_median", "cpu_max"}`` (``turns`` counted, ``over_10s`` how many side-turns
    took more than 10 s of wall time; ``cpu_*`` the process's CPU seconds, which the machine's
    load does not inflate)."""
    rows = []
    for game_id, scenario in (("moscow41", "october-blitz"), ("battle_for_moscow", "campaign")):
        for side in ("german", "soviet"):
            found = []
            for seed in seeds:
                for r in bot_turns(game_id, scenario, side, turns, seed, nodes, others, digests):
                    found.append(r)
                    print(f"{game_id} {side} seed {seed} turn {r['turn']}: wall {r['seconds']:.2f} s, "
                          f"CPU {r['cpu']:.2f} s, {r['decisions']} decisions, {r['nodes']} nodes",
                          file=sys.stderr, flush=True)
            times = [r["seconds"] for r in found]
            cpu = [r["cpu"] for r in found]
            rows.append({"game": f"{game_id} {scenario}", "side": side, "turns": len(times),
                         "median": statistics.median(times), "max": max(times),
                         "over_10s": sum(t > 10 for t in times),
                         "cpu_median": statistics.median(cpu), "cpu_max": max(cpu)})
    return rows


def both_sides(seed: int) -> dict[str, Any]:
    """Planner against planner on ``seed`` in both games: ``{"seed", "load", "rows": [{"game", "side",
    "turn", "seconds", "cpu", "decisions", "nodes", "slow", "capped"}], "digests"}`` — each side's wall and
    CPU seconds per side-turn measured in the same game (half the games of :func:`side_turns`), the
    bots' slow decisions (over their ``seconds``) and work-capped searches (0 where the bot has no such
    count), the traces' SHA-256."""
    out: dict[str, Any] = {"seed": seed, "load": [os.getloadavg()[0]], "rows": [], "digests": []}
    for game_id, scenario in (("moscow41", "october-blitz"), ("battle_for_moscow", "campaign")):
        state = Game.load(game_id, scenario).new_initial_state(seed)
        bots = {s: PlannerBot(s, seed) for s in state.data.sides}
        rows: dict[tuple[str, int], dict[str, Any]] = {}
        while not state.is_terminal():
            who, turn = state.current_player(), state.data.turn
            t, c = time.perf_counter(), time.process_time()
            action = bots[who].choose(state)
            row = rows.setdefault((who, turn), {"game": f"{game_id} {scenario}", "side": who, "turn": turn,
                                                "seconds": 0.0, "cpu": 0.0, "decisions": 0, "nodes": 0})
            row["seconds"] += time.perf_counter() - t
            row["cpu"] += time.process_time() - c
            row["decisions"] += 1
            row["nodes"] += bots[who].last_nodes
            state.apply(action)
        for (who, _), row in rows.items():
            row["slow"], row["capped"] = getattr(bots[who], "slow", 0), getattr(bots[who], "capped", 0)
        out["rows"] += list(rows.values())
        out["digests"].append(f"{game_id}/{scenario}/{seed}: {len(state.trace)} events {_digest(state)}")
    out["load"].append(os.getloadavg()[0])
    return out


def summarize(paths: list[str]) -> None:
    """Print the side-turn table of :func:`both_sides` files (one per seed)."""
    found = [json.load(open(p, encoding="utf-8")) for p in paths]
    loads = [x for f in found for x in f["load"]]
    print(f"Load average {min(loads):.1f}–{max(loads):.1f} over the runs.\n")
    print("| game | planner side | side-turns | wall median | wall max | over 10 s | CPU median | CPU max "
          "| CPU total | nodes | slow decisions | work-capped |\n|---|---|---|---|---|---|---|---|---|---|---|---|")
    rows = [r for f in found for r in f["rows"]]
    for key in dict.fromkeys((r["game"], r["side"]) for r in rows):
        mine = [r for r in rows if (r["game"], r["side"]) == key]
        wall, cpu = [r["seconds"] for r in mine], [r["cpu"] for r in mine]
        slow = sum({(f["seed"], r["side"], r["game"]): r["slow"] for f in found for r in f["rows"]
                    if (r["game"], r["side"]) == key}.values())
        capped = sum({(f["seed"], r["side"], r["game"]): r["capped"] for f in found for r in f["rows"]
                      if (r["game"], r["side"]) == key}.values())
        print(f"| {key[0]} | {key[1]} | {len(mine)} | {_ms(statistics.median(wall))} | {_ms(max(wall))} "
              f"| {sum(w > 10 for w in wall)} | {_ms(statistics.median(cpu))} | {_ms(max(cpu))} | {sum(cpu):.2f} s "
              f"| {sum(r['nodes'] for r in mine)} | {slow} | {capped} |")
    print("\n" + "\n".join(d for f in found for d in f["digests"]))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--nodes", type=int, default=None)
    parser.add_argument("--side-turns", type=int, default=0, metavar="SEEDS",
                        help="only the side-turn summary: whole games of seeds 1..SEEDS per game and side")
    parser.add_argument("--against", default="greedy", choices=("greedy", "planner"),
                        help="the other side's bot for --side-turns")
    parser.add_argument("--digest", metavar="FILE",
                        help="with --side-turns: write each game's SHA-256 of its trace to FILE (compare before/after)")
    parser.add_argument("--both-sides", type=int, default=0, metavar="SEED",
                        help="planner against planner on SEED: both sides' side-turns, as JSON to --out")
    parser.add_argument("--out", metavar="FILE", help="with --both-sides: the JSON file")
    parser.add_argument("--summarize", nargs="+", metavar="FILE", help="the table of --both-sides files")
    args = parser.parse_args(argv)
    tune_gc()
    if args.summarize:
        summarize(args.summarize)
        return
    if args.both_sides:
        with open(args.out or f"both-sides-{args.both_sides}.json", "w", encoding="utf-8") as f:
            json.dump(both_sides(args.both_sides), f, indent=1)
        return
    print(f"Machine: {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f} at the start.\n")
    if args.side_turns:
        print(f"| game | planner side (other: {args.against}) | side-turns | wall median | wall max "
              "| over 10 s | CPU median | CPU max |\n|---|---|---|---|---|---|---|---|")
        digests: list[str] = []
        for r in side_turns(list(range(1, args.side_turns + 1)), 99, args.against, args.nodes, digests):
            print(f"| {r['game']} | {r['side']} | {r['turns']} | {_ms(r['median'])} | {_ms(r['max'])} "
                  f"| {r['over_10s']} | {_ms(r['cpu_median'])} | {_ms(r['cpu_max'])} |")
        print(f"\nLoad average {os.getloadavg()[0]:.1f} at the end.")
        if args.digest:
            with open(args.digest, "w", encoding="utf-8") as f:
                f.write("\n".join(digests) + "\n")
        return
    print("| figure | value |\n|---|---|")
    for name, value in api_costs(args.seed).items():
        label = {"clone": "State.clone()", "peek": "State.peek(action)",
                 "apply": "State.apply + legal_actions", "evaluate": "one plan evaluation (3 stacks)"}[name]
        print(f"| {label}, October Blitz German turn 1 (median) | {_ms(value)} |")
    for game_id, scenario in (("moscow41", "october-blitz"), ("battle_for_moscow", "campaign")):
        for side in ("german", "soviet"):
            for row in bot_turns(game_id, scenario, side, args.turns, args.seed, args.nodes):
                print(f"| {game_id} {scenario}, {side} planner turn {row['turn']} "
                      f"({row['decisions']} decisions, {row['nodes']} nodes) | {_ms(row['seconds'])} |")


if __name__ == "__main__":
    main()
