"""Print probe.py's lines as a table: python show.py probe-*.jsonl"""
import json
import sys

for path in sys.argv[1:]:
    for line in open(path):
        r = json.loads(line)
        if "half" not in r:
            print(r)
            continue
        t = r["towns"]
        cells = " ".join(f"{k[:4]}:{(v['ctl'] or '-')[0]}{v['d']}/{v['dm']} s{v['sov']:.0f}r{v['ring']:.0f}" for k, v in t.items())
        print(r["seed"], r["half"], r["ground"], "fm", r["fm"], "att", r["att"], "ips", r["ips"], "third", r["third"],
              r["third_m"], cells, r["town_att"], f"G:S {r['strength']['german']:.0f}:{r['strength']['soviet']:.0f}")
