#!/usr/bin/env python3
"""Covered/total per coverage type of a verilator_coverage data file (`make coverage`).

Each point is a line `C '<key>\\x02<value>\\x01...' <count>` (verilated_cov_key.h); its type is the
`page` key up to the slash: v_line (statement blocks), v_branch (if/else and ?: arms), v_toggle
(one point per bit of each signal; Verilator counts a toggle when the bit changes). Every RTL unit
writes its points under its own hierarchy (key `h`); the figures collapse them, so a point is
covered when any unit hit it at least once. With the lcov file of `verilator_coverage
--write-info`, also the source lines hit (lcov DA records: a line with any point hit counts;
declarations carry their toggle points). Then lists the signal bits that never toggled.
Usage: rtl_coverage_summary.py MERGED.dat [MERGED.info]
"""
import collections
import re
import sys

POINT = re.compile(r"^C '(.*)' (\d+)$")
NAMES = {"v_line": "line", "v_branch": "branch", "v_toggle": "toggle", "v_user": "user"}
BIT = re.compile(r"^(\w+)(?:\[(\d+)\])?")


def read_points(path):
    """{point key without the hierarchy: (type, keys, total count)}"""
    points = {}
    with open(path, encoding="latin-1") as f:
        for raw in f:
            m = POINT.match(raw.rstrip("\n"))
            if not m:
                continue
            kvs = [kv.split("\x02", 1) for kv in m.group(1).split("\x01") if "\x02" in kv]
            keys = {k: v for k, v in kvs if k != "h"}
            name = "\x01".join(f"{k}\x02{v}" for k, v in sorted(keys.items()))
            kind = keys.get("page", "?").split("/")[0]
            old = points.get(name, (kind, keys, 0))
            points[name] = (kind, keys, old[2] + int(m.group(2)))
    return points


def ranges(bits):
    """[0, 1, 2, 5] -> '5,2:0' (msb first, as Verilog writes ranges)."""
    out, run = [], []
    for b in sorted(bits, reverse=True):
        if run and b == run[-1] - 1:
            run.append(b)
        else:
            if run:
                out.append(run)
            run = [b]
    if run:
        out.append(run)
    return ",".join(str(r[0]) if len(r) == 1 else f"{r[0]}:{r[-1]}" for r in out)


def lcov_lines(path):
    """(lines hit, lines) from the DA:<line>,<count> records of an lcov file."""
    counts = [int(r.split(",")[1]) for r in open(path) if r.startswith("DA:")]
    return sum(c > 0 for c in counts), len(counts)


def main(path, info=None):
    points = read_points(path)
    if not points:
        sys.exit(f"{path}: no coverage points")
    per_type = collections.defaultdict(lambda: [0, 0])
    untoggled = collections.defaultdict(list)  # signal -> bits (None: a 1-bit signal)
    for kind, keys, count in points.values():
        per_type[kind][0] += count > 0
        per_type[kind][1] += 1
        if kind == "v_toggle" and count == 0:
            m = BIT.match(keys.get("o", "?"))
            untoggled[m.group(1)].append(None if m.group(2) is None else int(m.group(2)))
        elif count == 0:
            print(f"uncovered {NAMES.get(kind, kind)} point: line {keys.get('l')} {keys.get('o', '')}")
    print("rtl/decrementer_unit.v coverage (points hit at least once / points)")
    for kind in sorted(per_type, key=lambda k: list(NAMES).index(k) if k in NAMES else 99):
        covered, total = per_type[kind]
        print(f"  {NAMES.get(kind, kind):8s} {covered:5d} / {total:5d}  {100.0 * covered / total:5.1f}%")
    if info:
        hit, total = lcov_lines(info)
        print(f"  {'lines':8s} {hit:5d} / {total:5d}  {100.0 * hit / total:5.1f}%  (source lines, lcov)")
    if untoggled:
        print("signal bits that never toggled:")
        for sig in sorted(untoggled):
            bits = [b for b in untoggled[sig] if b is not None]
            print(f"  {sig}[{ranges(bits)}]" if bits else f"  {sig}")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    main(*sys.argv[1:])
