#!/usr/bin/env python3
"""Run two L1 decrementer policies through the nestvp package and plot them.

    python3 python/examples/policies.py out/policies.png [--duration 1] [--binary build/nestvp]

Left: guest exits per L2 vCPU for each policy. Right: the CDF of a latency
(``metrics.latencies.<kind>.histogram``, default the L1 handling latency).
The figure format follows the file's extension (.png, .svg, .pdf).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import matplotlib  # noqa: E402

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402

import nestvp  # noqa: E402

POLICIES = ["no-cancel", "cancel"]


def exits_per_vcpu(record: Dict) -> List[int]:
    """Guest exits of each L2 vCPU, in vCPU order (0 for a vCPU with no counter)."""
    vcpus = record["metrics"].get("vcpus", {})
    return [vcpus[v].get("l1.guest_exits", 0) for v in sorted(vcpus, key=int)]


def main(argv: List[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("output", help="figure file (.png, .svg, ...)")
    ap.add_argument("--duration", type=float, default=1.0, help="simulated seconds per run (default 1)")
    ap.add_argument("--platform", default=str(nestvp.REPO_ROOT / "platforms" / "reference.yaml"))
    ap.add_argument("--binary", default=None, help="nestvp binary (default: see nestvp.find_binary)")
    ap.add_argument("--latency", default="l1_handling_latency_ns", help="latency kind for the CDF")
    args = ap.parse_args(argv)

    vp = nestvp.Nestvp(args.binary)
    records = {
        p: vp.run(args.platform, {"l1.dec_policy": p, "run.duration_s": args.duration})
        for p in POLICIES
    }

    fig, (ax_exits, ax_cdf) = plt.subplots(1, 2, figsize=(11, 4.2))
    width = 0.8 / len(POLICIES)
    for i, (policy, rec) in enumerate(records.items()):
        exits = exits_per_vcpu(rec)
        ax_exits.bar([v + (i - (len(POLICIES) - 1) / 2) * width for v in range(len(exits))],
                     exits, width, label=policy)
        cdf = nestvp.latency_cdf(rec, args.latency)
        if cdf:
            xs, ys = zip(*cdf)
            ax_cdf.step(xs, ys, where="post", label=policy)
    ax_exits.set_xticks(range(max(len(exits_per_vcpu(r)) for r in records.values())))
    ax_exits.set_xlabel("L2 vCPU")
    ax_exits.set_ylabel("guest exits")
    ax_exits.set_title(f"exits per vCPU ({args.duration:g} s simulated)")
    ax_exits.legend()
    ax_cdf.set_xlabel(f"{args.latency} (ns)")
    ax_cdf.set_ylabel("cumulative fraction")
    ax_cdf.set_ylim(0, 1.02)
    ax_cdf.set_title("latency CDF")
    if ax_cdf.lines:
        ax_cdf.set_xscale("log")
        ax_cdf.legend()
    fig.tight_layout()
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.output)
    for policy, rec in records.items():
        print(f"{policy}: kvm_guest_exit={rec['metrics']['kvm_guest_exit']} exits/vCPU={exits_per_vcpu(rec)}")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
