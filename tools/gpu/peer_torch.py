#!/usr/bin/env python3
"""The GPU peer: torch.linalg.cholesky_ex (cuSOLVER) on batches of random SPD matrices.

Prints one row per n: batch, median milliseconds over timed runs after warm-up (CUDA
events), Gflop/s counting n^3/3 per matrix, and whether every info was 0. Batches as in
`bchol bench`: 16384 for n <= 64, 3000 up to 256, 1000 above.
"""
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
    args = ap.parse_args()
    dtype = torch.float64 if args.precision == "d" else torch.float32
    print(f"# peer torch {torch.__version__} linalg.cholesky_ex ({args.precision}), "
          f"{torch.cuda.get_device_name()}, {datetime.date.today()}, "
          f"median of {args.reps} after {args.warmup} warm-up, CUDA events")
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
