#!/usr/bin/env python3
"""Comments state a rule and cite its source, never a tracker number (docs/architecture.md):
scans the project's sources, scripts, platform and stimulus files, fuzz corpora and docs for
"issue N", "task N" or "ticket N" and prints each with its place. Exits 1 if there is one."""
import pathlib
import re
import sys

TRACKER = re.compile(rb"\b(issue|task|ticket)s?[ -]?#?[0-9]+\b", re.IGNORECASE)
FOLDERS = ["models", "sw", "platforms", "rtl", "scripts", "bench", "tests", "docs", "cmake",
           "python", ".ci"]
TOP_FILES = ["Makefile", "CMakeLists.txt", "README.md"]
SKIP = ["bench/realstack/results/", "tests/layers/fixture_tracker/"]  # measured data; the fixture


def files(root):
    for f in TOP_FILES:
        if (root / f).is_file():
            yield root / f
    for folder in FOLDERS:
        for path in sorted((root / folder).glob("**/*")):
            if path.is_file():
                yield path


def main(root):
    root = pathlib.Path(root)
    found = []
    for path in files(root):
        rel = path.relative_to(root).as_posix()
        if any(rel.startswith(s) for s in SKIP):
            continue
        data = path.read_bytes()
        if b"\0" in data[:4096]:
            continue  # binary
        for n, line in enumerate(data.splitlines(), 1):
            m = TRACKER.search(line)
            if m:
                found.append(f"{rel}:{n}: tracker reference '{m.group(0).decode(errors='replace')}'")
    for f in found:
        print(f)
    print(f"{len(found)} tracker reference(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
