#!/usr/bin/env python3
"""Issue 3's aim (vbatched >= 3x the padded fixed-size run, orders uniform in 1..nmax) against
what the fixed-size routine itself does at each order: if every matrix of a vbatched call
ran at the per-matrix time the fixed-size routine reaches on a full batch of its own order,
the call would take sum_i t(n_i), and the padded run batch * t(nmax). Their ratio,
t(nmax) / mean over n = 1..nmax of t(n), bounds what a vbatched kernel as efficient as the
fixed one can reach. t: the library's choice in the H200 grid of 2026-11-24 (fd7e751;
batch 16384 up to n = 64, 3000 above), interpolated log-log between its orders, linear in n
below n = 4. Usage (from the repo root): bound.py"""
import csv, math

rows = csv.DictReader(open('docs/results/2026-11-24-h200-grid/grid.csv'))
t = {'s': {}, 'd': {}}
for r in rows:
    if r['device'] == 'NVIDIA H200' and r['kind'] == 'fixed' and r['impl'] == 'bchol-auto':
        t[r['precision']][int(r['n'])] = float(r['ms']) / int(r['batch'])

def at(table, n):
    ks = sorted(table)
    if n <= ks[0]:
        return table[ks[0]] * n / ks[0]
    for a, b in zip(ks, ks[1:]):
        if a <= n <= b:
            f = math.log(n / a) / math.log(b / a)
            return math.exp(math.log(table[a]) + f * math.log(table[b] / table[a]))
    raise ValueError(n)

print('nmax  precision  bound t(nmax)/mean t(n)  flop ratio nmax^3/mean n^3')
for nmax in (32, 64, 128, 256):
    for p in 'sd':
        mean = sum(at(t[p], n) for n in range(1, nmax + 1)) / nmax
        flops = nmax ** 3 / (sum(n ** 3 for n in range(1, nmax + 1)) / nmax)
        print('%4d  %s          %.2f                     %.2f' % (nmax, p, at(t[p], nmax) / mean, flops))
