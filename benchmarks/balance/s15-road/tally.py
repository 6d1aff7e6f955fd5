"""Seed-by-seed table: before (main, casebook batch JSON, or session 14's records), after (run.py JSONL)."""
import json, sys
def batch(path):
    try:
        d = json.load(open(path))
    except FileNotFoundError:
        return {}
    return {r["seed"]: r for r in d["arms"][0]["records"]}
def lines(path):
    try:
        return {json.loads(l)["seed"]: json.loads(l) for l in open(path)}
    except FileNotFoundError:
        return {}
S14 = "benchmarks/balance/s14-final/"
for row, s14, before, after in (("pg", "blitz-pg.json", "benchmarks/balance/s15-road/main-pg.json", "benchmarks/balance/s15-road/after-pg.jsonl"),
                                ("pp", "blitz-pp.json", "benchmarks/balance/s15-road/main-pp.json", "benchmarks/balance/s15-road/after-pp.jsonl"),
                                ("bfm", "bfm-pg.json", None, "benchmarks/balance/s15-road/after-bfm-pg.jsonl")):
    old, main, new = batch(S14 + s14), batch(before) if before else {}, lines(after)
    print("row", row)
    for seed in range(1, 11):
        o, m, n = old.get(seed), main.get(seed), new.get(seed)
        f = lambda r: "-" if r is None else f"{r['winner']}/{r['turns']}/{r['digest'][:8]}"
        same = "" if n is None or o is None else ("same" if n["digest"] == o["digest"] else "CHANGED")
        print(f"  {seed:2d} s14 {f(o)}  main {f(m)}  after {f(n)} {same} {n.get('reason','') if n else ''} ground={n.get('ground') if n else ''} {round(n['seconds']) if n else ''}s")
