import yaml,sys
m=yaml.safe_load(open('/work/main/games/moscow41/map.yaml'))
d=yaml.safe_load(open(sys.argv[1]))
c0,c1,r0,r1=[int(x) for x in sys.argv[2:6]]
ter=m['terrain']; road=set(); trail=set(); river=set()
for hs in m['hexsides']:
    a,b=hs['hexes']
    if hs.get('road'): road|={a,b}
    if hs.get('trail'): trail|={a,b}
units={}
for u in d['units']:
    units.setdefault(u['hex'],[]).append(u)
T={'clear':'.','forest':'f','swamp':'s','rough':'r','city':'C','town':'t'}
print('rows ->', r0, r1, ' (row 08 = west edge);  col (north) top=high')
for c in range(c1,c0-1,-1):
    line=f"{c:02d} "
    for r in range(r0,r1+1):
        h=f"{c:02d}{r:02d}"
        t=T.get(ter.get(h,'clear'),'?')
        if h in units:
            us=units[h]; s=us[0]['side'][0].upper()
            if s=='G' and any(u['oos'] for u in us): s='O'
            ch=s
        elif h in road: ch='='
        elif h in trail: ch='-'
        else: ch=t
        line+=ch+' '
    print(line)
print(set(ter.values()))
