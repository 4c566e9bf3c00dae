#!/usr/bin/env python3
"""Untuned/tuned ratios from bench files that hold one or more rounds of the same sizes.

usage: rounds_ratio.py LABEL KEYWORD COLUMN UNTUNED TUNED
Rows not starting with '#' whose COLUMN (1-based) is a positive number count; the first
column is the size. Per size: the median over the rounds of each file's times, their
ratio, and at the end the geometric mean over the sizes (the lines tune-check prints).
"""
import math
import statistics
import sys


def times(path, col):
    out = {}
    with open(path) as f:
        for line in f:
            if line.startswith('#'):
                continue
            fields = line.split()
            try:
                size, ms = fields[0], float(fields[col - 1])
                int(size)
            except (IndexError, ValueError):
                continue
            if ms > 0:
                out.setdefault(size, []).append(ms)
    return out


def main():
    label, keyword, col, untuned, tuned = sys.argv[1:6]
    u, t = times(untuned, int(col)), times(tuned, int(col))
    logs = []
    for size in sorted(set(u) & set(t), key=int):
        mu, mt = statistics.median(u[size]), statistics.median(t[size])
        r = mu / mt
        logs.append(math.log(r))
        print(f"{label} {keyword}={size:<5} untuned {mu:10.4f} ms  tuned {mt:10.4f} ms  {r:.2f}x"
              f"  (rounds {len(u[size])}/{len(t[size])})")
    if logs:
        print(f"{label} {keyword} geometric mean speedup {math.exp(sum(logs) / len(logs)):.3f}x "
              f"over {len(logs)} sizes")


if __name__ == '__main__':
    main()
