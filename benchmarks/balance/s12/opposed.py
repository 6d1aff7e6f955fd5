"""The October Blitz's five towns against the Soviet setup (session 12, issue #16).

    python benchmarks/balance/s12/opposed.py [--pack PACK] [--weather dry,dry,mud,mud ...]

1. At the start: the nearest German and Soviet combat units to each town of 18.1.3A (hexes), the Soviet
   combat strength within 12 / 15 / 18 hexes, the town's kind.
2. The Soviet reinforcements of Turns 1-4 (the pack's schedule; 12.1C: with no area they arrive at any
   friendly railhead that traces supply — the five towns are railheads) and the rail capacity (9.9A).
3. A race with both setups standing and no combat: the fewest turns for a German combat unit to end a
   move in each town with every Soviet unit in place (their hexes barred, 9.0A; their ZOCs, 7.2-7.3),
   and for a Soviet combat unit with every German unit in place (on foot; rail not searched). The
   movement plugin's reach, as reach.py (activated every turn, in supply, force march allowed).
4. The engine's ``attack`` answer (the same code play resolves an attack with: odds column, DRM terms,
   every outcome) for a panzer division's three regiments attacking one rifle division standing in
   each town with every other Soviet unit gone (the line broken, so the attackers trace supply), fresh and
   with a 1-Loss marker (11.3C; one column right, 10.3B), and the attack strength
   of the German units that could stand next to the town by Turn N unopposed (reach.py's sets).
"""

from __future__ import annotations

import argparse
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reach import NO_TOWN, NON_COMBAT, Reacher, empty_start, first_turn, show, unit_reach  # noqa: E402

from casebook.core.hexgrid import distance, parse_hex  # noqa: E402

PANZER = ["g-11pz-15", "g-11pz-110", "g-11pz-111"]  # the 11th Panzer Division's three regiments
RIFLE = "s-303rd"  # a rifle division (12.3B: strength 6), fresh at the start


def combat(data: Any) -> list[dict[str, Any]]:
    return [dict(u) for u in data.units if u.get("hex") and u.get("class") not in NON_COMBAT]


def start_table(game: Any, data: Any, towns: dict[str, str]) -> None:
    ctx = game.engine.ctx(data)
    layout = ctx.board.grid.layout
    units = combat(data)
    print("1. At the start (hexes; Soviet combat strength printed, within 12 / 15 / 18 hexes):")
    for n, h in towns.items():
        d = {u["id"]: distance(parse_hex(u["hex"]), parse_hex(h), layout) for u in units}
        near = {s: min(d[u["id"]] for u in units if u["side"] == s) for s in ("german", "soviet")}
        band = [sum(u["strength"] for u in units if u["side"] == "soviet" and d[u["id"]] <= r) for r in (12, 15, 18)]
        kind = ctx.board.node(parse_hex(h))["town"].get("kind")
        print(f"  {n:16s} {h} ({kind}): nearest German {near['german']}, nearest Soviet {near['soviet']}; "
              f"Soviet strength {band[0]} / {band[1]} / {band[2]}; Soviet units in the town or next to it: "
              f"{sum(1 for u in units if u['side'] == 'soviet' and d[u['id']] <= 1)}")


def reinforcements(game: Any, data: Any, last: int) -> None:
    pack = game.engine.pack
    rows = [r for r in pack.records["reinforcements"] if r["side"] == "soviet" and r["turn"] <= last]
    counters = pack.counters
    print(f"\n2. Soviet reinforcements of Turns 1-{last} (tables/reinforcements.yaml; no area: any friendly "
          "railhead that traces supply, 12.1C):")
    for r in rows:
        c = counters.get(r["unit"], {})
        print(f"  Turn {r['turn']}: {r['unit']} ({c.get('class')}, strength {c.get('strength')}, MA {c.get('ma')})"
              f"{' area ' + r['area'] if r.get('area') else ''}")
    ctx = game.engine.ctx(data)
    print("  rail capacity a turn (9.9A, units): " + ", ".join(
        f"{g} {ctx.value('rail_capacity', {'ground': g})}" for g in ("dry", "mud", "snow")))


