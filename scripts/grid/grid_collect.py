#!/usr/bin/env python3
"""Collects the raw outputs of scripts/grid/bench_grid.sh into one CSV, a summary.md and PNG plots.

    scripts/grid/grid_collect.py OUTDIR

Reads OUTDIR/meta.txt and OUTDIR/raw/*.txt (outputs of `bchol bench`, `bchol bench
--variant interleaved`, `bchol bench --vbatched` and scripts/gpu/peer_torch.py), writes
OUTDIR/grid.csv, OUTDIR/summary.md and OUTDIR/*.png (gnuplot; the scripts and their data
in OUTDIR/plots/). A row that starts with a number but does not parse, a file name it does
not know, or a raw folder without any row is an error (exit status 1, naming file and
line): a grid that silently loses rows would tell a false story. Lines that are neither
rows nor comments (error messages of a run) are kept and listed in summary.md.
Python 3 standard library only.
"""
import csv
import math
import os
import re
import shutil
import subprocess
import sys

FIELDS = ["device", "driver", "date", "commit", "precision", "kind", "impl", "params", "n",
          "batch", "ms", "gflops", "gbs", "check"]
SMALL_N = 64  # effective bandwidth is reported up to this n
PEERS = ["lapack", "torch"]
# bchol runs that solve the problem the peers solve (strided matrices in, factors out)
STRIDED = ["bchol-auto", "bchol-fused", "bchol-separate", "bchol-interleaved"]


class Malformed(Exception):
    pass


def num(tok, where):
    try:
        return float(tok.rstrip("x"))
    except ValueError:
        raise Malformed(f"{where}: \"{tok}\" is not a number")


def read_meta(outdir):
    meta = {}
    path = os.path.join(outdir, "meta.txt")
    if os.path.exists(path):
        for line in open(path):
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                meta[k] = v
    return meta


DEVICE = re.compile(r"^# device \S+ (.*) \(([^,]*), (.*), driver (.*)\), (\d{4}-\d\d-\d\d)\s*$")
TORCH = re.compile(r"^# peer torch (\S+) linalg\.cholesky_ex \(\w\), (.*), (\d{4}-\d\d-\d\d), ")
PEER_TOPO = re.compile(r"^# peer: LAPACKE .* (\d+) threads(?: one per core \((.*)\))?")
NAME = re.compile(r"^(fixed-auto|fixed-variants|ilv-native|ilv-fig\d+|sweep-ib|sweep-tbc|"
                  r"vbatched-uniform|vbatched-gaussian|vbatched-variants-uniform|"
                  r"vbatched-variants-gaussian|torch|torch-vbatched-uniform|"
                  r"torch-vbatched-gaussian)-([sd])\.txt$")
NON_DATA = {"devices.txt", "commands.log", "done.log"}


