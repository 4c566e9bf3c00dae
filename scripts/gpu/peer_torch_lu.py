#!/usr/bin/env python3
"""The GPU peer of `bchol bench --routine getrf|getrs|gesv|getri`: torch.linalg.lu_factor_ex
(cuBLAS getrfBatched / cuSOLVER underneath), torch.linalg.lu_solve on its factors (adjoint
for --trans T), torch.linalg.solve_ex and torch.linalg.inv_ex, on batches of random general
matrices (entries uniform in [-1, 1), as the bench generates them, from torch's generator
seeded with --seed + n: the same distribution, not the same matrices; right-hand sides the
same).

Prints the rows of the bench's table for the routine: n, batch, nrhs (getrs and gesv),
median milliseconds over timed runs after warm-up (CUDA events), Gflop/s counting 2n^3/3
(getrf), 2n^2*nrhs (getrs), 2n^3/3 + 2n^2*nrhs (gesv); for getri inv_ms and inv_Gf, the
inverse from A (factor and inverse, 2n^3: the bench's inv columns, as torch has no getri
alone); the worst scaled residual over a sample of 16 (the bench's: ||P*A - L*U||_1 /
(n ||A||_1 eps), ||B - op(A)*X||_1 / (||op(A)||_1 ||X||_1 eps), ||I - A*C||_1 / (n ||A||_1
||C||_1 eps)) and ok when it is at most 30 and every info is 0. Batches as `bchol bench`:
16384 for n <= 64, 3000 up to 256, 1000 above.
"""
import argparse
import datetime

import torch

from peer_torch import default_batch, parse_sizes, time_op

SAMPLE = 16


def sample(*ts):
    """The sampled matrices of each batch (bench_lu.c's choice: s*(batch-1)/15), in double."""
    idx = torch.linspace(0, ts[0].shape[0] - 1, min(SAMPLE, ts[0].shape[0])).long().to(ts[0].device)
    return [t[idx].double() if t.is_floating_point() else t[idx] for t in ts]


def lu_residual(a, lu, piv, eps):
    a, lu, piv = sample(a, lu, piv)
    p, l, u = torch.lu_unpack(lu, piv)
    n = a.shape[-1]
    r = torch.linalg.matrix_norm(p @ l @ u - a, ord=1) / (torch.linalg.matrix_norm(a, ord=1) * n * eps)
    return float(r.max())


def solve_residual(a, x, b, eps, trans="N"):
    a, x, b = sample(a, x, b)
    if trans == "T":
        a = a.transpose(-2, -1)
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
    ap.add_argument("--trans", default="N", choices=["N", "T"], help="getrs only")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.nrhs != 1 and args.routine not in ("getrs", "gesv"):
        ap.error("--nrhs applies to getrs and gesv")
    if args.trans != "N" and args.routine != "getrs":
        ap.error("--trans applies to getrs")
    has_b = args.routine in ("getrs", "gesv")
    dtype = torch.float64 if args.precision == "d" else torch.float32
    eps = 2.0 ** -53 if args.precision == "d" else 2.0 ** -24
    op = {"getrf": "linalg.lu_factor_ex", "getrs": f"linalg.lu_solve trans={args.trans}",
          "gesv": "linalg.solve_ex", "getri": "linalg.inv_ex (factor + inverse)"}[args.routine]
    print(f"# peer torch {torch.__version__} {op} ({args.precision}), {torch.cuda.get_device_name()}, "
          f"{datetime.date.today()}, median of {args.reps} after {args.warmup} warm-up, CUDA events, "
          f"seed {args.seed}")
    head = f"{'n':>6} {'batch':>8}" + (f" {'nrhs':>5}" if has_b else "")
    head += f" {'inv_ms':>10} {'inv_Gf':>10}" if args.routine == "getri" else f" {'ms':>10} {'Gflop/s':>10}"
    print(head + f" {'residual':>9} check")
    for n in parse_sizes(args.n):
        batch = args.batch or default_batch(n)
        k = args.nrhs if has_b else 0
        torch.manual_seed(args.seed * 1000003 + n)
        a = torch.rand(batch, n, n, device="cuda", dtype=dtype) * 2 - 1
        b = torch.rand(batch, n, k, device="cuda", dtype=dtype) * 2 - 1 if has_b else None
        if args.routine == "getrf":
            ms = time_op(lambda: torch.linalg.lu_factor_ex(a), args.reps, args.warmup)
            lu, piv, info = torch.linalg.lu_factor_ex(a)
            res, flops = lu_residual(a, lu, piv, eps), 2.0 * n ** 3 / 3
        elif args.routine == "getrs":
            adj = args.trans == "T"
            lu, piv, info = torch.linalg.lu_factor_ex(a)
            ms = time_op(lambda: torch.linalg.lu_solve(lu, piv, b, adjoint=adj), args.reps, args.warmup)
            x = torch.linalg.lu_solve(lu, piv, b, adjoint=adj)
            res, flops = solve_residual(a, x, b, eps, args.trans), 2.0 * n * n * k
        elif args.routine == "gesv":
            ms = time_op(lambda: torch.linalg.solve_ex(a, b), args.reps, args.warmup)
            x, info = torch.linalg.solve_ex(a, b)
            res, flops = solve_residual(a, x, b, eps), 2.0 * n ** 3 / 3 + 2.0 * n * n * k
        else:
            ms = time_op(lambda: torch.linalg.inv_ex(a), args.reps, args.warmup)
            c, info = torch.linalg.inv_ex(a)
            res, flops = inv_residual(a, c, eps), 2.0 * n ** 3
        ok = bool((info == 0).all()) and res <= 30
        row = f"{n:>6} {batch:>8}" + (f" {k:>5}" if has_b else "")
        print(row + f" {ms:>10.4f} {batch * flops / (ms * 1e6):>10.2f} {res:>9.3g} "
              f"{'ok' if ok else 'FAILED'}", flush=True)
        del a, b

if __name__ == "__main__":
    main()
