#!/usr/bin/env python3
"""The shipped H200 file of 4216e41+ (session 24): the shipped file before it (e78455e's plan
plus its exhaustive fused and staged sweeps), with fresh5's fused and interleaved records at
the sizes below 64 that it has no records of (5, 7, 9, 10, 11, 13-15, 17-23, 25-31, 33-47,
49-63: fresh5's dense probes, every fused configuration up to 31). Then, from the repo root:
    build/tools/bchol tune --rechoose OUT
chooses every entry again from the records (the entries at the sizes before a new one now
serve that size alone, so they keep their own best).
Usage (from the repo root): merge.py SHIPPED_BEFORE FRESH5 OUT"""
import collections, gzip, json, sys

def load(fn):
    return json.load(gzip.open(fn) if fn.endswith('.gz') else open(fn))

shipped, fresh = load(sys.argv[1]), load(sys.argv[2])
have = collections.defaultdict(set)
for r in shipped['devices'][0]['tried']:
    have[(r['variant'], r['precision'])].add(r['n'])
add = [r for r in fresh['devices'][0]['tried']
       if r['variant'] in ('fused', 'interleaved') and r['n'] < 64
       and r['n'] not in have[(r['variant'], r['precision'])]]
shipped['devices'][0]['tried'].extend(add)
json.dump(shipped, open(sys.argv[3], 'w'), indent=1)
print(f'{len(add)} records added')