class Collector:
    def __init__(self, outdir):
        self.outdir = outdir
        self.meta = read_meta(outdir)
        self.rows = []
        self.messages = []
        self.topology = ""
        self.threads = ""

    def add(self, ctx, **kw):
        row = {"device": ctx["device"], "driver": ctx["driver"], "date": ctx["date"],
               "commit": self.meta.get("commit", "unknown"), "precision": ctx["precision"],
               "kind": ctx["kind"], "params": "", "gbs": "", "check": "ok"}
        row.update(kw)
        es = 8 if ctx["precision"] == "d" else 4
        n, ms = row["n"], row["ms"]
        if not ctx["kind"].startswith("vbatched") and ms and ms > 0:
            # from the time (4 decimals) rather than the printed Gflop/s (2 decimals: slow
            # CPU runs print 0.00)
            row["gflops"] = row["batch"] * n ** 3 / 3 / (ms * 1e6)
        if row["gflops"] == 0.0:
            row["gflops"] = ""  # below the table's precision: unknown, never a ratio's divisor
        if (not row["gbs"] and not ctx["kind"].startswith("vbatched") and n <= SMALL_N
                and ms and ms > 0):
            # the stored triangle read and written once, as bench --variant interleaved counts
            row["gbs"] = row["batch"] * n * (n + 1) * es / (ms * 1e6)
        self.rows.append(row)

    def parse(self, path):
        base = os.path.basename(path)
        m = NAME.match(base)
        if not m:
            raise Malformed(f"{path}: unknown raw file name (expected e.g. fixed-auto-s.txt)")
        stem, prec = m.group(1), m.group(2)
        ctx = {"precision": prec, "device": "", "driver": "", "date": self.meta.get("date", ""),
               "kind": "fixed"}
        if stem.startswith("vbatched-") or stem.startswith("torch-vbatched-"):
            ctx["kind"] = "vbatched-" + stem.split("-")[-1]
        elif stem.startswith("sweep-") or stem.startswith("ilv-fig"):
            ctx["kind"] = stem
        header = None
        for no, line in enumerate(open(path), 1):
            where = f"{path}:{no}"
            text = line.rstrip("\n")
            tok = text.split()
            if not tok:
                continue
            if text.startswith("#"):
                d = DEVICE.match(text)
                if d:
                    ctx["device"], ctx["driver"] = d.group(1), f"{d.group(2)} {d.group(4)}"
                    ctx["date"] = d.group(5)
                t = TORCH.match(text)
                if t:
                    ctx["device"], ctx["driver"] = t.group(2), f"torch {t.group(1)} (cuSOLVER)"
                    ctx["date"] = t.group(3)
                p = PEER_TOPO.match(text)
                if p:
                    self.threads = p.group(1)
                    self.topology = p.group(2) or self.topology
                if text.startswith("# exit status"):
                    self.messages.append(f"{base}: {text[2:]}")
                continue
            if tok[0] in ("n", "nmax"):
                header = tok
                continue
            if not re.match(r"^\d+$", tok[0]):
                self.messages.append(f"{base}: {text.strip()}")
                continue
            if header is None or not ctx["device"]:
                raise Malformed(f"{where}: a row before the table's device line and header")
            try:
                if stem.startswith("torch-vbatched"):
                    self.torch_vb_row(ctx, tok, where)
                elif stem == "torch":
                    self.torch_row(ctx, tok, where)
                elif stem.startswith("vbatched-variants"):
                    self.vb_variants_row(ctx, header, tok, where)
                elif stem.startswith("vbatched"):
                    self.vb_row(ctx, header, tok, where)
                elif header[2] == "what":
                    self.ilv_row(ctx, stem, tok, where)
                else:
                    self.fixed_row(ctx, stem, header, tok, where)
            except (IndexError, ValueError) as e:
                raise Malformed(f"{where}: {e}: {text.strip()}")

    def fixed_row(self, ctx, stem, header, tok, where):
        # n batch ms Gflop/s error check variant params... [lapack_ms lapack_Gf speedup]
        n, batch = int(tok[0]), int(tok[1])
        if len(tok) >= 6 and tok[5] == "FAILED" and tok[2] == "-":
            self.add(ctx, impl="bchol-" + tok[6], n=n, batch=batch, ms="", gflops="", check="FAILED")
            return
        compare = "lapack_ms" in header
        peer_ok = True
        if compare and tok[-1] == "0)" and "(peer" in tok:
            tok = tok[:tok.index("(peer")]
            peer_ok = False
        need = 8 + (3 if compare else 0)
        if len(tok) < need:
            raise Malformed(f"{where}: {len(tok)} fields, expected at least {need}")
        end = len(tok) - 3 if compare else len(tok)
        params = " ".join(tok[7:end])
        kind_impl = "bchol-" + tok[6]
        if stem == "ilv-native":
            raise Malformed(f"{where}: a fixed-size row in an interleaved file")
        self.add(ctx, impl=kind_impl, params=params, n=n, batch=batch, ms=num(tok[2], where),
                 gflops=num(tok[3], where), check=tok[5])
        if compare:
            pctx = dict(ctx, device=self.cpu_device(), driver="LAPACKE + OpenMP")
            self.add(pctx, impl="lapack", params=f"{self.threads} threads", n=n, batch=batch,
                     ms=num(tok[-3], where), gflops=num(tok[-2], where),
                     check="ok" if peer_ok else "FAILED")

    def ilv_row(self, ctx, stem, tok, where):
        # n batch what nb look unrol layout chunk math first_s ms Gflop/s GB/s in out strided
        # str_Gf error check
        n, batch, what = int(tok[0]), int(tok[1]), tok[2]
        if len(tok) > 9 and tok[9].startswith("FAILED"):
            self.add(ctx, impl="bchol-interleaved-native", params=" ".join(tok[3:9]), n=n,
                     batch=batch, ms="", gflops="", check="FAILED")
            return
        if len(tok) != 19:
            raise Malformed(f"{where}: {len(tok)} fields, expected 19")
        if what == "lapack":
            pctx = dict(ctx, device=self.cpu_device(), driver="LAPACKE + OpenMP")
            self.add(pctx, impl="lapack", n=n, batch=batch, ms=num(tok[10], where),
                     gflops=num(tok[11], where), check=tok[18])
            return
        impl = "bchol-interleaved-native" if what == "interleaved" else "bchol-" + what
        params = f"nb{tok[3]} {tok[4]} {tok[5]} {tok[6]} c{tok[7]} {tok[8]}" if what == "interleaved" else ""
        self.add(ctx, impl=impl, params=params, n=n, batch=batch, ms=num(tok[10], where),
                 gflops=num(tok[11], where), gbs=num(tok[12], where), check=tok[18])

    def vb_row(self, ctx, header, tok, where):
        # nmax max_n batch [tbc shape order] greedy-cl greedy-ag lazy-cl lazy-ag padded
        # default_ms vb/pad lazy/gc error check default [lapack vb/lapack]  (tbc, shape and
        # order since the fused kernel packs matrices; the rows are read from greedy-cl on)
        nmax, batch = int(tok[0]), int(tok[2])
        if tok[-1] == "FAILED" and tok[1] == "-":
            self.add(ctx, impl="bchol-auto", n=nmax, batch=batch, ms="", gflops="", check="FAILED")
            return
        if "default" not in header:
            raise Malformed(f"{where}: the vbatched table has no default column (an older bchol?)")
        compare = "lapack" in header
        peer_ok = True
        if compare and tok[-1] == "0)" and "(peer" in tok:
            tok = tok[:tok.index("(peer")]
            peer_ok = False
        if "greedy-cl" not in header:
            raise Malformed(f"{where}: the vbatched table has no greedy-cl column")
        first = header.index("greedy-cl")
        packing = "tbc " + " ".join(tok[3:first]) + " " if first > 3 else ""
        need = first + 11 + (2 if compare else 0)
        if len(tok) != need:
            raise Malformed(f"{where}: {len(tok)} fields, expected {need}")
        tok = tok[:3] + tok[first:]
        versions = header[first:first + 4]
        gf = [num(t, where) for t in tok[3:7]]
        default, default_ms = tok[13], num(tok[8], where)
        if default not in versions:
            raise Malformed(f"{where}: default version \"{default}\" is not a column")
        flops = gf[versions.index(default)] * default_ms * 1e6  # sum of n^3/3 of the batch

        def ms_of(g):
            return flops / (g * 1e6) if g > 0 else ""

        check = tok[12]
        params = f"{packing}max_n {tok[1]}"
        self.add(ctx, impl="bchol-auto", params=f"{default} {params}", n=nmax, batch=batch,
                 ms=default_ms, gflops=gf[versions.index(default)], check=check)
        for v, g in zip(versions, gf):
            self.add(ctx, impl="bchol-vb-" + v, params=params, n=nmax, batch=batch, ms=ms_of(g),
                     gflops=g, check=check)
        if tok[7] != "-":
            g = num(tok[7], where)
            self.add(ctx, impl="bchol-padded", params=f"n = {nmax}", n=nmax, batch=batch,
                     ms=ms_of(g), gflops=g, check=check)
        if compare:
            g = num(tok[14], where)
            pctx = dict(ctx, device=self.cpu_device(), driver="LAPACKE + OpenMP")
            self.add(pctx, impl="lapack", params=params, n=nmax, batch=batch, ms=ms_of(g),
                     gflops=g, check="ok" if peer_ok else "FAILED")

    def vb_variants_row(self, ctx, header, tok, where):
        # nmax max_n batch crossover above <variant columns> auto/best error check; the
        # table has no times: ms stays empty ('-' = the fused kernel cannot hold max_n)
        if "crossover" not in header:
            raise Malformed(f"{where}: a vbatched --variant file without its table")
        names = header[5:-3]
        nmax, batch = int(tok[0]), int(tok[2])
        if len(tok) != len(header):
            raise Malformed(f"{where}: {len(tok)} fields, expected {len(header)}")
        check = tok[-1]
        if tok[1] == "-":
            for v in names:
                self.add(ctx, impl="bchol-vb-auto" if v == "auto" else "bchol-" + v, n=nmax,
                         batch=batch, ms="", gflops="", check="FAILED")
            return
        params = f"crossover {tok[3]}, {tok[4]} above, max_n {tok[1]}"
        for v, t in zip(names, tok[5:-3]):
            if t == "-":
                continue
            # auto here is the same call as the versions table's default: a cross-check
            self.add(ctx, impl="bchol-vb-auto" if v == "auto" else "bchol-" + v, params=params,
                     n=nmax, batch=batch, ms="", gflops=num(t, where), check=check)

    def torch_row(self, ctx, tok, where):
        if len(tok) != 5:
            raise Malformed(f"{where}: {len(tok)} fields, expected 5")
        self.add(ctx, impl="torch", n=int(tok[0]), batch=int(tok[1]), ms=num(tok[2], where),
                 gflops=num(tok[3], where), check=tok[4])

    def torch_vb_row(self, ctx, tok, where):
        if len(tok) != 6:
            raise Malformed(f"{where}: {len(tok)} fields, expected 6")
        self.add(ctx, impl="torch", params=f"max_n {tok[1]}", n=int(tok[0]), batch=int(tok[2]),
                 ms=num(tok[3], where), gflops=num(tok[4], where), check=tok[5])

    def cpu_device(self):
        cpu = self.meta.get("cpu") or "CPU"
        return f"{cpu} ({self.topology})" if self.topology else cpu

    def collect(self):
        raw = os.path.join(self.outdir, "raw")
        if not os.path.isdir(raw):
            raise Malformed(f"{raw}: no such folder")
        # the peer line names the topology; read the auto tables (which carry it) first
        names = sorted(f for f in os.listdir(raw) if f not in NON_DATA and not f.startswith("."))
        names.sort(key=lambda f: not f.startswith("fixed-auto"))
        for f in names:
            self.parse(os.path.join(raw, f))
        if not self.rows:
            raise Malformed(f"{raw}: no benchmark rows")
        # a point measured twice (a run cut by a deadline, then resumed): the last row wins
        last = {}
        for r in self.rows:
            last[(r["precision"], r["kind"], r["impl"], r["params"], r["n"], r["batch"])] = r
        kept = set(map(id, last.values()))
        self.rows = [r for r in self.rows if id(r) in kept]


