"""Unopposed reach of the October Blitz's Germans to the five towns of 18.1.3A (session 12, issue #16).

    python benchmarks/balance/s12/reach.py [--pack PACK] [--weather dry,dry,mud,mud ...] [--unit ID ...]

Loads the scenario's start (Turn 1, the Game API as ``casebook batch`` does), removes every Soviet
unit from the map, and for each German combat unit (17.1, 11.3D: not an HQ, not a remnant) finds the
fewest turns to end a move in each town — by the movement plugin's own search
(``plugins/_movement_paths.reach``: the TEC costs of ``areas/terrain_costs``, roads, 9.2C's
first hex for all MPs) with the MA of ``movement_allowance`` (9.1A, Mud/Drying halved 4.3D/3.1B).

Per turn a unit makes one activated move (9.4A, 9.1D) and, in the ``+fm`` mode, a force march right
after it (9.6A: a second allotment equal to the first, not after spending all MPs, 9.2C); the
``+react`` mode adds the Soviet phase's reaction movement (0.7.3.4A, 9.7: half the MA, no force march).
Rail: none (9.9A: only the Soviets move by rail). Every unit is assumed activated every turn and in
supply (5.7B not applied): an upper bound on what the Germans can reach; stacking (6.0) and the fatigue
roll of a force march (9.6C) are ignored. A town is "taken" when a German unit can end a move in it
(1.1B: the last to occupy a town controls it; with no Soviet unit nothing takes it back).

Search: turn by turn from the hexes reachable by the end of the previous turn, only from the new ones
when the turn's MA is not larger than the previous turn's (a reach with fewer MPs is a subset).
"""

from __future__ import annotations

import argparse
import itertools
import time
from dataclasses import replace
from typing import Any

from casebook.areas.terrain_costs import zoc_treatment
from casebook.core.hexgrid import distance, parse_hex
from casebook.games.moscow41.plugins._movement_costs import move_class, movement_allowance
from casebook.games.moscow41.plugins._movement_paths import Mover, reach
from casebook.tools.batch import load_game

NON_COMBAT = ("hq", "remnant")  # 17.1, 11.3D
MODES = ("ma", "ma+fm", "ma+fm+react")
NO_TOWN = 99


def empty_start(pack: str, scenario: str = "october-blitz", clear: str | None = "soviet") -> tuple[Any, Any, dict[str, str]]:
    """The scenario's start with no unit of side ``clear`` on the map (None: every unit kept, so
    their ZOCs and hexes bar the way): (game, state data, town name -> hex)."""
    game = load_game(pack, scenario)
    state = game.new_initial_state(1)
    data = state.data
    for u in list(data.units):
        if u.get("side") == clear and u.get("hex"):
            data.remove_unit(u["id"], "reach study: an empty map")
    victory = game.engine.pack.scenario(game.scenario).scenario.victory
    cond = [c for c in victory["german"] if c["kind"] == "control_count"][0]  # 18.1.3A
    return game, data, dict(zip(cond["names"], cond["hexes"]))


class Reacher:
    """The movement plugin's reach, memoised by (TEC rows, MPs, start hex) for one ground."""

    def __init__(self, game: Any, data: Any) -> None:
        self.game, self.data = game, data
        self.memo: dict[tuple[Any, ...], tuple[frozenset[str], frozenset[str]]] = {}
        self.searches = 0

    def ctx(self, ground: str) -> Any:
        self.data.set_weather(ground=ground)
        return self.game.engine.ctx(self.data)

    def budget(self, ctx: Any, uid: str, mode: str) -> int:
        return int(movement_allowance(ctx, [uid], mode, supplied={uid: True})["ma"])

    def hexes(self, ctx: Any, ground: str, m: Any, start: str, budget: int,
              at_start: bool = True) -> tuple[frozenset[str], frozenset[str]]:
        """(every hex a move can end in, those it may go on from by a force march: not entered by
        spending all MPs, 9.2C, nor stopped in a locking EZOC, 7.2) from ``start``."""
        key = (ground, m.side, m.classes, budget, start, at_start)
        found = self.memo.get(key)
        if found is None:
            self.searches += 1
            r = reach(ctx, replace(m, start=start, budget=budget, fresh=True, at_start=at_start))
            found = self.memo[key] = (frozenset(r) | {start}, frozenset(h for h, v in r.items() if not v["stop"]))
        return found


def unit_reach(rc: Reacher, unit: dict[str, Any], grounds: list[str], mode: str) -> list[frozenset[str]]:
    """The hexes the unit can stand in by the end of each turn (index 0: Turn 1)."""
    state: Any = None
    out = []
    for ground in grounds:
        state = turn_step(rc, unit, state, ground, mode)
        out.append(state[0])
    return out


def turn_step(rc: Reacher, unit: dict[str, Any], state: Any, ground: str, mode: str) -> Any:
    """One turn of movement on ``ground`` from ``state`` = (hexes the unit can stand in, those new last
    turn, last turn's MA) or None at the start; returns the next state."""
    have, new, last_budget = state or (frozenset({unit["hex"]}), frozenset({unit["hex"]}), None)
    ctx = rc.ctx(ground)
    classes = frozenset({move_class(ctx, unit)})
    m = Mover((unit["id"],), unit["side"], unit["hex"], classes, zoc_treatment(ctx, classes), 0)
    b = rc.budget(ctx, unit["id"], "stack")
    starts = new if last_budget is not None and b <= last_budget else have
    got: set[str] = set(have)
    march: set[str] = set()
    for h in starts:
        ends, go_on = rc.hexes(ctx, ground, m, h, b)
        got |= ends
        march |= go_on
    if mode != "ma":  # 9.6A: a second allotment equal to the first, 9.2C: not after spending all
        for x in march:
            got |= rc.hexes(ctx, ground, m, x, b, at_start=False)[0]
    if mode == "ma+fm+react":  # 0.7.3.4A, 9.7: the reaction move in the Soviet phase, half the MA
        rb = rc.budget(ctx, unit["id"], "reaction")
        for h in list(got):
            got |= rc.hexes(ctx, ground, m, h, rb)[0]
    return frozenset(got), frozenset(got) - have, b


