#!/usr/bin/env python3
"""CPU cost of one nested exit, split by component (bench/README.md, "Cost of one exit").

  bench/exit_cost.py BUILD_DIR [--policy no-cancel] [--impl tlm] [--duration 0.3]

Runs the reference platform under callgrind for DURATION and for 0.001 s (start-up), takes the
difference of each function's own instructions (Ir), so elaboration does not count, and
groups the functions: the SystemC kernel (libsystemc), the timer unit, the TLM transport,
GSB encode/decode and the L0 guest-state table, metrics, and the rest. Native runs of 2 s
and 0.001 s give the CPU nanoseconds per exit, which are split in proportion to the
instructions (an approximation: it assumes every group retires instructions at the same rate).
Prints the table, the top functions, and SystemC events per exit.
"""
import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile

GROUPS = [
    # The TLM-2.0 plumbing itself: sockets, payloads, the hcall and memory ports and the
    # memory's target side (code inlined into a caller counts with the caller). Matched before
    # the kernel, whose library holds the payload's code.
    ("TLM transport", lambda sym, obj: re.search(
        r"tlm_utils::|tlm::tlm_|nestvp::(tlm_memory_port|hcall_target::b_transport|hcall_ext|"
        r"guest_memory::(b_transport|get_direct_mem_ptr|transport_dbg))", sym)),
    ("SystemC kernel", lambda sym, obj: "libsystemc" in obj),
    ("timer unit", lambda sym, obj: re.search(
        r"nestvp::(decrementer|hypervisor_decrementer|native_timer_unit|rtl_timer_unit|"
        r"lockstep_timer_unit|edge_scheduler|time_base|tb_register)\b|Vdec|Verilated", sym)),
    ("GSB encode/decode", lambda sym, obj: re.search(
        r"nestvp::(gsb_|l0_guest_table|nestedv2_state_cache|guest_memory)", sym)),
    ("metrics", lambda sym, obj: re.search(
        r"nestvp::(path_recorder|nested_metrics|latency_histogram|exit_timeline|nested_probe|probe_fanout)", sym)),
]
LINE = re.compile(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*?)(?: \[(.*)\])?$")


def run(cmd):
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def nestvp_run(build, args, duration, out):
    return [os.path.join(build, "nestvp"), "run", args.platform, "--quiet", "--json", out,
            "--set", f"l1.dec_policy={args.policy}", "--set", f"machine.timer.impl={args.impl}",
            "--set", f"run.duration_s={duration}"]


def profile(build, args, duration, tmp):
    out = os.path.join(tmp, f"cg-{duration}.out")
    rec = os.path.join(tmp, f"r-{duration}.json")
    run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
        + nestvp_run(build, args, duration, rec))
    # --auto=no: a build with debug info would add annotated source lines (with inclusive
    # "=>" costs) that look like function lines.
    text = subprocess.run(["callgrind_annotate", "--threshold=100", "--auto=no", out], check=True,
                          capture_output=True, text=True).stdout
    funcs = {}
    for line in text.splitlines():
        m = LINE.match(line)
        if not m or "PROGRAM TOTALS" in line:
            continue
        ir = int(m.group(1).replace(",", ""))
        key = (m.group(2), m.group(3) or "")
        funcs[key] = funcs.get(key, 0) + ir
    return funcs, json.load(open(rec))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--policy", default="no-cancel")
    ap.add_argument("--impl", default="tlm")
    ap.add_argument("--duration", type=float, default=0.3)
    ap.add_argument("--platform", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "platforms", "reference.yaml"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        long_f, long_r = profile(args.build, args, args.duration, tmp)
        short_f, short_r = profile(args.build, args, 0.001, tmp)
        exits = long_r["metrics"]["kvm_guest_exit"] - short_r["metrics"]["kvm_guest_exit"]
        events = long_r["sc_events"] - short_r["sc_events"]
        rec = os.path.join(tmp, "n.json")
        cpu_long = min(run(nestvp_run(args.build, args, 2, rec)) for _ in range(2))
        native_exits = json.load(open(rec))["metrics"]["kvm_guest_exit"]
        cpu_short = min(run(nestvp_run(args.build, args, 0.001, rec)) for _ in range(2))
        native_short_exits = json.load(open(rec))["metrics"]["kvm_guest_exit"]
    diff = {k: long_f.get(k, 0) - short_f.get(k, 0) for k in set(long_f) | set(short_f)}
    total = sum(v for v in diff.values() if v > 0)
    ns_per_exit = (cpu_long - cpu_short) * 1e9 / max(1, native_exits - native_short_exits)
    grouped = {name: 0 for name, _ in GROUPS}
    grouped["the rest"] = 0
    for (sym, obj), ir in diff.items():
        if ir <= 0:
            continue
        for name, match in GROUPS:
            if match(sym, obj):
                grouped[name] += ir
                break
        else:
            grouped["the rest"] += ir
    print(f"reference, {args.policy}, impl {args.impl}: {ns_per_exit:,.0f} CPU ns per exit "
          f"(native, 2 s less start-up), {total / exits:,.0f} instructions per exit "
          f"(callgrind, {args.duration} s less start-up), "
          f"{events / exits:.2f} SystemC events per exit")
    print("| component | instructions / exit | share | CPU ns / exit |")
    print("|---|---:|---:|---:|")
    for name, ir in grouped.items():
        print(f"| {name} | {ir / exits:,.0f} | {100 * ir / total:.1f} % | "
              f"{ns_per_exit * ir / total:,.0f} |")
    print("\ntop functions (own instructions per exit):")
    for (sym, obj), ir in sorted(diff.items(), key=lambda kv: -kv[1])[:12]:
        print(f"  {ir / exits:8,.0f}  {100 * ir / total:5.1f} %  {sym[:90]}")


if __name__ == "__main__":
    sys.exit(main())