# ---------------------------------------------------------------- output


def fmt(v, digits=2):
    if v == "" or v is None:
        return "-"
    if isinstance(v, float):
        # slow CPU points keep two significant digits instead of printing 0.00
        return f"{v:.2g}" if 0 < abs(v) < 0.1 and digits == 2 else f"{v:.{digits}f}"
    return str(v)


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{r[k]:.6g}" if isinstance(r[k], float) else r[k]) for k in FIELDS})


def index(rows):
    """(precision, kind, impl, n) -> row (the last one wins)."""
    out = {}
    for r in rows:
        if r["gflops"] != "" and r["check"] == "ok":
            out[(r["precision"], r["kind"], r["impl"], r["n"])] = r
    return out


def best_of(idx, prec, kind, impls, n):
    cands = [idx[(prec, kind, i, n)] for i in impls if (prec, kind, i, n) in idx]
    return max(cands, key=lambda r: r["gflops"]) if cands else None


def sizes_of(rows, prec, kind):
    return sorted({r["n"] for r in rows if r["precision"] == prec and r["kind"] == kind})


def impls_of(rows, prec, kind):
    seen = []
    for r in rows:
        if r["precision"] == prec and r["kind"] == kind and r["impl"] not in seen:
            seen.append(r["impl"])
    return seen


