"""Session 20 (relief20): the October Blitz rows of this directory's records against main's of the same seeds.

    python benchmarks/balance/s20-relief/rows.py

Per seed: winner, level, turn, whether Smolensk fell (18.1.3D), for the branch (``pp-*.json``, ``lost-pp-*.json``;
``pg-1-10.json``) and main (``s19-final/blitz-pp.json``, ``blitz-pp-noarm.json``, ``blitz-pg.json``).
"""
from __future__ import annotations

import glob
import json
from pathlib import Path

HERE = Path(__file__).parent
FINAL = HERE.parent / "s19-final"


def records(paths: list[Path]) -> dict[int, dict]:
    out: dict[int, dict] = {}
    for p in paths:
        for arm in json.loads(p.read_text())["arms"]:
            for r in arm["records"]:
                out[r["seed"]] = r
    return out


def tag(r: dict | None) -> str:
    if r is None:
        return "-"
    smol = "SMOLENSK" if "entered Smolensk" in (r.get("reason") or "") else ""
    return f"{r['winner'][:3]} {r['level'][:4]} T{r['turns']} {smol}".strip()


def row(name: str, mine: dict[int, dict], others: dict[str, dict[int, dict]]) -> None:
    seeds = sorted(mine)
    print(f"== {name}: seeds {seeds[0]}-{seeds[-1]} ({len(seeds)} games)")
    print(f"{'seed':>4}  {'relief20':<22}" + "".join(f"{k:<22}" for k in others))
    for s in seeds:
        print(f"{s:>4}  {tag(mine[s]):<22}" + "".join(f"{tag(o.get(s)):<22}" for o in others.values()))
    for k, rs in {"relief20": mine, **others}.items():
        got = [rs[s] for s in seeds if s in rs]
        ger = sum(r["winner"] == "german" for r in got)
        smol = sum("entered Smolensk" in (r.get("reason") or "") for r in got)
        print(f"  {k}: German {ger}/{len(got)}, Smolensk lost {smol}/{len(got)}")


pp = records(sorted(Path(p) for p in glob.glob(str(HERE / "pp-from*.json")) + glob.glob(str(HERE / "lost-pp-*.json"))))
if pp:
    row("planner vs planner", pp, {"main": records([FINAL / "blitz-pp.json"]),
                                   "main-noarm": records([FINAL / "blitz-pp-noarm.json"])})
if (HERE / "pg-1-10.json").exists():
    main_pg = records([FINAL / "blitz-pg.json"])
    row("German planner vs greedy", records([HERE / "pg-1-10.json"]), {"main": {s: main_pg[s] for s in range(1, 11)}})
