"""Translate Moscow '41 hex ids of the affine map (sessions 5-7) to the similarity map (#16, session 8).

The shipped map moved from the affine fit to the similarity fit (docs/moscow41-pack.md, "Road
lengths"); every town west of the five printed ones moved, and the setup with them. A test or a doc
written against the old map names old hex ids; this script gives each old id its new one and why:

  town     the old hex holds a town: the new hex of the same town (a Moscow hex: the new hex of the
           same point of geography.yaml's moscow.points; the first is the Kremlin, the hub)
  setup    units stand there in the old setup (campaign / october-blitz): the new hex of those units
           (``split`` when they went to different hexes: all are listed, pick by the unit you need)
  printed  a hex the rulebook prints for the setup (geography.yaml's grid.must_include: 3111 of the
           252 RD, errata 0.2.3.3A): the same id
  ground   anything else: the old hex centre carried to the ground (the old fit inverted) and to the
           new map (the new fit); ``off`` when that lies off the new map

The printed hexes of 18.1.3A (Kalinin 3733, Volokolamsk 2733, Mozhaisk 2032, Maloyaroslavets 1435,
Kaluga 0833) are towns on both maps and keep their ids.

Usage (from the checkout, with the project's venv):

  .venv/bin/python benchmarks/balance/s8/hexmap.py 1303 1720 2244      # old ids -> new ids, why
  .venv/bin/python benchmarks/balance/s8/hexmap.py --unit g-403id      # a unit's old and new setup hex
  .venv/bin/python benchmarks/balance/s8/hexmap.py --scan tests/x.py   # every quoted 4-digit id in a file
  .venv/bin/python benchmarks/balance/s8/hexmap.py --towns F...  # rewrite quoted old town ids in files
  .venv/bin/python benchmarks/balance/s8/hexmap.py --ids 1208,1109 --rewrite F...  # these ids, anywhere
  .venv/bin/python benchmarks/balance/s8/hexmap.py --build             # rebuild hexmap.json (needs git)

The table ``hexmap.json`` beside this script is built from git: the old sources, map and setups at
commit fb40f14 (the last with the affine map shipped) and the new ones in the working tree.
A position that carries its own ``map:`` (docs/examples/*.yaml but income-turn13 and weather-mud,
most rule tests' hand-built positions) is not on the Moscow map: its ids need no translation; nor do
ids that still mean the same place (the five printed towns and the hexes around them). Check a
rewritten file's diff: an id that was a town may stand for a plain hex there.
A ground translation keeps the place, not the situation: a test that needs "a hex next to the
front" or "a clear hex two hexes from X" must still be checked on the new map.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PACK = ROOT / "games" / "moscow41"
TABLE = Path(__file__).with_name("hexmap.json")
OLD = "fb40f14"
FILES = ("gazetteer.yaml", "geography.yaml", "map.yaml", "scenarios/campaign.yaml",
         "scenarios/october-blitz.yaml")


def _old_pack(tmp: Path) -> Path:
    for rel in FILES:
        text = subprocess.run(["git", "show", f"{OLD}:games/moscow41/{rel}"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout
        (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp / rel).write_text(text, encoding="utf-8")
    return tmp


def _units(pack: Path) -> dict[str, dict[str, str]]:
    import yaml
    out: dict[str, dict[str, str]] = {}
    for name in ("campaign", "october-blitz"):
        data = yaml.safe_load((pack / "scenarios" / f"{name}.yaml").read_text(encoding="utf-8"))
        out[name] = {u["counter"]: str(u["hex"]) for u in data.get("units") or [] if u.get("hex")}
    return out


def build() -> dict:
    import yaml

    from casebook.tools import sheet
    from casebook.tools.cmd_mapfit import generate
    from casebook.tools.mapfit import hex_at

    def lab(h) -> str:
        return f"{h.col:02d}{h.row:02d}"

    with tempfile.TemporaryDirectory() as d:
        old_pack = _old_pack(Path(d))
        old = generate(old_pack)
        old_map = yaml.safe_load((old_pack / "map.yaml").read_text(encoding="utf-8"))
        old_units = _units(old_pack)
    new = generate(PACK)
    new_map = yaml.safe_load((PACK / "map.yaml").read_text(encoding="utf-8"))
    new_units = _units(PACK)
    a = old.affine
    det = a.ax[0] * a.ay[1] - a.ax[1] * a.ay[0]

    def ground(h) -> tuple[float, float]:
        x, y = sheet.center(old.grid, h, 1.0)
        x, y = x - a.ax[2], y - a.ay[2]
        u = (a.ay[1] * x - a.ax[1] * y) / det
        v = (-a.ay[0] * x + a.ax[0] * y) / det
        if a.origin is None:                       # project(): (lat, lon * cos(lat))
            return u, v / math.cos(math.radians(u))
        return u, a.origin[1] + v / math.cos(math.radians(a.origin[0]))

    new_town = {t["name"]: h for h, t in new_map["towns"].items()} if isinstance(new_map["towns"], dict) else {}
    geo = yaml.safe_load((PACK / "geography.yaml").read_text(encoding="utf-8"))
    printed = {m["hex"]: m.get("provenance", "") for m in geo["grid"].get("must_include") or []}
    table: dict[str, dict] = {}
    for h in old.grid.hexes():
        label = lab(h)
        lat, lon = ground(h)
        x, y = new.affine.apply(lat, lon)
        g = hex_at(new.grid, x, y)
        entry: dict = {"new": lab(g) if new.grid.contains(g) else None, "why": "ground" if new.grid.contains(g)
                       else "off", "lat": round(lat, 3), "lon": round(lon, 3)}
        town = old_map["towns"].get(label)
        if town:
            name = town["name"]
            if label in old_map["moscow"]:              # the same point of geography.yaml's moscow.points
                entry.update(new=new_map["moscow"][old_map["moscow"].index(label)], why="town", town=name)
            elif name in new_town:
                entry.update(new=new_town[name], why="town", town=name)
        else:
            moved: dict[str, list[str]] = {}
            for scen, units in old_units.items():
                for counter, at in units.items():
                    if at == label and counter in new_units[scen]:
                        moved.setdefault(new_units[scen][counter], []).append(counter)
            if moved:
                hexes = sorted(moved)
                entry.update(new=hexes[0], why="setup" if len(hexes) == 1 else "split",
                             units={k: sorted(set(v)) for k, v in moved.items()})
        if label in printed:                            # a hex the rulebook prints: the same id on both maps
            entry.update(new=label, why="printed", case=printed[label])
        table[label] = entry
    units = {scen: {c: [at, new_units[scen].get(c)] for c, at in us.items()} for scen, us in old_units.items()}
    return {"old": OLD, "hexes": table, "units": units}


def _dump(table: dict) -> str:
    """JSON with one line per hex and per unit (diffable, a tenth of an indented dump)."""
    parts = [f'{{"old": {json.dumps(table["old"])},\n "hexes": {{']
    parts.append(",\n".join(f"  {json.dumps(h)}: {json.dumps(e, sort_keys=True)}" for h, e in sorted(table["hexes"].items())))
    parts.append("},\n \"units\": {")
    parts.append(",\n".join(f"  {json.dumps(sc)}: {json.dumps(us, sort_keys=True)}" for sc, us in sorted(table["units"].items())))
    return "".join(parts) + "}}\n"


def _show(table: dict, label: str) -> str:
    e = table["hexes"].get(label)
    if e is None:
        return f"{label}: not a hex of the old map"
    extra = f" {e['town']}" if "town" in e else ""
    if "units" in e:
        extra = " " + "; ".join(f"{h}: {', '.join(us)}" for h, us in e["units"].items())
    return f"{label} -> {e['new'] or 'off the new map'}  ({e['why']}{extra})"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("hexes", nargs="*", help="old hex ids (CCRR)")
    p.add_argument("--unit", action="append", default=[], help="a counter id: its old and new setup hex")
    p.add_argument("--scan", help="list every quoted 4-digit id in a file with its translation")
    p.add_argument("--towns", nargs="+", metavar="FILE",
                   help="rewrite every quoted old town id (\"1303\" or '1303') in these files to its new id "
                        "(one pass, so ids that swap do not chain); review the diff: a town id used as a "
                        "plain hex is rewritten too")
    p.add_argument("--rewrite", nargs="+", metavar="FILE",
                   help="rewrite the ids given by --ids wherever they stand as a 4-digit word in these files")
    p.add_argument("--ids", default="", help="comma-separated old ids for --rewrite")
    p.add_argument("--build", action="store_true", help="rebuild hexmap.json from git")
    p.add_argument("--json", action="store_true", help="print the translations as JSON {old: new}")
    args = p.parse_args(argv)
    if args.build:
        TABLE.write_text(_dump(build()), encoding="utf-8")
        print(f"wrote {TABLE}")
        return 0
    table = json.loads(TABLE.read_text(encoding="utf-8"))
    if args.json:
        print(json.dumps({h: table["hexes"].get(h, {}).get("new") for h in args.hexes}))
        return 0
    for h in args.hexes:
        print(_show(table, h))
    for c in args.unit:
        for scen, units in table["units"].items():
            if c in units:
                print(f"{c} ({scen}): {units[c][0]} -> {units[c][1]}")
    towns = {h: e["new"] for h, e in table["hexes"].items() if e["why"] == "town" and e["new"] != h}

    def sub(m: re.Match) -> str:
        return m.group(1) + towns.get(m.group(2), m.group(2)) + m.group(3)

    for f in args.towns or []:
        path = Path(f)
        text = path.read_text(encoding="utf-8")
        new = re.sub(r"""(["'])([0-9]{4})(["'])""", sub, text)
        if new != text:
            path.write_text(new, encoding="utf-8")
            print(f"{f}: rewritten")
    chosen = {h: table["hexes"][h]["new"] for h in args.ids.split(",") if h}
    for f in args.rewrite or []:
        path = Path(f)
        text = path.read_text(encoding="utf-8")
        new = re.sub(r"(?<![0-9])([0-9]{4})(?![0-9])", lambda m: chosen.get(m.group(1)) or m.group(1), text)
        if new != text:
            path.write_text(new, encoding="utf-8")
            print(f"{f}: rewritten")
    if args.scan:
        for n, line in enumerate(Path(args.scan).read_text(encoding="utf-8").splitlines(), 1):
            for m in re.finditer(r"(?<![0-9])([0-4][0-9][0-5][0-9])(?![0-9])", line):
                if m.group(1) in table["hexes"]:
                    print(f"{args.scan}:{n}:{m.start() + 1}: {_show(table, m.group(1))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
