#!/usr/bin/env python3
"""check_layout.py BASELINE DUMP_PROGRAM [--update]: the structs of the C ABI against the stored baseline.

The baseline (tests/data/abi_layout.txt) is the layout of the last release, a line an entry: "type field
offset size kind" (kind 1 int, 2 int64_t, 3 double, 4 char, 5 struct; field "-": the struct's size).
A caller compiled against that release reads and writes those offsets, so every field of the baseline must
be where it was, as large and of its kind: a field inserted before it, moved, resized, retyped or removed
fails, as does a struct removed. Fields after the baseline's last one and new structs are growth, listed;
a frozen struct (nested in another, or passed as an array: scripts/abi/growth.py's struct_kinds) may not grow
at all. A caller's shorter struct still works by the ABI's scheme (docs/api.md, "How the ABI grows"), which
tests/c/test_abi_growth.c and abi_previous_caller test.
--update writes the current layout as the new baseline (at a release, on purpose).
"""
import os
import subprocess
import sys


def frozen_structs():
    """The structs that may never grow, from the spec (scripts/abi/growth.py, gen-abi.py's module)."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
    from abi.common import load_spec
    from abi.growth import struct_kinds
    return struct_kinds(load_spec())[1]


def read(lines):
    structs = {}
    for line in lines:
        if not line.strip() or line.startswith("#"):
            continue
        t, f, off, size, kind = line.split()
        s = structs.setdefault(t, {"size": None, "fields": {}})
        if f == "-":
            s["size"] = int(size)
        else:
            s["fields"][f] = (int(off), int(size), int(kind))
    return structs


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    baseline_path, program = argv[0], argv[1]
    dump = subprocess.run([program], check=True, capture_output=True, text=True).stdout
    if "--update" in argv[2:]:
        with open(baseline_path, "w") as f:
            f.write("# the C ABI's struct layouts at the last release: type field offset size kind "
                    "(tests/tools/check_layout.py)\n" + dump)
        print(f"check_layout: {baseline_path} updated")
        return 0
    with open(baseline_path) as f:
        old = read(f.read().splitlines())
    new = read(dump.splitlines())
    broken, grown = [], []
    frozen = frozen_structs()
    for t, s in old.items():
        if t not in new:
            broken.append(f"{t}: removed")
            continue
        n = new[t]
        end = 0
        for f, (off, size, kind) in s["fields"].items():
            end = max(end, off + size)
            if f not in n["fields"]:
                broken.append(f"{t}.{f}: removed")
            elif n["fields"][f] != (off, size, kind):
                noff, nsize, nkind = n["fields"][f]
                broken.append(f"{t}.{f}: offset {off} size {size} kind {kind} in the baseline, now offset {noff} size "
                              f"{nsize} kind {nkind} (moved, resized or retyped; a field inserted before it moves it)")
        for f, (off, size, kind) in n["fields"].items():
            if f in s["fields"]:
                continue
            if off < end:
                broken.append(f"{t}.{f}: new at offset {off}, inside the baseline's fields (which end at {end}): "
                              "add fields at the end")
            else:
                grown.append(f"{t}.{f}: new at offset {off}")
        if n["size"] < s["size"]:
            broken.append(f"{t}: size {s['size']} in the baseline, now {n['size']}")
        elif n["size"] != s["size"] and t in frozen:
            broken.append(f"{t}: size {s['size']} in the baseline, now {n['size']}: it is frozen (nested in another "
                          "struct or passed as an array), so it never grows: a new field is a new type")
    grown += [f"{t}: new struct" for t in new if t not in old]
    for g in grown:
        print(f"grown: {g}")
    for b in broken:
        print(f"FAIL: {b}")
    print(f"check_layout: {len(old)} structs of the baseline, {len(broken)} broken, {len(grown)} grown")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
