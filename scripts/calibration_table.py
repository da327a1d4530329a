#!/usr/bin/env python3
"""Prints the sensitivity table of docs/calibration.md: each row is the reference platform with
some keys changed, run for 2 s under no-cancel and under cancel.

usage: scripts/calibration_table.py [path/to/nestvp] [seconds]
"""
import json
import os
import subprocess
import sys
import tempfile

NESTVP = sys.argv[1] if len(sys.argv) > 1 else "build/nestvp"
SECONDS = sys.argv[2] if len(sys.argv) > 2 else "2"
PLATFORM = os.path.join(os.path.dirname(__file__), "..", "platforms", "reference.yaml")

ROWS = [
    ("`l2.housekeeping_hz` 2,500", ["l2.housekeeping_hz=2500"]),
    ("5,000", ["l2.housekeeping_hz=5000"]),
    ("**10,000** (reference)", []),
    # The ends of partition_switch's range (reference.yaml): it is paid twice per round trip.
    ("`l0.costs.partition_switch` 500", ["l0.costs.partition_switch=500"]),
    ("5,000", ["l0.costs.partition_switch=5000"]),
    ("`l2.vcpus` 2 (3 cores)", ["l2.vcpus=2", "machine.cores=3"]),
    ("`l2.vcpus` 3 (3 cores)", ["l2.vcpus=3", "machine.cores=3"]),
    ("`l2.vcpus` 5 (3 cores)", ["l2.vcpus=5", "machine.cores=3"]),
    ("`machine.placement` pack", ["machine.placement=pack"]),
    ("`l1.hz` 250", ["l1.hz=250"]),
    ("`l1.hz` 1000", ["l1.hz=1000"]),
]


def run(sets, policy, tmp):
    out = os.path.join(tmp, "run.json")
    cmd = [NESTVP, "run", PLATFORM, "--quiet", "--json", out, "--set", f"run.duration_s={SECONDS}",
           "--set", f"l1.dec_policy={policy}"]
    for s in sets:
        cmd += ["--set", s]
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
    with open(out) as f:
        return json.load(f)


def main():
    secs = float(SECONDS)
    print("| varied (others as in reference.yaml) | exits ratio | arithoh ratio | GSB difference "
          "| exits/s no-cancel / cancel |")
    print("|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for label, sets in ROWS:
            a = run(sets, "no-cancel", tmp)["metrics"]
            b = run(sets, "cancel", tmp)["metrics"]
            ex = b["kvm_guest_exit"] / a["kvm_guest_exit"]
            ar = b["arithoh_count"] / a["arithoh_count"] if a["arithoh_count"] else float("nan")
            gsb = (b["gsb_recv"] - a["gsb_recv"]) / a["gsb_recv"] * 100 if a["gsb_recv"] else 0.0
            bold = "**" if "reference" in label else ""
            print(f"| {label} | {bold}{ex:.3f}{bold} | {bold}{ar:.4f}{bold} | "
                  f"{gsb:+.1f} %".replace("-", "−") + " | "
                  f"{a['kvm_guest_exit'] / secs:,.0f} / {b['kvm_guest_exit'] / secs:,.0f} |",
                  flush=True)


if __name__ == "__main__":
    main()
