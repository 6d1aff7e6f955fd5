"""Per German turn of a saved Blitz trace: ground, German mobile units (armor/mechanized regiments and
divisions: pz/mot/ssdr ids) moved with an activation (the Movement Step) or only by the Unactivated
Movement Step (9.8B: one hex), their hexes moved, force marches, attacks they made, and German attacks
on a town hex of 18.1.3A. python turns.py TRACE"""
import collections
import json
import sys

TOWNS = {"3733", "2733", "2032", "1435", "0833"}


def mobile(units):
    return [u for u in units if u.startswith("g-") and ("pz-" in u[2:] or "mot" in u or "ssdr" in u)
            and not u.endswith("-pz")]


rows = collections.defaultdict(lambda: {"ground": None, "act": set(), "unact": set(), "hexes": 0, "fm": 0,
                                        "att": 0, "town_att": 0, "mech_hq_acts": 0})
for line in open(sys.argv[1]):
    e = json.loads(line)
    d, r = e["data"] or {}, rows[e["turn"]]
    if e["kind"] in ("ground", "weather-fixed") and d.get("ground"):
        r["ground"] = d["ground"]
    if e["kind"] == "activate-hq" and e["side"] == "german" and d["hq"].endswith("-pz"):
        r["mech_hq_acts"] += 1
    if e["kind"] == "move" and e["side"] == "german":
        ms = mobile(d.get("units", []))
        (r["act"] if e["step"] == "movement" else r["unact"]).update(ms)
        if ms:
            r["hexes"] += len(d.get("path") or [])
    if e["kind"] == "force-march" and e["side"] == "german" and mobile(d.get("units", [])):
        r["fm"] += 1
    if e["kind"] == "combat-results":
        c = d["combat"]
        if c["attacker_side"] == "german":
            r["att"] += bool(mobile(c["attackers"]))
            r["town_att"] += c["hex"] in TOWNS
for t, r in sorted(rows.items()):
    print(f"T{t} {r['ground']}: mech HQ activations {r['mech_hq_acts']}, mobile units moved activated "
          f"{len(r['act'])}, only unactivated {len(r['unact'] - r['act'])}, unit-hexes... path hexes {r['hexes']}, "
          f"force marches {r['fm']}, attacks with mobile units {r['att']}, attacks on a town hex {r['town_att']}")
