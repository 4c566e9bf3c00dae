#!/usr/bin/env python3
"""The fused picks of a tuning file at the sizes of the H200's exhaustive fused sweeps that
are not in the file's grid (its "sizes"), against the best measured there (confirmation
times where the sweep has them; the first sweep of a size counts, newest first: n = 28
from offgrid5, with the present kernels). The pick at a size is what the dispatcher runs:
the entry at the nearest measured size below (the size's own where it was probed), its
"between" pick up to between_to. None of these sweeps was used by the tuner.
Usage (from the repo root): held-out-dense.py TUNING_FILE[.gz]"""
import gzip, json, math, sys

R = 'docs/results/'
SWEEPS = [R + '2026-11-25-h200-dense-probes/offgrid5-h200.json.gz',
          R + '2026-11-25-h200-probe-points/offgrid4-h200.json.gz',
          R + '2026-11-25-h200-staged/offgrid3-h200.json.gz',
          R + '2026-11-24-h200-probes/offgrid2-h200.json.gz',
          R + '2026-11-24-h200-tune-pipeline/offgrid-h200.json.gz']

def load(fn):
    return json.load(gzip.open(fn) if fn.endswith('.gz') else open(fn))

def key(p):
    return json.dumps(p, sort_keys=True)

def ms(r):
    return r.get('confirm_ms') or r['ms']

top = load(sys.argv[1])
grid = set(top['tuner']['sizes'])
dev = top['devices'][0]
chosen = {(e['precision'], e['n']): e for e in dev['chosen'] if e['variant'] == 'fused' and 'nrhs' not in e}
res, seen = {}, set()
for fn in SWEEPS:
    tried = load(fn)['devices'][0]['tried']
    for prec in 'sd':
        measured = sorted(n for (p, n) in chosen if p == prec)
        for m in sorted({r['n'] for r in tried if r['precision'] == prec and r['variant'] == 'fused'}):
            if m in grid or (prec, m) in seen or m > measured[-1]:
                continue
            times = {key(r['params']): ms(r) for r in tried if r['precision'] == prec and
                     r['variant'] == 'fused' and r['n'] == m and r.get('ms', 0) > 0}
            if len(times) < 20:  # an incomplete sweep
                continue
            seen.add((prec, m))
            best = min(times.values())
            lo = max(n for n in measured if n <= m)
            e = chosen[(prec, lo)]
            pick = key(e['between']) if e.get('between') and lo < m <= e['between_to'] else key(e['params'])
            res[(prec, m)] = times.get(pick, float('nan')) / best
            print('%s %4d (entry at %d%s)  pick/best %.3f' % (prec, m, lo, ', probed' if lo == m else '', res[(prec, m)]))
v = [x for x in res.values() if x == x]
print('%d of %d within 5%%, geometric mean %.3f, worst %.3f; %d picks not in the sweep' % (
    sum(x <= 1.05 for x in v), len(v), math.exp(sum(map(math.log, v)) / len(v)), max(v), len(res) - len(v)))
