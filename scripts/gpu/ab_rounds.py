#!/usr/bin/env python3
"""A/B table of two tuning files (or builds) from alternating bench rounds.

usage: ab_rounds.py A B FILE
FILE holds bench outputs, each after a header line "== round R LABEL P" (LABEL is A or B,
P the precision). Bench rows start with n and batch; their third column is the time in ms.
Per precision and n: the median over the rounds of each label's times and B/A, then the
geometric mean of B/A per precision and over all rows.
"""
import collections
import math
import re
import statistics
import sys


def main():
    a, b, path = sys.argv[1], sys.argv[2], sys.argv[3]
    times = collections.defaultdict(list)
    cur = None
    with open(path) as f:
        for line in f:
            m = re.match(r"== round (\d+) (\S+) (\w)", line)
            if m:
                cur = (m.group(2), m.group(3))
                continue
            fields = line.split()
            if cur and len(fields) > 5 and fields[0].isdigit() and fields[1].isdigit():
                times[(cur[1], int(fields[0]), cur[0])].append(float(fields[2]))
    print(f"| precision | n | {a} ms | {b} ms | {b}/{a} | rounds |")
    print("|---|---:|---:|---:|---:|---:|")
    logs = collections.defaultdict(list)
    for (p, n, label) in sorted(k for k in times if k[2] == a):
        if (p, n, b) not in times:
            continue
        ta, tb = statistics.median(times[(p, n, a)]), statistics.median(times[(p, n, b)])
        logs[p].append(math.log(tb / ta))
        print(f"| {p} | {n} | {ta:.4f} | {tb:.4f} | {tb / ta:.3f} | {len(times[(p, n, a)])} |")
    every = [x for p in logs for x in logs[p]]
    for p in sorted(logs):
        print(f"{p}: geometric mean {b}/{a} {math.exp(sum(logs[p]) / len(logs[p])):.3f} over {len(logs[p])} sizes")
    if every:
        print(f"all: geometric mean {b}/{a} {math.exp(sum(every) / len(every)):.3f} over {len(every)} points")


if __name__ == "__main__":
    main()
