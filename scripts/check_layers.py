#!/usr/bin/env python3
"""Checks the library's layering (docs/ARCHITECTURE.md): a file in host/<layer>/ or backends/
includes only headers of its own folder or of lower layers, no folder holds more than
MAX_FILES files, docs/ fewer than MAX_DOCS. Exit 1 with one line per violation. Usage: scripts/check_layers.py [root]"""
import os
import re
import sys

# Lower rank = lower layer. Layers of equal rank are siblings and must not include each
# other (the factorizations build on blas and layout, never on one another).
RANK = {"backends": 0, "core": 1, "tuning": 2, "blas": 3, "layout": 3, "chol": 4, "lu": 4, "qr": 4}
MAX_FILES = 30  # "about 25" per folder; past this the folder wants splitting
MAX_DOCS = 150
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(root, path):
    rel = os.path.relpath(path, root).split(os.sep)
    if rel[0] == "backends":
        return "backends"
    if rel[0] == "host" and len(rel) > 2:
        return rel[1]
    return None


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    root = os.path.abspath(root)
    bad = []
    for top in ("host", "backends", "cl_kernels", "include", "tests", "cli", "scripts", "docs"):
        for d, subdirs, files in os.walk(os.path.join(root, top)):
            subdirs[:] = [s for s in subdirs if s not in ("corpus", "results")]  # data, not code
            if len(files) > MAX_FILES and top != "docs":
                bad.append(f"{os.path.relpath(d, root)}: {len(files)} files (at most {MAX_FILES})")
    docs = sum(len(f) for _, _, f in os.walk(os.path.join(root, "docs")))
    if docs >= MAX_DOCS:
        bad.append(f"docs: {docs} files (fewer than {MAX_DOCS}: results no current document cites go)")
    for top in ("host", "backends"):
        for d, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith((".c", ".h")):
                    continue
                path = os.path.join(d, name)
                me = layer_of(root, path)
                rel = os.path.relpath(path, root)
                if me not in RANK:
                    bad.append(f"{rel}: not in a known layer folder ({', '.join(RANK)})")
                    continue
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                for inc in INCLUDE.findall(text):
                    if inc == "bchol.h":
                        continue
                    parts = inc.split("/")
                    if len(parts) == 1:  # a header of the same folder
                        if not os.path.exists(os.path.join(d, inc)):
                            bad.append(f'{rel}: includes "{inc}", not in its folder (name the layer: "core/{inc}")')
                        continue
                    target = parts[0]
                    if target not in RANK:
                        bad.append(f'{rel}: includes "{inc}" of no known layer')
                    elif target != me and RANK[target] >= RANK[me]:
                        bad.append(f'{rel} ({me}) includes "{inc}" ({target}): a layer includes only lower layers')
    for line in bad:
        print(line)
    print(f"check_layers: {'%d violations' % len(bad) if bad else 'layers as documented'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
