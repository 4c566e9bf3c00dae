#!/usr/bin/env python3
"""The GPU peer of `bchol bench --routine getrf|getrs|gesv|getri`: torch.linalg.lu_factor_ex
(cuBLAS getrfBatched / cuSOLVER underneath), torch.linalg.lu_solve on its factors,
torch.linalg.solve_ex and torch.linalg.inv_ex, on batches of random general matrices
(entries uniform in [-1, 1), as the bench generates them; right-hand sides the same).

Prints one row per n: batch, nrhs, median milliseconds over timed runs after warm-up (CUDA
events), Gflop/s counting 2n^3/3 (getrf), 2n^2*nrhs (getrs), 2n^3/3 + 2n^2*nrhs (gesv),
2n^3 (inv: factor and inverse) per matrix, the worst scaled residual over a sample and
whether every info was 0. Batches as `bchol bench`: 16384 for n <= 64, 3000 up to 256,
1000 above.
"""
import argparse
import datetime

import torch

from peer_torch import default_batch, parse_sizes, time_op

SAMPLE = 16


def sample(*ts):
    idx = torch.linspace(0, ts[0].shape[0] - 1, min(SAMPLE, ts[0].shape[0])).long().to(ts[0].device)
    return [t[idx].double() for t in ts]


def lu_residual(a, lu, piv, eps):
    a, = sample(a)
    lu_s, piv_s = sample(lu)[0], piv[torch.linspace(0, piv.shape[0] - 1, min(SAMPLE, piv.shape[0])).long().to(piv.device)]
    p, l, u = torch.lu_unpack(lu_s, piv_s)
    n = a.shape[-1]
    r = torch.linalg.matrix_norm(p @ l @ u - a, ord=1) / (torch.linalg.matrix_norm(a, ord=1) * n * eps)
    return float(r.max())


def solve_residual(a, x, b, eps):
    a, x, b = sample(a, x, b)
    r = torch.linalg.matrix_norm(b - a @ x, ord=1) / (
        torch.linalg.matrix_norm(a, ord=1) * torch.linalg.matrix_norm(x, ord=1) * eps)
    return float(r.max())


def inv_residual(a, c, eps):
    a, c = sample(a, c)
    n = a.shape[-1]
    eye = torch.eye(n, dtype=a.dtype, device=a.device)
    r = torch.linalg.matrix_norm(eye - a @ c, ord=1) / (
        n * torch.linalg.matrix_norm(a, ord=1) * torch.linalg.matrix_norm(c, ord=1) * eps)
    return float(r.max())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--routine", default="getrf", choices=["getrf", "getrs", "gesv", "getri"])
    ap.add_argument("--n", default="4:512")
    ap.add_argument("--nrhs", type=int, default=1)
    ap.add_argument("--precision", default="s", choices=["s", "d"])
    ap.add_argument("--batch", type=int, default=0)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=3)
    args = ap.parse_args()
    dtype = torch.float64 if args.precision == "d" else torch.float32
    eps = 2.0 ** -53 if args.precision == "d" else 2.0 ** -24
    op = {"getrf": "linalg.lu_factor_ex", "getrs": "linalg.lu_solve", "gesv": "linalg.solve_ex",
          "getri": "linalg.inv_ex (factor + inverse)"}[args.routine]
    print(f"# peer torch {torch.__version__} {op} ({args.precision}), {torch.cuda.get_device_name()}, "
          f"{datetime.date.today()}, median of {args.reps} after {args.warmup} warm-up, CUDA events")
    print(f"{'n':>6} {'batch':>8} {'nrhs':>5} {'ms':>10} {'Gflop/s':>10} {'residual':>9} check")
    for n in parse_sizes(args.n):
        batch = args.batch or default_batch(n)
        k = args.nrhs
        a = torch.rand(batch, n, n, device="cuda", dtype=dtype) * 2 - 1
        b = torch.rand(batch, n, k, device="cuda", dtype=dtype) * 2 - 1
        if args.routine == "getrf":
            ms = time_op(lambda: torch.linalg.lu_factor_ex(a), args.reps, args.warmup)
            lu, piv, info = torch.linalg.lu_factor_ex(a)
            res, flops = lu_residual(a, lu, piv, eps), 2.0 * n ** 3 / 3
        elif args.routine == "getrs":
            lu, piv, info = torch.linalg.lu_factor_ex(a)
            ms = time_op(lambda: torch.linalg.lu_solve(lu, piv, b), args.reps, args.warmup)
            res, flops = solve_residual(a, torch.linalg.lu_solve(lu, piv, b), b, eps), 2.0 * n * n * k
        elif args.routine == "gesv":
            ms = time_op(lambda: torch.linalg.solve_ex(a, b), args.reps, args.warmup)
            x, info = torch.linalg.solve_ex(a, b)
            res, flops = solve_residual(a, x, b, eps), 2.0 * n ** 3 / 3 + 2.0 * n * n * k
        else:
            ms = time_op(lambda: torch.linalg.inv_ex(a), args.reps, args.warmup)
            c, info = torch.linalg.inv_ex(a)
            res, flops = inv_residual(a, c, eps), 2.0 * n ** 3
        ok = bool((info == 0).all()) and res <= 30
        print(f"{n:>6} {batch:>8} {k:>5} {ms:>10.4f} {batch * flops / (ms * 1e6):>10.2f} {res:>9.3g} "
              f"{'ok' if ok else 'FAILED'}")
        del a, b


if __name__ == "__main__":
    main()
