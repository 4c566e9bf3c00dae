#!/usr/bin/env python3
"""What a tuning file's fused picks would have run in callQ1's A/B rounds (ab.txt), from
those rounds alone: per precision and n, the file's fused parameters there (its entry's
"between" ones up to "between_to"); where they are what one of the two measured files
ran, that file's median time, else "not measured". No new timing: a composition of the
measured rows, for the split rule (57b4a94), which was made after the call.
Usage: compose.py TUNING_FILE AB_TXT"""
import json, re, statistics as st, collections, sys, math
ab = sys.argv[2]
rows = collections.defaultdict(list); cfg = {}
cur = None
for line in open(ab):
    m = re.match(r"== round (\d) (\w+) (\w)", line)
    if m: cur = (m.group(2), m.group(3)); continue
    f = line.split()
    if cur and len(f) > 8 and f[0].isdigit() and f[1].isdigit():
        n = int(f[0]); rows[(cur[1], n, cur[0])].append(float(f[2]))
        cfg[(cur[1], n, cur[0])] = ' '.join(f[7:])
def entry_params(path, p, n):
    ch = json.load(open(path))['devices'][0]['chosen']
    es = [e for e in ch if e['precision'] == p and e['variant'] == 'fused' and e['n'] <= n]
    e = max(es, key=lambda e: e['n'])
    q = e['between'] if (n > e['n'] and n <= e.get('between_to', 0)) else e['params']
    return f"fused ib{q['ib']} tbc{q['tbc']} rpt{q['rpt']} {q['shape']}"
out = []
print("| precision | n | before | 1d78b83 (one pick) | split: config | split ms (from) | split/before |")
print("|---|---:|---|---|---|---:|---:|")
for (p, n, w) in sorted(k for k in rows if k[2] == 'before'):
    b = st.median(rows[(p, n, 'before')]); nw = st.median(rows[(p, n, 'new')])
    c = entry_params(sys.argv[1], p, n)
    src = [w2 for w2 in ('before', 'new') if cfg[(p, n, w2)] == c]
    t = st.median(rows[(p, n, src[0])]) if src else float('nan')
    out.append((p, t / b))
    print(f"| {p} | {n} | {cfg[(p,n,'before')]} {b:.4f} | {cfg[(p,n,'new')]} {nw:.4f} | {c} | {t:.4f} ({'/'.join(src) or 'not measured'}) | {t/b:.3f} |")
for p in 'ds':
    xs = [x for q, x in out if q == p and x == x]
    print(p, 'geomean split/before %.3f over %d' % (math.exp(sum(map(math.log, xs)) / len(xs)), len(xs)))
xs = [x for q, x in out if x == x]
print('all %.3f over %d' % (math.exp(sum(map(math.log, xs)) / len(xs)), len(xs)))
