"""Session 19: read batch timelines against October 1941 (BALANCE.md, "Session 19: does it look
like October 1941?").

    python benchmarks/balance/s19-history/read_history.py FILE.json [FILE.json ...]

For each `casebook batch --json` file: per place, the turn history took it (the reference timeline,
/work/shared/reference/moscow41-oob.md "Timeline", put on the Turn Track's dates,
games/moscow41/tables/turn_track.yaml: Turn 1 = 2-5 Oct, 2 = 6-9, 3 = 10-13, 4 = 14-17, 5 = 18-21,
7 = 26-29 Oct), the games where the Germans held it at some turn's end by Turn 4 and the median
first such turn; the Soviet units eliminated by Turn 4, and how many of them belong to the 19th,
20th, 24th and 32nd Armies (the Vyazma pocket), whose on-map units are listed below from the
October Blitz setup (games/moscow41/scenarios/october-blitz.yaml) grouped as the reference's
order of battle groups them.
"""

from __future__ import annotations

import json
import sys
from statistics import median

#: place hex -> (name, history's turn or None: not taken in October-November, or a note)
HISTORY = {
    "1722": ("Vyazma", "2 (pocket closes ~7 Oct)"),
    "0833": ("Kaluga", "3 (12-13 Oct)"),
    "3733": ("Kalinin", "4 (14 Oct)"),
    "2032": ("Mozhaisk", "5 (18 Oct)"),
    "1435": ("Maloyaroslavets", "5 (18 Oct)"),
    "2733": ("Volokolamsk", "7 (27 Oct)"),
    "0342": ("Tula", "never (holds)"),
    "2242": ("Moscow", "never"),
    "1308": ("Smolensk", "German at the setup; no Soviet retaking in the reference timeline"),
}

#: The Vyazma pocket's armies: their units in the October Blitz setup (reference OOB grouping).
ARMIES = {
    "19th": ["s-50rd", "s-89rd", "s-91rd", "s-166rd", "s-244rd", "s-19a"],
    "20th": ["s-73rd", "s-129rd", "s-144rd", "s-229rd", "s-20a"],
    "24th": ["s-19rd", "s-103rd", "s-106rd", "s-139rd", "s-170rd", "s-309rd", "s-144tb", "s-146tb", "s-24a"],
    # the reference lists militia 2, 8, 29, 140, 18; the setup stacks 13 Mil in the same line
    "32nd": ["s-2mil", "s-8mil", "s-13mil", "s-18mil", "s-29mil", "s-140mil", "s-32a"],
}


def _sides() -> dict[str, tuple[str, int, str]]:
    """Counter id -> (side, strength), from the pack: records written before the timeline looked
    counters up give a unit that entered and fell between two snapshots the side ``?``."""
    from casebook.tools.batch import load_game

    counters = load_game("moscow41", "october-blitz").engine.pack.counters  # errata's counters too
    return {uid: (str(u.get("side")), int(u.get("strength") or 0), str(u.get("class"))) for uid, u in counters.items()}


def _lost(snaps: list[dict], side: str, sides: dict[str, tuple[str, int, str]]) -> list[str]:
    """The ids of ``side``'s units eliminated in ``snaps`` (the ``?`` ones resolved)."""
    ids = [u for t in snaps for u in t["eliminated_ids"].get(side, [])]
    return ids + [u for t in snaps for u in t["eliminated_ids"].get("?", []) if sides.get(u, ("?",))[0] == side]


def _upto(timeline: dict, turn: int) -> list[dict]:
    return [t for t in timeline["turns"] if t["turn"] <= turn]


def read(path: str, by: int = 4) -> None:
    doc = json.load(open(path, encoding="utf-8"))
    records = [r for arm in doc["arms"] for r in arm["records"] if not r.get("error") and r.get("timeline")]
    print(f"## {path}: {len(records)} games ({doc['title']})")
    print("| place | history's turn | start | taken from its first holder by Turn 4 (games) | median turn "
          "first taken | German at Turn 4's end |")
    print("|---|---|---|---|---|---|")
    names = {p["hex"]: p["name"] for p in records[0]["timeline"]["places"]}
    groups: dict[str, list[str]] = {}
    for h in list(HISTORY) + sorted(set(names) - set(HISTORY)):
        if h in names:
            groups.setdefault(names[h], []).append(h)
    for name, hexes in groups.items():
        start = records[0]["timeline"]["start"]["control"].get(hexes[0])
        firsts, end = [], 0
        for r in records:
            snaps = _upto(r["timeline"], by)
            # taken: any of the place's hexes under another side than at the start
            taken = [t["turn"] for t in snaps if any(t["control"].get(h) != start for h in hexes)]
            if taken:
                firsts.append(taken[0])
            end += bool(snaps) and any(snaps[-1]["control"].get(h) == "german" for h in hexes)
        hist = HISTORY.get(hexes[0], (name, "-"))[1]
        label = f"{name} {hexes[0]}" if len(hexes) == 1 else f"{name} ({len(hexes)} hexes)"
        med = f"{median(firsts):g}" if firsts else "-"
        print(f"| {label} | {hist} | {start} | {len(firsts)}/{len(records)} | {med} | {end}/{len(records)} |")
    sides = _sides()
    lost, pocket, broken, sp, german, oos, rems = [], [], [], [], [], [], []
    per_army: dict[str, list[int]] = {a: [] for a in ARMIES}
    for r in records:
        snaps = _upto(r["timeline"], by)
        ids = _lost(snaps, "soviet", sides)
        gone = ids + [u for t in snaps for u in t.get("removed_ids", {}).get("rebuilding", [])]
        lost.append(len(ids))
        rems.append(sum(sides.get(u, ("?", 0, ""))[2] == "remnant" for u in ids))
        sp.append(sum(sides.get(u, ("?", 0, ""))[1] for u in ids))
        pocket.append(sum(u in ids for units in ARMIES.values() for u in units))
        broken.append(sum(u in gone for units in ARMIES.values() for u in units))
        for army, units in ARMIES.items():
            per_army[army].append(sum(u in ids for u in units))
        german.append(len(_lost(snaps, "german", sides)))
        oos.append(snaps[-1]["oos"].get("soviet", 0) if snaps else 0)
    total = sum(len(u) for u in ARMIES.values())
    print(f"\nSoviet units eliminated by Turn {by}: median {median(lost):g} (min {min(lost)}, max {max(lost)}); "
          f"their printed strength points median {median(sp):g}; of them remnants (11.3D): median {median(rems):g}")
    print(f"of the 19th/20th/24th/32nd Armies' {total} on-map units, eliminated: median {median(pocket):g} "
          f"(min {min(pocket)}, max {max(pocket)}); per army (median of its units): "
          + ", ".join(f"{a} {median(v):g}/{len(ARMIES[a])}" for a, v in per_army.items()))
    if any("removed_ids" in t for r in records for t in r["timeline"]["turns"]):
        print(f"  eliminated or broken down into a remnant: median {median(broken):g} (min {min(broken)}, max {max(broken)})")
    print(f"German units eliminated by Turn {by}: median {median(german):g}; Soviet units out of supply at "
          f"Turn {by}'s end: median {median(oos):g} (min {min(oos)}, max {max(oos)})")
    wins = {}
    for r in records:
        key = f"{r['winner']} {r['level']}"
        wins[key] = wins.get(key, 0) + 1
    print(f"outcomes: {wins}\n")


if __name__ == "__main__":
    for p in sys.argv[1:]:
        read(p)
