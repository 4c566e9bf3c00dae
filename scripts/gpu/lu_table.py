#!/usr/bin/env python3
"""Collects the `lu` step of device_run.sh: for each routine and precision, reads bchol's
table (`bchol bench --routine R`, file lu-R-nvidia-P.txt) and the torch peer's
(scripts/gpu/peer_torch_lu.py, file torch-lu-R-P.txt) from the folder given, and prints one
markdown table: n | bchol Gflop/s | torch Gflop/s | ratio (bchol / torch). getri compares the
inverse from A (bchol's getrf + getri, column inv_Gf, against torch.linalg.inv_ex), both
counting 2n^3. A row whose check is not ok shows its word beside the number; a size one side
lacks (bchol: unsupported) shows "-"; the geometric mean of the ratios takes the sizes
where both are ok. Columns are found by the tables' header names.

Usage: lu_table.py FOLDER [ROUTINE ...]   (default getrf gesv getri getrs)
"""
import math
import os
import sys

PRECISIONS = (("s", "float"), ("d", "double"))


def read_table(path):
    """{n: {column: text}} from the first header line starting with "n" and the rows under
    it that start with an integer; the '#' lines as the description."""
    rows, head, notes, last = {}, None, [], ""
    if not os.path.exists(path):
        return None, ["(missing: %s)" % os.path.basename(path)]
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            t = line.split()
            if not t:
                continue
            last = line.strip()
            if t[0].startswith("#"):
                notes.append(line.strip())
            elif head is None and t[0] == "n":
                head = t
            elif head is not None and t[0].isdigit():
                rows[int(t[0])] = dict(zip(head, t))
    if not rows:  # a run that failed before its table: say how it ended
        notes.insert(0, f"(no rows in {os.path.basename(path)}; its last line: {last or 'none'})")
    return rows, notes


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def gflops(row, column):
    """The Gflop/s text of a row, its number (None if none) and whether its check is ok."""
    if row is None:
        return "-", None, False
    check = row.get("check", "?")
    num = number(row.get(column))
    if num is None:
        alone = number(row.get("Gflop/s")) if column == "inv_Gf" else None
        if alone is not None and check == "ok":  # getri on LAPACKE's factors: no inverse time
            return f"- (getri alone {alone:.2f})", None, True
        return (check if check != "ok" else "-"), None, False
    return (f"{num:.2f}" if check == "ok" else f"{num:.2f} ({check})"), num, check == "ok"


def table(folder, routine, p, name):
    ours, our_notes = read_table(os.path.join(folder, f"lu-{routine}-nvidia-{p}.txt"))
    peer, peer_notes = read_table(os.path.join(folder, f"torch-lu-{routine}-{p}.txt"))
    column = "inv_Gf" if routine == "getri" else "Gflop/s"
    what = " (the inverse: getrf + getri against inv_ex, 2n^3)" if routine == "getri" else ""
    print(f"### {routine}, {name}{what}\n")
    for note in (our_notes[:1] + peer_notes[:1]):
        print(f"    {note}")
    print()
    if ours is None and peer is None:
        print("(no output)\n")
        return
    print("| n | bchol Gflop/s | torch Gflop/s | ratio |")
    print("|---:|---:|---:|---:|")
    logs = []
    for n in sorted(set(ours or {}) | set(peer or {})):
        a_text, a, a_ok = gflops((ours or {}).get(n), column)
        b_text, b, b_ok = gflops((peer or {}).get(n), column)
        ratio = "-"
        if a is not None and b:
            ratio = f"{a / b:.2f}x"
            if a > 0 and a_ok and b_ok:
                logs.append(math.log(a / b))
        print(f"| {n} | {a_text} | {b_text} | {ratio} |")
    if logs:
        print(f"\ngeometric mean ratio {math.exp(sum(logs) / len(logs)):.2f}x over {len(logs)} sizes "
              "(both ok)")
    print()


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    folder = sys.argv[1]
    for routine in sys.argv[2:] or ["getrf", "gesv", "getri", "getrs"]:
        for p, name in PRECISIONS:
            table(folder, routine, p, name)


if __name__ == "__main__":
    main()
