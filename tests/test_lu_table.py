#!/usr/bin/env python3
"""scripts/gpu/lu_table.py on small hand-written outputs of `bchol bench --routine` and of
scripts/gpu/peer_torch_lu.py: the Gflop/s columns found by name (getri: inv_Gf on both
sides), ratios bchol/torch, unsupported and failed rows, getri on LAPACKE's factors, a
stderr line among the rows, a missing or broken peer file.
Usage: test_lu_table.py path/to/lu_table.py"""
import os
import subprocess
import sys
import tempfile

FILES = {
    "lu-getrf-nvidia-s.txt": """# device 1:0 NVIDIA H200 (nvidia, NVIDIA SM9.0, driver 580), 2026-11-27
# sgetrf_batched (m = n), median of 10 runs after 2 warm-up, device time from OpenCL profiling events
     n    batch         ms    Gflop/s  residual check        lapack_ms  lapack_Gf  speedup
     4    16384     0.0100     100.00     0.221 ok              0.0870       0.02    1.85x
    64    16384     1.0000     400.00     0.112 FAILED          0.2120       4.52    0.13x
bchol bench --routine getrf: n = 128: matrix size not supported on this device: ...
   128     3000          -          -         - unsupported
""",
    "torch-lu-getrf-s.txt": """# peer torch 2.5 linalg.lu_factor_ex (s), NVIDIA H200, 2026-11-27
     n    batch         ms    Gflop/s  residual check
     4    16384     0.0100      50.00     0.1 ok
    64    16384     0.0100     800.00     0.1 ok
   128     3000     1.0000    1000.00     0.1 ok
""",
    "lu-getri-nvidia-d.txt": """# device 1:0 NVIDIA H200 (nvidia, NVIDIA SM9.0, driver 580), 2026-11-27
     n    batch         ms    Gflop/s     inv_ms     inv_Gf  residual check
     8    16384     0.0200      30.00     0.0400      60.00     0.192 ok
   512     1000   368.6288       0.97          -          -   0.00746 ok          (factors from LAPACKE: bchol's getrf does not take n = 512 here)
""",
    "torch-lu-getri-d.txt": """# peer torch 2.5 linalg.inv_ex (factor + inverse) (d), NVIDIA H200, 2026-11-27
     n    batch     inv_ms     inv_Gf  residual check
     8    16384     0.0100      20.00     0.1 ok
   512     1000     1.0000     500.00     0.1 ok
""",
    "lu-gesv-nvidia-s.txt": """# device 1:0 NVIDIA H200
     n    batch  nrhs         ms    Gflop/s  residual check
    16    16384     1     0.0100      12.50     0.4 ok
""",
    "torch-lu-gesv-s.txt": """Traceback (most recent call last):
ModuleNotFoundError: No module named 'torch'
""",
}

WANT = [
    "### getrf, float",
    "| 4 | 100.00 | 50.00 | 2.00x |",
    "| 64 | 400.00 (FAILED) | 800.00 | 0.50x |",
    "| 128 | unsupported | 1000.00 | - |",
    "geometric mean ratio 2.00x over 1 sizes (both ok)",
    "(missing: lu-getrf-nvidia-d.txt)",
    "### getri, double (the inverse: getrf + getri against inv_ex, 2n^3)",
    "| 8 | 60.00 | 20.00 | 3.00x |",
    "| 512 | - (getri alone 0.97) | 500.00 | - |",
    "| 16 | 12.50 | - | - |",
    "(no rows in torch-lu-gesv-s.txt; its last line: ModuleNotFoundError: No module named 'torch')",
]


def main():
    script = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        for name, text in FILES.items():
            with open(os.path.join(d, name), "w", encoding="utf-8") as f:
                f.write(text)
        out = subprocess.run([sys.executable, script, d, "getrf", "getri", "gesv"], check=True,
                             capture_output=True, text=True).stdout
    missing = [w for w in WANT if w not in out]
    for w in missing:
        print(f"FAILED: not in the output: {w}")
    if missing:
        print(out)
        return 1
    print(f"ok: {len(WANT)} expected lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