PREC = {"s": "float", "d": "double"}


def name_of(r):
    """bchol-fused -> fused; the auto row names what the dispatcher ran."""
    name = r["impl"][6:]
    return f"auto: {r['params'].split(' ')[0]}" if name == "auto" and r["params"] else name


def ratio(x):
    return f"{x:.2f}x" if x >= 0.1 else f"{x:.2g}x"


def comparison_table(idx, rows, prec, kind, lines, behind):
    """Best bchol against each peer per n; returns the speedup series for the plot."""
    sizes = sizes_of(rows, prec, kind)
    peers = [p for p in PEERS if any(k[:3] == (prec, kind, p) for k in idx)]
    impls = STRIDED if kind == "fixed" else ["bchol-auto", "bchol-fused", "bchol-separate"]
    label = "n" if kind == "fixed" else "nmax"
    lines.append(f"| {label} | batch | bchol auto (choice) | best bchol | "
                 + " | ".join(f"{p} Gflop/s" for p in peers)
                 + " | best peer | speedup | |")
    lines.append("|" + "---|" * (7 + len(peers)))
    series = []
    for n in sizes:
        auto = idx.get((prec, kind, "bchol-auto", n))
        best = best_of(idx, prec, kind, impls, n)
        peer = best_of(idx, prec, kind, peers, n)
        if not best:
            lines.append(f"| {n} | - | FAILED | FAILED |" + " - |" * len(peers) + " - | - | |")
            continue
        cells = [str(n), str(best["batch"]),
                 f"{fmt(auto['gflops'])} ({auto['params'].split(' ')[0]})" if auto else "-",
                 f"{fmt(best['gflops'])} ({name_of(best)})"]
        for p in peers:
            r = idx.get((prec, kind, p, n))
            cells.append(fmt(r["gflops"]) if r else "-")
        mark = ""
        if peer:
            sp = best["gflops"] / peer["gflops"]
            cells += [peer["impl"], ratio(sp)]
            if sp < 1:
                mark = f"**behind {peer['impl']}**"
                behind.append(f"{PREC[prec]} {kind} {label} = {n}: best bchol ({name_of(best)}) "
                              f"{fmt(best['gflops'])} Gflop/s, {peer['impl']} "
                              f"{fmt(peer['gflops'])} Gflop/s ({ratio(sp)})")
            series.append((n, sp, auto["gflops"] / peer["gflops"] if auto else float("nan")))
        else:
            cells += ["-", "-"]
        if auto and auto["gflops"] < 0.9 * best["gflops"]:
            # the dispatcher left speed on the table: say so next to the peer mark
            note = f"auto at {100 * auto['gflops'] / best['gflops']:.0f}% of {name_of(best)}"
            mark = f"{mark}; {note}" if mark else note
        cells.append(mark)
        lines.append("| " + " | ".join(cells) + " |")
    return series


