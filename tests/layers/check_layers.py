#!/usr/bin/env python3
"""Every `#include "..."` of the project points down a layer (docs/architecture.md):
models -> nothing but models; sw -> models; platforms -> sw and models. Inside sw, L0 and L1
share only the PAPR ABI (sw/papr) and never include each other; inside platforms, config ->
nothing above it, runner -> config and results; what is made of the results is layered too:
processes (child processes, termination signals, progress) -> nothing, records -> config and
results, report (tables) -> records and results, analysis -> those and processes, figures ->
analysis and below; cli -> any. The table must have no cycle: that is checked first.

Two rules keep software off the simulator (docs/architecture.md, "The CPU interface"):
- L1, L2 and the workloads include from models/ only the CPU interface (models/cpu_if.h) and
  plain declarations (SOFTWARE_VIEW), and those headers include no SystemC, TLM or other model
  header themselves;
- no file in sw/ names the SystemC kernel (`sc_core::`, `sc_dt::`) or the run-ahead rules
  (`local_time::`): waits, time and synchronisation live behind cpu_if and hv_thread_if.
Prints each breach and exits 1 if there is one."""
import pathlib
import re
import sys

# folder -> the folders its includes may name (a folder always may include itself)
ALLOWED = {
    "models": [],
    "sw/common": [],
    "sw/papr": ["models"],
    "sw/probes": ["sw/papr"],
    "sw/metrics": ["models", "sw/papr", "sw/probes"],
    "sw/workloads": ["models"],
    # The software announces through sw/probes and never sees its observers (sw/metrics).
    "sw/l0": ["models", "sw/papr", "sw/probes"],
    "sw/l1": ["models", "sw/common", "sw/papr", "sw/probes"],
    "sw/l2": ["models", "sw/common", "sw/papr", "sw/probes", "sw/workloads"],
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
    # Trace writers observe the probe; trace-stats reads traces into the records' JSON.
    "platforms/traces": ["sw/probes", "sw/papr", "platforms/config", "platforms/results",
                         "platforms/records"],
    "platforms/cli": ["models", "sw", "platforms"],
}
# What L1, L2 and the workloads may include from models/.
SOFTWARE_VIEW = {
    "models/cpu_if.h", "models/cpu_signal.h", "models/power_regs.h", "models/sw_context.h",
    "models/params.h", "models/power_insn.h", "models/memory_port.h", "models/log.h",
    "models/core_config.h", "models/memory_config.h",
}
SOFTWARE_ON_CPU_IF = ("sw/l1", "sw/l2", "sw/workloads")
SIMULATOR_NAMES = re.compile(r"\b(sc_core|sc_dt|local_time)::")
SYSTEM_INCLUDE = re.compile(r'^\s*#\s*include\s+<(systemc|tlm|tlm_utils/[^>]*|sysc/[^>]*)>')
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


def without_comments(line):
    return line.split("//", 1)[0]


def check_software_view(root, bad):
    """The SOFTWARE_VIEW headers are plain: they include only each other and the C++ library."""
    for rel in sorted(SOFTWARE_VIEW):
        path = root / rel
        if not path.is_file():
            continue  # a fixture tree holds only the files it tests
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            m = INCLUDE.match(line)
            if m and m.group(1) not in SOFTWARE_VIEW:
                bad.append(f"{rel}:{n}: the software's view of the machine includes {m.group(1)}")
            if SYSTEM_INCLUDE.match(line):
                bad.append(f"{rel}:{n}: the software's view of the machine includes SystemC")


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
            if layer.startswith("sw/") and SIMULATOR_NAMES.search(without_comments(line)):
                bad.append(f"{rel}:{n}: software names the simulator "
                           f"({SIMULATOR_NAMES.search(without_comments(line)).group(0)})")
            m = INCLUDE.match(line)
            if not m:
                continue
            target = m.group(1)
            if GENERATED.match(target):
                continue
            ok = any(target.startswith(f + "/") for f in [layer] + ALLOWED[layer])
            if not ok:
                bad.append(f"{rel}:{n}: {layer} includes {target}")
            elif (layer in SOFTWARE_ON_CPU_IF and target.startswith("models/")
                  and target not in SOFTWARE_VIEW):
                bad.append(f"{rel}:{n}: {layer} includes {target}, not the CPU interface")
    check_software_view(root, bad)
    for b in bad:
        print(b)
    print(f"{checked} files checked, {len(bad)} breach(es) of the layers")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
