#!/usr/bin/env python3
"""The GPU peer: torch.linalg.cholesky_ex (cuSOLVER) on batches of random SPD matrices.

Prints one row per n: batch, median milliseconds over timed runs after warm-up (CUDA
events), Gflop/s counting n^3/3 per matrix, and whether every info was 0. Batches as in
`bchol bench`: 16384 for n <= 64, 3000 up to 256, 1000 above.

With --vbatched, the peer of `bchol bench --vbatched`: the same random orders in [1, nmax]
(the same generator and seed as util/, so max_n matches), factored as torch users do,
one cholesky_ex per group of equal orders; the time covers all groups, Gflop/s counts the
real orders (sum of n^3/3). One row per nmax: nmax, max_n, batch, ms, Gflop/s, check.
"""
import math
import argparse
import datetime
import statistics

import torch


def default_batch(n):
    return 16384 if n <= 64 else 3000 if n <= 256 else 1000


def parse_sizes(text):
    if ":" in text:
        a, b = (int(x) for x in text.split(":")[:2])
        out = []
        while a <= b:
            out.append(a)
            a *= 2
        return out
    return [int(x) for x in text.split(",")]


def spd_batch(batch, n, dtype):
    # diagonally dominant symmetric, as `bchol bench` generates
    a = torch.rand(batch, n, n, device="cuda", dtype=dtype) * 2 - 1
    a = (a + a.transpose(1, 2)) / 2
    a += n * torch.eye(n, device="cuda", dtype=dtype)
    return a


MASK = (1 << 64) - 1


class Rng:
    """splitmix64 as util_rng in util/util.c."""

    def __init__(self, seed):
        self.s = (seed ^ 0x9E3779B97F4A7C15) & MASK

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & MASK
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def unit(self):  # (0, 1], as unit() in util/vbatched.c
        u = (self.next() >> 11) * 2.0 ** -52 - 1.0
        return 1.0 - (u + 1.0) / 2.0


def random_orders(dist, nmax, batch, seed=1, rng_seed=None):
    """util_random_order over a batch, seeded as bench_vbatched.c does (rng_seed: the
    generator's seed itself, for callers seeded otherwise)."""
    r = Rng((seed * 1000003 + nmax if rng_seed is None else rng_seed) & MASK)
    out = []
    for _ in range(batch):
        if dist == "gaussian":
            z = math.sqrt(-2.0 * math.log(r.unit())) * math.cos(6.283185307179586 * r.unit())
            x = nmax / 2.0 + z * nmax / 6.0
            v = math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5)  # C lround
            out.append(min(max(v, 1), nmax))
        else:
            out.append(1 + r.next() % nmax)
    return out


def vbatched(args, dtype):
    upper = args.uplo == "U"
    print(f"{'nmax':>6} {'max_n':>6} {'batch':>8} {'ms':>10} {'Gflop/s':>10} check")
    for nmax in parse_sizes(args.n):
        batch = args.batch or 3000
        orders = random_orders(args.dist, nmax, batch, args.seed)
        groups = [spd_batch(orders.count(n), n, dtype) for n in sorted(set(orders))]

        def factor_all():
            return [torch.linalg.cholesky_ex(a, upper=upper) for a in groups]

        ms = time_op(factor_all, args.reps, args.warmup)
        ok = all(bool((info == 0).all()) for _, info in factor_all())
        flops = sum(n ** 3 / 3 for n in orders)
        print(f"{nmax:>6} {max(orders):>6} {batch:>8} {ms:>10.4f} {flops / (ms * 1e6):>10.2f} "
              f"{'ok' if ok else 'FAILED'}")
        del groups


def time_op(fn, reps, warmup):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", default="8:512")
    ap.add_argument("--precision", default="s", choices=["s", "d"])
    ap.add_argument("--batch", type=int, default=0)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--uplo", default="L", choices=["L", "U"])
    ap.add_argument("--vbatched", action="store_true", help="variable orders (see above)")
    ap.add_argument("--dist", default="uniform", choices=["uniform", "gaussian"])
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    dtype = torch.float64 if args.precision == "d" else torch.float32
    what = f"vbatched {args.dist} orders, one call per order" if args.vbatched else "fixed size"
    print(f"# peer torch {torch.__version__} linalg.cholesky_ex ({args.precision}), "
          f"{torch.cuda.get_device_name()}, {datetime.date.today()}, "
          f"median of {args.reps} after {args.warmup} warm-up, CUDA events, {what}")
    if args.vbatched:
        return vbatched(args, dtype)
    print(f"{'n':>6} {'batch':>8} {'ms':>10} {'Gflop/s':>10} check")
    for n in parse_sizes(args.n):
        batch = args.batch or default_batch(n)
        a = spd_batch(batch, n, dtype)
        upper = args.uplo == "U"
        ms = time_op(lambda: torch.linalg.cholesky_ex(a, upper=upper), args.reps, args.warmup)
        _, info = torch.linalg.cholesky_ex(a, upper=upper)
        ok = bool((info == 0).all())
        gflops = batch * n ** 3 / 3 / (ms * 1e6)
        print(f"{n:>6} {batch:>8} {ms:>10.4f} {gflops:>10.2f} {'ok' if ok else 'FAILED'}")
        del a


if __name__ == "__main__":
    main()