def bandwidth_table(idx, rows, prec, lines):
    sizes = [n for n in sizes_of(rows, prec, "fixed") if n <= SMALL_N]
    impls = [i for i in ["bchol-auto", "bchol-interleaved-native", "lapack", "torch"]
             if any(k[:3] == (prec, "fixed", i) for k in idx)]
    if not sizes or not impls:
        return
    lines.append(f"Effective bandwidth, GB/s (the stored triangle read and written once), n <= {SMALL_N}:")
    lines.append("")
    lines.append("| n | " + " | ".join(impls) + " |")
    lines.append("|" + "---|" * (1 + len(impls)))
    for n in sizes:
        lines.append(f"| {n} | " + " | ".join(
            fmt(idx[(prec, "fixed", i, n)]["gbs"], 1) if (prec, "fixed", i, n) in idx else "-"
            for i in impls) + " |")
    lines.append("")


def sweep_table(rows, prec, kind, key, lines):
    """Gflop/s per n (rows) and per value of the swept parameter (columns)."""
    sel = [r for r in rows if r["precision"] == prec and r["kind"] == kind]
    if not sel:
        return None
    vals, grid = [], {}
    for r in sel:
        v = key(r)
        if v not in vals:
            vals.append(v)
        grid[(r["n"], v)] = r
    sizes = sorted({r["n"] for r in sel})
    lines.append("| n | " + " | ".join(vals) + " |")
    lines.append("|" + "---|" * (1 + len(vals)))
    for n in sizes:
        lines.append(f"| {n} | " + " | ".join(
            (fmt(grid[(n, v)]["gflops"]) if grid[(n, v)]["check"] == "ok" else "FAILED")
            if (n, v) in grid else "-" for v in vals) + " |")
    lines.append("")
    return vals, sizes, grid


