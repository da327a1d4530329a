#!/usr/bin/env python3
"""Every `#include "..."` of the project points down a layer (docs/architecture.md):
models -> nothing but models; sw -> models; platforms -> sw and models. Inside sw, L0 and L1
share only the PAPR ABI (sw/papr) and never include each other; inside platforms, config ->
nothing above it, runner -> config and results; what is made of the results is layered too:
processes (child processes, termination signals, progress) -> nothing, records -> config and
results, report (tables) -> records and results, analysis -> those and processes, figures ->
analysis and below; cli -> any. The table must have no cycle: that is checked first.
Prints each include that points up and exits 1 if there is one."""
import pathlib
import re
import sys

# folder -> the folders its includes may name (a folder always may include itself)
ALLOWED = {
    "models": [],
    "sw/common": [],
    "sw/papr": ["models"],
    "sw/metrics": ["models", "sw/papr"],
    "sw/workloads": ["models"],
    "sw/l0": ["models", "sw/papr", "sw/metrics"],
    "sw/l1": ["models", "sw/common", "sw/papr", "sw/metrics"],
    "sw/l2": ["models", "sw/common", "sw/papr", "sw/metrics", "sw/workloads"],
    "platforms/results": [],
    "platforms/config": ["models", "sw"],
    "platforms/runner": ["models", "sw", "platforms/config", "platforms/results"],
    "platforms/processes": [],
    "platforms/records": ["platforms/config", "platforms/results"],
    "platforms/report": ["platforms/records", "platforms/results"],
    "platforms/analysis": ["platforms/config", "platforms/results", "platforms/records",
                           "platforms/report", "platforms/processes"],
    "platforms/figures": ["platforms/config", "platforms/results", "platforms/records",
                          "platforms/report", "platforms/processes", "platforms/analysis"],
    "platforms/cli": ["models", "sw", "platforms"],
}
# Generated: by Verilator (the RTL wrappers in models/) and at build time (the version stamp).
GENERATED = re.compile(r'^(V\w+|verilated\w*|nestvp_build_info)\.h$')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(rel):
    best = None
    for folder in ALLOWED:
        if rel == folder or rel.startswith(folder + "/"):
            if best is None or len(folder) > len(best):
                best = folder
    return best


def cycle_in_table():
    """A chain of ALLOWED that comes back to where it started ("a -> b -> a"), or None."""
    def reaches(folder):
        return [layer_of(f) or f for f in ALLOWED[folder]
                if (layer_of(f) or f) in ALLOWED and (layer_of(f) or f) != folder]
    state = {}

    def visit(folder, path):
        state[folder] = "open"
        for nxt in reaches(folder):
            if state.get(nxt) == "open":
                return " -> ".join(path[path.index(nxt):] + [nxt])
            if nxt not in state:
                found = visit(nxt, path + [nxt])
                if found:
                    return found
        state[folder] = "done"
        return None

    for folder in ALLOWED:
        if folder not in state:
            found = visit(folder, [folder])
            if found:
                return found
    return None


def main(root):
    cycle = cycle_in_table()
    if cycle:
        print(f"ALLOWED has a cycle: {cycle}")
        return 1
    root = pathlib.Path(root)
    bad = []
    checked = 0
    for path in sorted(root.glob("**/*")):
        if path.suffix not in (".h", ".cpp") or not path.is_file():
            continue
        rel = path.relative_to(root).as_posix()
        layer = layer_of(rel)
        if layer is None:
            continue  # tests/, bench/, build folders: not layered
        checked += 1
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            target = m.group(1)
            if GENERATED.match(target):
                continue
            ok = any(target.startswith(f + "/") for f in [layer] + ALLOWED[layer])
            if not ok:
                bad.append(f"{rel}:{n}: {layer} includes {target}")
    for b in bad:
        print(b)
    print(f"{checked} files checked, {len(bad)} include(s) pointing up a layer")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
