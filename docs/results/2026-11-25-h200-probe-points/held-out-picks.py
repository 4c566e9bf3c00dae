#!/usr/bin/env python3
"""The fused picks of a tuning file at the held-out sizes of the H200's exhaustive sweeps,
against the best measured there (confirmation times where the sweep has them). Rules:
  now        what the dispatcher runs: the entry below, its "between" pick up to between_to
  above      the entry of the nearest measured size above
  below-own  the entry below's own configuration
Usage (from the repo root): held-out-picks.py TUNING_FILE[.gz]"""
import gzip, json, math, sys

R = 'docs/results/'
SWEEPS = [R + '2026-11-25-h200-probe-points/offgrid4-h200.json.gz',
          R + '2026-11-25-h200-staged/offgrid3-h200.json.gz',
          R + '2026-11-24-h200-probes/offgrid2-h200.json.gz',
          R + '2026-11-24-h200-tune-pipeline/offgrid-h200.json.gz']

def load(fn):
    return json.load(gzip.open(fn) if fn.endswith('.gz') else open(fn))['devices'][0]

def key(p):
    return json.dumps(p, sort_keys=True)

def ms(r):
    return r.get('confirm_ms') or r['ms']

ship = load(sys.argv[1])
chosen = {(e['precision'], e['n']): e for e in ship['chosen'] if e['variant'] == 'fused' and 'nrhs' not in e}
res, seen = {}, set()
for fn in SWEEPS:
    tried = load(fn)['tried']
    for prec in 'sd':
        measured = sorted(n for (p, n) in chosen if p == prec)
        for m in sorted({r['n'] for r in tried if r['precision'] == prec and r['variant'] == 'fused'}):
            if m in measured or (prec, m) in seen or m > measured[-1]:
                continue
            times = {key(r['params']): ms(r) for r in tried if r['precision'] == prec and
                     r['variant'] == 'fused' and r['n'] == m and r.get('ms', 0) > 0}
            if len(times) < 20:  # an incomplete sweep
                continue
            seen.add((prec, m))
            best = min(times.values())
            lo = max(n for n in measured if n < m)
            hi = min(n for n in measured if n > m)
            e = chosen[(prec, lo)]
            now = key(e['between']) if e.get('between') and m <= e['between_to'] else key(e['params'])
            picks = (now, key(chosen[(prec, hi)]['params']), key(e['params']))
            res[(prec, m)] = [times.get(x, float('nan')) / best for x in picks]
            print('%s %4d (%d-%d)  now %.3f  above %.3f  below-own %.3f' % ((prec, m, lo, hi) + tuple(res[(prec, m)])))
for i, name in enumerate(('now', 'above', 'below-own')):
    v = [x[i] for x in res.values() if x[i] == x[i]]
    print('%-9s %d of %d within 5%%, geometric mean %.3f, worst %.3f' % (
        name, sum(x <= 1.05 for x in v), len(v), math.exp(sum(map(math.log, v)) / len(v)), max(v)))