FIGURE_FIELD = {"13": (5, "math"), "15": (0, "nb"), "16": (1, "looking"), "17": (3, "layout"),
                "18": (4, "chunk"), "19": (2, "unroll")}


def figure_key(fig):
    pos = FIGURE_FIELD.get(fig, (0, "nb"))[0]
    return lambda r: r["params"].split(" ")[pos] if r["impl"] == "bchol-interleaved-native" else r["impl"][6:]


def param_key(name):
    def key(r):
        m = re.search(name + r"(\d+)", r["params"])
        # a failed run prints no parameters (e.g. tbc 8 beyond local memory at n = 128)
        return f"{name} {m.group(1)}" if m else (r["params"] or "failed")
    return key


# ---------------------------------------------------------------- plots


class Plots:
    def __init__(self, outdir):
        self.outdir = outdir
        self.dir = os.path.join(outdir, "plots")
        self.made = []
        self.gnuplot = shutil.which("gnuplot")
        self.scripts = []
        if self.gnuplot:
            terms = subprocess.run([self.gnuplot, "-e", "set terminal"], capture_output=True,
                                   text=True).stdout + subprocess.run(
                [self.gnuplot, "-e", "set terminal"], capture_output=True, text=True).stderr
            self.term = "pngcairo size 900,560 font ',10'" if "pngcairo" in terms else "png size 900,560"

    def data(self, name, header, table):
        os.makedirs(self.dir, exist_ok=True)
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write("# " + " ".join(header) + "\n")
            for row in table:
                f.write(" ".join(fmt(v, 6) if isinstance(v, float) and not math.isnan(v) else
                                 ("NaN" if isinstance(v, float) else str(v)) for v in row) + "\n")
        return os.path.join("plots", name)  # the scripts run in OUTDIR: relocatable

    def plot(self, png, title, xlabel, ylabel, dat, columns, logx=True, logy=True, xtic=False,
             extra=""):
        """columns: (column number in dat, title) pairs; x is column 1 (or labels). The
        script runs in OUTDIR: `cd OUTDIR && gnuplot plots/NAME.gp` redraws one plot."""
        os.makedirs(self.dir, exist_ok=True)
        gp = os.path.join(self.dir, png.replace(".png", ".gp"))
        lines = [f"set terminal {self.term}" if self.gnuplot else "",
                 f"set output '{png}'",
                 f"set title \"{title}\" noenhanced", f"set xlabel '{xlabel}'", f"set ylabel '{ylabel}'",
                 "set key outside right top noenhanced", "set grid", "set datafile missing 'NaN'"]
        if logx and not xtic:
            lines.append("set logscale x 2")
        if logy:
            lines.append("set logscale y")
        if extra:
            lines.append(extra)
        if xtic:
            plots = [f"'{dat}' using 0:{c}:xtic(1) with linespoints lw 2 title '{t}'" for c, t in columns]
        else:
            plots = [f"'{dat}' using 1:{c} with linespoints lw 2 title '{t}'" for c, t in columns]
        lines.append("plot " + ", \\\n     ".join(plots))
        with open(gp, "w") as f:
            f.write("\n".join(lines) + "\n")
        self.scripts.append((gp, png))

    def render(self):
        if not self.gnuplot:
            return "gnuplot not found: no PNG written (the scripts are in plots/)"
        for gp, png in self.scripts:
            r = subprocess.run([self.gnuplot, os.path.relpath(gp, self.outdir)], capture_output=True,
                               text=True, cwd=self.outdir)
            if r.returncode == 0 and os.path.exists(os.path.join(self.outdir, png)):
                self.made.append(png)
            else:
                return f"gnuplot failed on {gp}: {r.stderr.strip()[:300]}"
        return ""


def series_plot(plots, rows, idx, prec, kind, png, title, impls, xlabel):
    sizes = sizes_of(rows, prec, kind)
    impls = [i for i in impls if any(k[:3] == (prec, kind, i) for k in idx)]
    if not sizes or not impls:
        return
    table = [[n] + [idx[(prec, kind, i, n)]["gflops"] if (prec, kind, i, n) in idx else float("nan")
                    for i in impls] for n in sizes]
    dat = plots.data(png.replace(".png", ".dat"), [xlabel] + impls, table)
    plots.plot(png, title, xlabel, "Gflop/s", dat, [(c + 2, i) for c, i in enumerate(impls)])