def race(pack: str, towns: dict[str, str], weathers: list[str]) -> None:
    print("\n3. The race with both setups standing, no combat (fewest turns to end a move in the town; "
          "activated every turn, force march allowed, 9.6A):")
    game, data, _ = empty_start(pack, clear=None)
    rc = Reacher(game, data)
    units = combat(data)
    for weather in weathers:
        grounds = weather.split(",")
        best: dict[str, dict[str, int]] = {"german": {}, "soviet": {}}
        for u in units:
            per = unit_reach(rc, u, grounds, "ma+fm")
            for n, h in towns.items():
                t = first_turn(per, h)
                best[u["side"]][n] = min(best[u["side"]].get(n, NO_TOWN), t)
        print(f"  ground {weather}: " + "; ".join(
            f"{n} German {show(best['german'][n])} / Soviet {show(best['soviet'][n])}" for n in towns))
    print(f"  ({rc.searches} reach searches)")


def attacks(pack: str, towns: dict[str, str], weather: str, strength: bool = True) -> None:
    print("\n4. The engine's attack answer: the 11th Panzer's three regiments (one adjacent hex) on a rifle "
          "division alone in the town (every other Soviet unit gone; ground dry):")
    for worn in (False, True):
        for n, h in towns.items():
            game, data, _ = empty_start(pack, clear=None)
            for u in combat(data) + [dict(u) for u in data.units if u.get("class") == "hq"]:
                if u["side"] == "soviet" and u["id"] != RIFLE:  # the line broken: the town's garrison alone
                    data.remove_unit(u["id"], "attack study")
            data.move_unit(RIFLE, h)
            if worn:
                data.update_unit(RIFLE, losses=1)
            ctx = game.engine.ctx(data)
            layout = ctx.board.grid.layout
            west = min(ctx.board.label_neighbours(h), key=lambda x: min(
                distance(parse_hex(x), parse_hex(u["hex"]), layout) for u in combat(data) if u["side"] == "german"))
            for u in PANZER:
                data.move_unit(u, west)
            ctx = game.engine.ctx(data)
            a = ctx.hook.casebook_answer(ctx=ctx, question="attack", args=[h], options={"with": PANZER})
            p = {k: sum((Fraction(o["probability"]) for o in a["outcomes"] if k(o["result"].split("/")[1])),
                        Fraction(0)) for k in (_two_plus, _retreat_only)}
            terms = ", ".join(f"{t['case']} {t['value']:+d}" for t in a["drm"]["terms"])
            print(f"  {n:16s} {'worn ' if worn else 'fresh'} {a['attack_strength']}:{a['defense_strength']} "
                  f"-> column {a['column']} (basic {a['basic_column']}), DRM {a['drm']['net']:+d} [{terms}]; "
                  f"defender result 2+ (two hexes or two losses, 11.0B): {float(p[_two_plus]):.2f}; "
                  f"R/FR only (one hex back, 11.2): {float(p[_retreat_only]):.2f}")
    if not strength:
        return
    game, data, _ = empty_start(pack)
    ctx = game.engine.ctx(data)
    rc = Reacher(game, data)
    grounds = weather.split(",")
    print(f"\n  German attack strength that could stand next to each town by Turn N, unopposed, ground {weather} "
          "(printed strengths, stacking ignored):")
    per = {u["id"]: (u, unit_reach(rc, u, grounds, "ma+fm")) for u in combat(data) if u["side"] == "german"}
    for n, h in towns.items():
        ring = set(ctx.board.label_neighbours(h))
        row = [sum(u["strength"] for u, sets in per.values() if ring & sets[t]) for t in range(len(grounds))]
        print(f"  {n:16s} " + ", ".join(f"Turn {t + 1}: {s}" for t, s in enumerate(row)))


def _two_plus(d: str) -> bool:
    return any(c.isdigit() and int(c) >= 2 for c in d)


def _retreat_only(d: str) -> bool:
    return d in ("R", "FR")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pack", default="moscow41")
    ap.add_argument("--weather", nargs="+", default=["dry,dry,mud,mud", "dry,dry,dry,dry"])
    a = ap.parse_args()
    start = time.process_time()
    game, data, towns = empty_start(a.pack, clear=None)
    start_table(game, data, towns)
    reinforcements(game, data, len(a.weather[0].split(",")))
    race(a.pack, towns, a.weather)
    attacks(a.pack, towns, a.weather[0])
    print(f"\n{time.process_time() - start:.1f} s CPU")


if __name__ == "__main__":
    main()
