"""German mobile (armor/mechanized) moves per turn from a saved trace: python moves.py TRACE [turn]"""
import json
import sys

MOBILE_PREFIX = ("pz", "mot", "ssdr", "gd")


def mobile(units):
    return [u for u in units if u.startswith("g-") and any(p in u for p in MOBILE_PREFIX)]


for line in open(sys.argv[1]):
    e = json.loads(line)
    if len(sys.argv) > 2 and e["turn"] != int(sys.argv[2]):
        continue
    d = e["data"] or {}
    if e["kind"] == "ground":
        print(e["turn"], "ground", d.get("ground"))
    if e["kind"] == "first-player":
        print(e["turn"], "first", d.get("side") or d)
    if e["kind"] == "activate-hq" and e["side"] == "german":
        print(e["turn"], e["step"], "ACT", d["hq"], len(d["units"]))
    if e["kind"] == "activate-stack" and e["side"] == "german":
        print(e["turn"], e["step"], "ACT-STACK", json.dumps(d)[:120])
    if e["kind"] in ("move", "force-march", "rail-move") and mobile(d.get("units", [])):
        path = d.get("path") or []
        print(e["turn"], e["step"], e["kind"], ",".join(u[2:] for u in mobile(d["units"])), d.get("from"), "->",
              path[-1] if path else "", len(path), "mp", d.get("mp_spent"), d.get("mp_left"))
    if e["kind"] == "combat-results" and e["side"] == "german":
        c = d["combat"]
        if c["attacker_side"] == "german":
            print(e["turn"], e["step"], c["kind"], c["hex"], ",".join(a[2:] for a in c["attackers"]), "vs",
                  ",".join(x[2:] for x in c["defenders"]), c["result"])