def first_turn(per_turn: list[frozenset[str]], hex_: str) -> int:
    return next((t + 1 for t, s in enumerate(per_turn) if hex_ in s), NO_TOWN)


def three_towns(turns: dict[str, dict[str, int]], towns: dict[str, str], last: int) -> tuple[int, int]:
    """Earliest turn three towns are taken (any units, 1.1B control by passage) and held by three
    distinct units standing in them (a matching), or NO_TOWN."""
    anyone, distinct = NO_TOWN, NO_TOWN
    for n in range(1, last + 1):
        ok = [t for t in towns if any(v[t] <= n for v in turns.values())]
        if anyone == NO_TOWN and len(ok) >= 3:
            anyone = n
        for trio in itertools.combinations(towns, 3):
            if distinct == NO_TOWN and any(
                    len(set(p)) == 3 for p in itertools.product(
                        *[[u for u, v in turns.items() if v[t] <= n] for t in trio])):
                distinct = n
    return anyone, distinct


def towns_reached(rc: Reacher, units: list[dict[str, Any]], towns: dict[str, str], grounds: list[str], mode: str,
                  layout: Any) -> tuple[dict[str, dict[str, int]], dict[str, int]]:
    """Unit id -> town -> the first turn it reaches the town (:func:`first_turn`), and town -> the
    fewest hexes any unit ends short of it after the last turn (``NO_TOWN`` without units)."""
    turns: dict[str, dict[str, int]] = {}
    short = dict.fromkeys(towns, NO_TOWN)
    for u in units:
        per = unit_reach(rc, u, grounds, mode)
        turns[u["id"]] = {n: first_turn(per, h) for n, h in towns.items()}
        for n, h in towns.items():
            short[n] = min(short[n], min(distance(parse_hex(x), parse_hex(h), layout) for x in per[-1]))
    return turns, short


def show(n: int) -> str:
    return "-" if n == NO_TOWN else str(n)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pack", default="moscow41")
    ap.add_argument("--weather", nargs="+", default=["dry,dry,mud,mud", "dry,dry,dry,dry"])
    ap.add_argument("--modes", nargs="+", default=list(MODES))
    ap.add_argument("--units", default="all", help="all, or 'fast' (MA above the infantry's)")
    a = ap.parse_args()
    start = time.process_time()
    game, data, towns = empty_start(a.pack)
    layout = game.engine.ctx(data).board.grid.layout
    units = [dict(u) for u in data.units
             if u.get("side") == "german" and u.get("hex") and u.get("class") not in NON_COMBAT]
    rc = Reacher(game, data)
    print(f"pack {a.pack}: {len(units)} German combat units at the Blitz start; towns of 18.1.3A "
          + ", ".join(f"{n} {h}" for n, h in towns.items()))
    near = {n: min(distance(parse_hex(u["hex"]), parse_hex(h), layout) for u in units) for n, h in towns.items()}
    print("hexes from the nearest German combat unit at the start: " + ", ".join(f"{n} {d}" for n, d in near.items()))
    print("Mud's MA: " + ", ".join(sorted({f"{u['class']} {u['ma']} -> "
                                           f"{rc.budget(rc.ctx('mud'), u['id'], 'stack')}" for u in units})))
    for weather in a.weather:
        grounds = weather.split(",")
        for mode in a.modes:
            turns, short = towns_reached(rc, units, towns, grounds, mode, layout)
            anyone, distinct = three_towns(turns, towns, len(grounds))
            print(f"\n== ground {weather} (Turns 1-{len(grounds)}), moves: {mode}")
            print("fewest turns to each town, best unit (and how many units can by Turn 4):")
            for n in towns:
                best = min(v[n] for v in turns.values())
                who = sorted(u for u, v in turns.items() if v[n] == best)
                by4 = sum(1 for v in turns.values() if v[n] <= len(grounds))
                first = f"; first: {', '.join(who[:4])}{' …' if len(who) > 4 else ''}" if best != NO_TOWN else ""
                print(f"  {n:16s} {show(best):>2s}  ({by4} units by Turn {len(grounds)}{first})")
            print(f"three towns taken by Turn: {show(anyone)} (any units, control by passage, 1.1B); "
                  f"held by three units standing in them: {show(distinct)}")
            print(f"hexes short of each town at the end of Turn {len(grounds)}: " + ", ".join(
                f"{n} {d}" for n, d in short.items()) + f"; the third town: {sorted(short.values())[2]}")
            by_class: dict[str, list[int]] = {}
            for u in units:
                v = turns[u["id"]]
                k = f"{u['class']} MA {u['ma']}"
                by_class.setdefault(k, []).append(sorted(v.values())[2])
            print("turns to a unit's own third-nearest town (median / best), by class: " + "; ".join(
                f"{k} ({len(v)}): {show(sorted(v)[len(v) // 2])} / {show(min(v))}" for k, v in sorted(by_class.items())))
    print(f"\n{rc.searches} reach searches, {time.process_time() - start:.1f} s CPU")


if __name__ == "__main__":
    main()
