#!/usr/bin/env python3
"""The GPU peer of `bchol bench --solve`: torch.cholesky_solve (potrs) and
torch.linalg.cholesky_ex + torch.cholesky_solve (posv) on batches of random SPD systems.

Prints one row per n: batch, nrhs, median milliseconds over timed runs after warm-up
(CUDA events) of the solve alone and of factor + solve, Gflop/s counting 2n^2*nrhs
(solve) and n^3/3 + 2n^2*nrhs (factor + solve) per system, the worst residual
||AX - B||_F / (||A||_F ||X||_F n eps) over a sample, and whether every info was 0.
Same sizes, batches and inputs (diagonally dominant SPD, B uniform in [-1, 1)) as
`bchol bench --solve`.

With --vbatched, the peer of `bchol bench --solve --vbatched`: the same random orders in
[1, nmax] (bench_solve_vbatched.c's generator, seeded with seed + nmax), solved with one
cholesky_ex and one cholesky_solve per group of equal orders (torch has no variable-size
batch); Gflop/s on the real orders.
"""
import argparse
import datetime

import torch

from peer_torch import default_batch, parse_sizes, random_orders, spd_batch, time_op

SAMPLE = 16


def worst_residual(a, x, b, eps):
    idx = torch.linspace(0, a.shape[0] - 1, min(SAMPLE, a.shape[0])).long().to(a.device)
    a, x, b = a[idx].double(), x[idx].double(), b[idx].double()
    n = a.shape[-1]
    r = torch.linalg.matrix_norm(a @ x - b) / (
        torch.linalg.matrix_norm(a) * torch.linalg.matrix_norm(x) * n * eps)
    return float(r.max())


def vbatched(args, dtype, eps):
    upper, k = args.uplo == "U", args.nrhs
    print(f"{'nmax':>6} {'max_n':>6} {'batch':>8} {'nrhs':>5} {'solve_ms':>10} {'solve_Gf':>9} "
          f"{'posv_ms':>10} {'posv_Gf':>9} {'residual':>9} check")
    for nmax in parse_sizes(args.n):
        batch = args.batch or 3000
        orders = random_orders(args.dist, nmax, batch, rng_seed=args.seed + nmax)
        sizes = sorted(set(orders))
        a = [spd_batch(orders.count(n), n, dtype) for n in sizes]
        b = [torch.rand(g.shape[0], g.shape[-1], k, device="cuda", dtype=dtype) * 2 - 1 for g in a]
        factors = [torch.linalg.cholesky_ex(g, upper=upper) for g in a]
        solve_ms = time_op(lambda: [torch.cholesky_solve(bi, f, upper=upper)
                                    for bi, (f, _) in zip(b, factors)], args.reps, args.warmup)

        def posv():
            return [torch.cholesky_solve(bi, torch.linalg.cholesky_ex(g, upper=upper)[0],
                                         upper=upper) for g, bi in zip(a, b)]

        posv_ms = time_op(posv, args.reps, args.warmup)
        res = max(worst_residual(g, x, bi, eps) for g, x, bi in zip(a, posv(), b))
        ok = all(bool((info == 0).all()) for _, info in factors) and res <= 30
        solve_flops = sum(2.0 * n * n * k for n in orders)
        factor_flops = sum(n ** 3 / 3 for n in orders)
        print(f"{nmax:>6} {max(orders):>6} {batch:>8} {k:>5} {solve_ms:>10.4f} "
              f"{solve_flops / (solve_ms * 1e6):>9.2f} {posv_ms:>10.4f} "
              f"{(solve_flops + factor_flops) / (posv_ms * 1e6):>9.2f} {res:>9.3g} "
              f"{'ok' if ok else 'FAILED'}")
        del a, b, factors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", default="8:512")
    ap.add_argument("--nrhs", type=int, default=1)
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
    eps = 2.0 ** -53 if args.precision == "d" else 2.0 ** -24
    upper = args.uplo == "U"
    k = args.nrhs
    print(f"# peer torch {torch.__version__} cholesky_solve and linalg.cholesky_ex + cholesky_solve "
          f"({args.precision}, uplo={args.uplo}, nrhs={k}), {torch.cuda.get_device_name()}, "
          f"{datetime.date.today()}, median of {args.reps} after {args.warmup} warm-up, CUDA events"
          + (f"; vbatched {args.dist} orders, one call per order" if args.vbatched else ""))
    if args.vbatched:
        return vbatched(args, dtype, eps)
    print(f"{'n':>6} {'batch':>8} {'nrhs':>5} {'solve_ms':>10} {'solve_Gf':>9} {'posv_ms':>10} "
          f"{'posv_Gf':>9} {'residual':>9} check")
    for n in parse_sizes(args.n):
        batch = args.batch or default_batch(n)
        a = spd_batch(batch, n, dtype)
        b = torch.rand(batch, n, k, device="cuda", dtype=dtype) * 2 - 1
        factor, info = torch.linalg.cholesky_ex(a, upper=upper)
        solve_ms = time_op(lambda: torch.cholesky_solve(b, factor, upper=upper), args.reps,
                           args.warmup)

        def posv():
            f, _ = torch.linalg.cholesky_ex(a, upper=upper)
            return torch.cholesky_solve(b, f, upper=upper)

        posv_ms = time_op(posv, args.reps, args.warmup)
        x = posv()
        res = worst_residual(a, x, b, eps)
        ok = bool((info == 0).all()) and res <= 30
        solve_flops, factor_flops = 2.0 * n * n * k, n ** 3 / 3
        print(f"{n:>6} {batch:>8} {k:>5} {solve_ms:>10.4f} "
              f"{batch * solve_flops / (solve_ms * 1e6):>9.2f} {posv_ms:>10.4f} "
              f"{batch * (solve_flops + factor_flops) / (posv_ms * 1e6):>9.2f} {res:>9.3g} "
              f"{'ok' if ok else 'FAILED'}")
        del a, b, factor, x


if __name__ == "__main__":
    main()
