#!/usr/bin/env python3
"""Issue 3's aim (vbatched >= 3x the padded fixed-size run, orders uniform in 1..nmax) against
what the fixed-size routine itself does at each order: if every matrix of a vbatched call
ran at the per-matrix time the fixed-size routine reaches on a full batch of its own order,
the call would take sum_i t(n_i), and the padded run batch * t(nmax). Their ratio,
t(nmax) / mean over n = 1..nmax of t(n), bounds what a vbatched kernel as efficient as the
fixed one can reach. t: the library's choice with the shipped H200 file (e78455e,
2026-11-25: tune-check's tuned runs, batch 16384 up to n = 64, 3000 up to 256, 1000 above;
the median of its 2 rounds), interpolated log-log between its orders, linear in n below
n = 4. Usage (from the repo root): bound.py"""
import math, statistics

SRC = 'docs/results/2026-11-25-h200-staged/tune-check-generic/bench-tuned-%s.txt'
t = {}
for p in 'sd':
    runs = {}
    for line in open(SRC % p):
        f = line.split()
        if len(f) > 3 and f[0].isdigit():
            runs.setdefault(int(f[0]), []).append(float(f[2]) / int(f[1]))
    t[p] = {n: statistics.median(v) for n, v in runs.items()}

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
