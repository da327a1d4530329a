#!/usr/bin/env python3
"""The key tables of docs/platform-file.md, from the schema (`nestvp params PREFIX --markdown`).

  scripts/key_tables.py NESTVP DOC            rewrite each section's table
  scripts/key_tables.py NESTVP DOC --check    exit 1 naming each section that differs

Each `### <section>` heading below maps to a key prefix; the table right after it is replaced.
"""
import subprocess
import sys

SECTIONS = [("### Top level", "name"), ("### machine", "machine."), ("### l0:", "l0."),
            ("### l1:", "l1."), ("### l2:", "l2."), ("### workload", "workload."),
            ("### run", "run.")]


def table_of(nestvp, prefix):
    out = subprocess.run([nestvp, "params", prefix, "--markdown"], check=True,
                         capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if line.startswith("|")]


def main():
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and sys.argv[3] != "--check"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    nestvp, doc = sys.argv[1], sys.argv[2]
    check = len(sys.argv) == 4
    lines = open(doc, encoding="utf-8").read().split("\n")
    stale = []
    for heading, prefix in SECTIONS:
        at = next((i for i, l in enumerate(lines) if l.startswith(heading)), None)
        if at is None:
            print(f"{doc}: no section '{heading}'", file=sys.stderr)
            return 1
        start = next(i for i in range(at + 1, len(lines)) if lines[i].startswith("|"))
        end = start
        while end < len(lines) and lines[end].startswith("|"):
            end += 1
        want = table_of(nestvp, prefix)
        if lines[start:end] != want:
            stale.append(f"{doc}:{start + 1}: the '{heading}' table differs from "
                         f"'nestvp params {prefix} --markdown'")
            if not check:
                lines[start:end] = want
    if check:
        for s in stale:
            print(s, file=sys.stderr)
        if stale:
            print("run scripts/key_tables.py build/nestvp docs/platform-file.md", file=sys.stderr)
        return 1 if stale else 0
    open(doc, "w", encoding="utf-8").write("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
