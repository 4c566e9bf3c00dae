#!/usr/bin/env python3
"""Tests scripts/grid/grid_collect.py on the checked-in raw outputs of tests/data/grid-sample/.

    test_grid_collect.py COLLECTOR SAMPLE_DIR

Checks the CSV rows the sample must give (counts per kind and implementation, values
derived from the tables, the peer's rows, effective bandwidth only for small n), the
summary's "behind" marks, and that malformed input fails: a row that does not parse, an
unknown raw file name, a row before its table's header, an empty raw folder.
"""
import csv
import os
import shutil
import subprocess
import sys
import tempfile

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(collector, outdir):
    return subprocess.run([sys.executable, collector, outdir], capture_output=True, text=True)


def copy_sample(sample, tmp, name):
    out = os.path.join(tmp, name)
    shutil.copytree(sample, out)
    return out


def main(collector, sample):
    tmp = tempfile.mkdtemp(prefix="grid-collect-")
    try:
        out = copy_sample(sample, tmp, "good")
        r = run(collector, out)
        check(r.returncode == 0, f"good sample: exit status {r.returncode}: {r.stderr}")
        rows = list(csv.DictReader(open(os.path.join(out, "grid.csv"))))

        def sel(**kw):
            return [x for x in rows if all(x[k] == v for k, v in kw.items())]

        # fixed-auto-s.txt: 3 sizes, each a bchol row and a lapack row
        check(len(sel(kind="fixed", impl="bchol-auto", precision="s")) == 3, "3 auto float rows")
        check(len(sel(kind="fixed", impl="lapack", precision="s")) == 3, "3 lapack float rows")
        # fixed-variants-s.txt: fused, separate, interleaved at 2 sizes
        for v in ("fused", "separate", "interleaved"):
            check(len(sel(kind="fixed", impl="bchol-" + v, precision="s")) == 2, f"2 {v} rows")
        a16 = sel(kind="fixed", impl="bchol-auto", precision="s", n="16")
        check(len(a16) == 1 and a16[0]["params"] == "interleaved nb8 left full c64"
              and abs(float(a16[0]["gflops"]) - 1024 * 16 ** 3 / 3 / 1.196e6) < 1e-5
              and a16[0]["batch"] == "1024",
              f"auto n=16 row: {a16}")
        p16 = sel(kind="fixed", impl="lapack", precision="s", n="16")
        check(len(p16) == 1 and abs(float(p16[0]["ms"]) - 1.6446) < 1e-9
              and "hwloc" in p16[0]["device"], f"lapack n=16 row: {p16}")
        # effective bandwidth: n(n+1) elements of 4 bytes per matrix over the time
        want = 1024 * 16 * 17 * 4 / (1.196 * 1e6)
        check(abs(float(a16[0]["gbs"]) - want) < 1e-3 * want, f"auto n=16 GB/s {a16[0]['gbs']} != {want}")
        big = sel(kind="fixed", impl="bchol-auto", precision="s", n="128")
        check(len(big) == 1 and big[0]["gbs"] == "", f"no GB/s above n = 64: {big}")
        # a FAILED row is kept as such
        check(len(sel(kind="fixed", impl="bchol-fused", precision="d", check="FAILED")) == 1,
              "the FAILED double row")
        # vbatched: per nmax, auto + 4 versions + padded + lapack
        vb = [x for x in sel(kind="vbatched-uniform", precision="s") if x["impl"] != "torch"]
        # + vbatched-variants-uniform-s.txt: fused, separate, auto at 16; no fused at 64 ('-')
        check(len(vb) == 2 * 7 + 5, f"vbatched rows: {len(vb)}")
        check(not sel(kind="vbatched-uniform", impl="bchol-fused", n="64"), "'-' gives no row")
        # the separate variant at nmax = 64 (0.93) is the best bchol there, ahead of lapack
        check("| 64 | 1024 | 0.57 (lazy-ag) | 0.93 (separate) |" in open(os.path.join(out, "summary.md")).read(),
              "vbatched best bchol counts the variants")
        auto = sel(kind="vbatched-uniform", impl="bchol-auto", n="16")
        lazy = sel(kind="vbatched-uniform", impl="bchol-vb-lazy-ag", n="16")
        check(auto and lazy and auto[0]["gflops"] == lazy[0]["gflops"]
              and abs(float(lazy[0]["ms"]) - float(auto[0]["ms"])) < 1e-6 * float(auto[0]["ms"]),
              "vbatched default version = auto row")
        # vbatched-gaussian-s.txt: the table with the fused kernel's packing (tbc, shape, order)
        g = sel(kind="vbatched-gaussian", precision="s", n="16")
        check(len(g) == 6 and all("tbc 2 pack steps max_n 15" in x["params"] for x in g if x["impl"] != "bchol-padded")
              and abs(float(sel(kind="vbatched-gaussian", impl="bchol-vb-greedy-cl")[0]["gflops"]) - 0.13) < 1e-9,
              f"vbatched rows with tbc and shape: {g}")
        # torch rows from the peer script, fixed and vbatched
        check(len(sel(impl="torch", kind="fixed")) == 3, "torch fixed rows")
        check(len(sel(impl="torch", kind="vbatched-uniform")) == 2, "torch vbatched rows")
        # fixed-auto-d.txt repeats n = 16 (a resumed run): one row, the last
        d16 = sel(kind="fixed", impl="bchol-auto", precision="d", n="16")
        check(len(d16) == 1 and abs(float(d16[0]["ms"]) - 2.0) < 1e-9, f"repeated point: {d16}")
        # the seeds' sweeps
        # ... and a failed one (no parameters printed): a "failed" column, no plot point
        check(len(sel(kind="sweep-ib")) == 4, "ib sweep rows")
        check(len(sel(kind="ilv-fig15")) == 3, "figure 15 rows")
        for r in rows:
            check(r["commit"] == "abc1234", f"commit of {r}")
        summary = open(os.path.join(out, "summary.md")).read()
        # fixed n = 64: auto within 10% of interleaved, no note; vbatched nmax = 64: auto
        # 0.57 against separate 0.93
        check(summary.count("auto at") == 1 and "auto at 61% of separate" in summary,
              "the auto note only where auto is below 90% of the best")
        check("**behind lapack**" in summary and "**behind torch**" in summary,
              "behind marks in the summary")
        check("vbatched-uniform nmax = 16: best bchol (auto: lazy-ag) 0.36 Gflop/s, torch 2.00" in summary,
              "the behind list names the vbatched point")
        # a peer row whose info was not all zero is kept, marked, and never the best peer
        bad = sel(kind="fixed", impl="lapack", n="128")
        check(len(bad) == 1 and bad[0]["check"] == "FAILED", f"failed peer row: {bad}")
        check("hwloc: 1 package(s), 2 cores, 2 PUs" in summary, "the topology in the summary")
        check("bchol bench: n = 64: out of resources" in summary, "a run's message in the summary")
        if shutil.which("gnuplot"):
            for png in ("gflops-fixed-s.png", "speedup-s.png", "vbatched-uniform-s.png",
                        "sweep-ib-s.png", "ilv-fig15-s.png"):
                p = os.path.join(out, png)
                check(os.path.exists(p) and os.path.getsize(p) > 1000, f"plot {png}")

        # malformed inputs must fail, naming the file
        def broken(name, edit):
            d = copy_sample(sample, tmp, name)
            edit(os.path.join(d, "raw"))
            r = run(collector, d)
            check(r.returncode == 1, f"{name}: exit status {r.returncode}, stderr {r.stderr!r}")
            return r.stderr

        def truncate_row(raw):
            path = os.path.join(raw, "fixed-auto-s.txt")
            text = open(path).read().replace("    16     1024     1.1960", "    16     1024     x.1960")
            open(path, "w").write(text)

        err = broken("bad-number", truncate_row)
        check("fixed-auto-s.txt:" in err, f"bad number names the file and line: {err!r}")

        def short_row(raw):
            with open(os.path.join(raw, "vbatched-uniform-s.txt"), "a") as f:
                f.write("    99     98       300      0.15\n")

        broken("short-row", short_row)

        def long_torch_row(raw):
            with open(os.path.join(raw, "torch-s.txt"), "a") as f:
                f.write("   256     3000     9.0000     100.00 ok 7\n")

        broken("long-torch-row", long_torch_row)
        broken("unknown-name", lambda raw: open(os.path.join(raw, "mystery-s.txt"), "w").write("1 2 3\n"))

        def headless(raw):
            open(os.path.join(raw, "torch-d.txt"), "w").write("     8    16384     0.1029      27.16 ok\n")

        broken("row-before-header", headless)

        def empty(raw):
            for f in os.listdir(raw):
                os.remove(os.path.join(raw, f))

        broken("empty", empty)
    finally:
        shutil.rmtree(tmp)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