# ---------------------------------------------------------------- main


def main(argv):
    if len(argv) != 2 or argv[1].startswith("-"):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    outdir = argv[1]
    c = Collector(outdir)
    try:
        c.collect()
    except (Malformed, OSError) as e:
        print(f"grid_collect.py: {e}", file=sys.stderr)
        return 1
    rows, meta = c.rows, c.meta
    write_csv(os.path.join(outdir, "grid.csv"), rows)
    idx = index(rows)
    plots = Plots(outdir)

    devices = sorted({(r["device"], r["driver"]) for r in rows})
    dates = sorted({r["date"] for r in rows})
    lines = ["# Benchmark grid", ""]
    lines.append(f"- commit: {meta.get('commit', 'unknown')}; date: {', '.join(dates)}; "
                 f"mode: {meta.get('mode', '?')}; median of {meta.get('reps', '?')} runs after "
                 f"{meta.get('warmup', '?')} warm-up")
    for d, drv in devices:
        lines.append(f"- device: {d} ({drv})")
    if c.topology:
        lines.append(f"- CPU peer: {c.threads} threads, one per physical core, bound ({c.topology})")
    if meta.get("torch"):
        lines.append(f"- torch: {meta['torch']}")
    if meta.get("skipped"):
        lines.append(f"- cut at the deadline: {meta.get('skipped_runs', 'some')} runs did not start; "
                     f"files missing runs: {' '.join(sorted(set(meta['skipped'].split())))}")
    if meta.get("batch_div", "1") != "1":
        lines.append(f"- batches divided by {meta['batch_div']}")
    lines.append(f"- command: `{meta.get('command', 'scripts/grid/bench_grid.sh')}`; rows: {len(rows)} "
                 "in grid.csv")
    lines.append("")
    lines.append("Gflop/s count n^3/3 per matrix (vbatched: the real orders). bchol times are "
                 "device time (OpenCL profiling events), torch's CUDA events, the LAPACKE loop's "
                 "wall time. \"best bchol\" is the fastest variant on strided data (auto, fused, "
                 "separate, interleaved with its conversions); speedup = best bchol / best peer.")
    lines.append("")
    behind = []
    speed = {}
    for prec in ("s", "d"):
        if not any(r["precision"] == prec for r in rows):
            continue
        if sizes_of(rows, prec, "fixed"):
            lines += [f"## Fixed size, {PREC[prec]}", ""]
            speed[(prec, "fixed")] = comparison_table(idx, rows, prec, "fixed", lines, behind)
            lines.append("")
            bandwidth_table(idx, rows, prec, lines)
            series_plot(plots, rows, idx, prec, "fixed", f"gflops-fixed-{prec}.png",
                        f"potrf, fixed size, {PREC[prec]}: Gflop/s against n",
                        STRIDED + ["bchol-interleaved-native"] + PEERS, "n")
        for dist in ("uniform", "gaussian"):
            kind = "vbatched-" + dist
            if not sizes_of(rows, prec, kind):
                continue
            lines += [f"## Variable size ({dist} orders in [1, nmax]), {PREC[prec]}", ""]
            speed[(prec, kind)] = comparison_table(idx, rows, prec, kind, lines, behind)
            lines.append("")
            lines.append("ETM and scheduling versions (Abdelfattah et al. 2016, Figures 4 and 6), "
                         "Gflop/s:")
            lines.append("")
            sweep_table([r for r in rows if r["impl"].startswith("bchol-vb-") or r["impl"] == "bchol-padded"],
                        prec, kind, lambda r: r["impl"][6:], lines)
            series_plot(plots, rows, idx, prec, kind, f"vbatched-{dist}-{prec}.png",
                        f"potrf vbatched, {dist} orders, {PREC[prec]}: Gflop/s against nmax",
                        ["bchol-vb-greedy-cl", "bchol-vb-greedy-ag", "bchol-vb-lazy-cl",
                         "bchol-vb-lazy-ag", "bchol-padded", "bchol-fused", "bchol-separate"]
                        + PEERS, "nmax")
        # speedup over the best peer, every kind on one plot
        kinds = [k for k in ("fixed", "vbatched-uniform", "vbatched-gaussian") if speed.get((prec, k))]
        if kinds:
            xs = sorted({n for k in kinds for n, _, _ in speed[(prec, k)]})
            cols, table = [], []
            for k in kinds:
                cols += [f"{k} best", f"{k} auto"] if k == "fixed" else [f"{k} default"]
            for n in xs:
                row = [n]
                for k in kinds:
                    d = {m: (a, b) for m, a, b in speed[(prec, k)]}
                    a, b = d.get(n, (float("nan"), float("nan")))
                    row += [a, b] if k == "fixed" else [b if not math.isnan(b) else a]
                table.append(row)
            dat = plots.data(f"speedup-{prec}.dat", ["n"] + cols, table)
            plots.plot(f"speedup-{prec}.png", f"bchol over the best peer, {PREC[prec]} (1 = even)",
                       "n (vbatched: nmax)", "speedup", dat,
                       [(i + 2, t) for i, t in enumerate(cols)],
                       extra="set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc 'black'")
        # the seeds' sweeps
        for kind, name, key, xl in (("sweep-ib", "fused kernel, ib sweep", param_key("ib"), "ib"),
                                    ("sweep-tbc", "fused kernel, tbc sweep", param_key("tbc"), "tbc")):
            if not any(r["precision"] == prec and r["kind"] == kind for r in rows):
                continue
            lines += [f"## Seed sweep: {name}, {PREC[prec]} (Gflop/s)", ""]
            vals, sizes, grid = sweep_table(rows, prec, kind, key, lines)
            table = [[v.split()[-1]] + [grid[(n, v)]["gflops"] if (n, v) in grid and grid[(n, v)]["gflops"] != ""
                                        else float("nan") for n in sizes] for v in vals
                     if v.split()[-1].isdigit()]
            dat = plots.data(f"{kind}-{prec}.dat", [xl] + [f"n={n}" for n in sizes], table)
            plots.plot(f"{kind}-{prec}.png", f"{name}, {PREC[prec]}", xl, "Gflop/s", dat,
                       [(i + 2, f"n = {n}") for i, n in enumerate(sizes)], logy=False, xtic=True)
        figs = sorted({r["kind"][7:] for r in rows if r["kind"].startswith("ilv-fig") and r["precision"] == prec},
                      key=int)
        for fig in figs:
            kind = "ilv-fig" + fig
            field = FIGURE_FIELD.get(fig, (0, "?"))[1]
            lines += [f"## Seed sweep: interleaved, Figure {fig} ({field}), {PREC[prec]} (Gflop/s, "
                      "data already interleaved)", ""]
            vals, sizes, grid = sweep_table(rows, prec, kind, figure_key(fig), lines)
            table = [[v] + [grid[(n, v)]["gflops"] if (n, v) in grid and grid[(n, v)]["gflops"] != ""
                            else float("nan") for n in sizes] for v in vals]
            dat = plots.data(f"{kind}-{prec}.dat", [field] + [f"n={n}" for n in sizes], table)
            plots.plot(f"{kind}-{prec}.png", f"interleaved, Figure {fig}: {field}, {PREC[prec]}", field,
                       "Gflop/s", dat, [(i + 2, f"n = {n}") for i, n in enumerate(sizes)],
                       logy=False, xtic=True)

    problem = plots.render()
    lines += ["## Where bchol is behind", ""]
    lines += [f"- {b}" for b in behind] if behind else ["- nowhere in this grid"]
    lines.append("")
    lines += ["## Plots", ""]
    lines += [f"![{p}]({p})" for p in plots.made] if plots.made else [f"- none: {problem}"]
    if problem and plots.made:
        lines.append(f"- {problem}")
    lines.append("")
    if c.messages:
        lines += ["## Messages from the runs", ""] + [f"- `{m}`" for m in c.messages] + [""]
    with open(os.path.join(outdir, "summary.md"), "w") as f:
        f.write("\n".join(lines))
    print(f"grid_collect.py: {len(rows)} rows -> {os.path.join(outdir, 'grid.csv')}, summary.md, "
          f"{len(plots.made)} plots")
    return 1 if problem and plots.gnuplot else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
