"""Seed-by-seed table: before (main, casebook batch JSON, or session 14's records), after (run.py JSONL)."""
import json


def batch(path):
    try:
        d = json.load(open(path))
    except FileNotFoundError:
        return {}
    return {r["seed"]: r for r in d["arms"][0]["records"]}
def lines(path):
    try:
        return {json.loads(line)["seed"]: json.loads(line) for line in open(path)}
    except FileNotFoundError:
        return {}
S14 = "benchmarks/balance/s14-final/"
R = "benchmarks/balance/s15-road/"
for row, s14, before, after in (("pg", "blitz-pg.json", R + "main-pg.json", R + "after-pg.jsonl"),
                                ("pp", "blitz-pp.json", R + "main-pp.json", R + "after-pp.jsonl"),
                                ("bfm", "bfm-pg.json", None, R + "after-bfm-pg.jsonl")):
    old, main, new = batch(S14 + s14), batch(before) if before else {}, lines(after)
    print("row", row)
    for seed in range(1, 11):
        o, m, n = old.get(seed), main.get(seed), new.get(seed)
        f = lambda r: "-" if r is None else f"{r['winner']}/{r['turns']}/{r['digest'][:8]}"
        same = "" if n is None or o is None else ("same" if n["digest"] == o["digest"] else "CHANGED")
        tail = "" if n is None else f"{n.get('reason', '')} ground={n.get('ground')} {round(n['seconds'])}s"
        print(f"  {seed:2d} s14 {f(o)}  main {f(m)}  after {f(n)} {same} {tail}")
