"""Print German and Soviet wins per batch record file (session 16 rows): python3 tally.py *.json"""

import json
import sys

for f in sys.argv[1:]:
    d = json.load(open(f))
    for a in d['arms']:
        rs = a['records']
        g = [r['seed'] for r in rs if r['winner'] == 'german']
        s = [r['seed'] for r in rs if r['winner'] == 'soviet']
        other = [(r['seed'], r['winner'], r.get('error')) for r in rs if r['winner'] not in ('german', 'soviet')]
        print(f, 'interrupted' if d.get('interrupted') else '', f"games {len(rs)} german {len(g)} soviet {len(s)}",
              "soviet wins:" if len(s) < len(g) else "german wins:", s if len(s) < len(g) else g, other or '')
