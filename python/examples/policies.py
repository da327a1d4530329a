#!/usr/bin/env python3
"""Run two L1 decrementer policies through the nestvp package and plot them.

    python3 python/examples/policies.py out/policies.png [--duration 1] [--binary build/nestvp]

Left: guest exits per L2 vCPU for each policy. Right: the CDF of a latency
(``metrics.latencies.<kind>.histogram``, default the L1 handling latency).
The figure format follows the file's extension (.png, .svg, .pdf).

The records go through the package's DataFrame loaders: ``load_record`` (one row per
policy), ``vcpu_counters`` and ``latency_histogram``. Needs python3-matplotlib and
python3-pandas. Works with the installed package too (the binary: --binary, $NESTVP_BIN or PATH).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import List

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))  # this checkout's package, even if one is installed

import matplotlib  # noqa: E402

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402

import nestvp  # noqa: E402

POLICIES = ["no-cancel", "cancel"]


def main(argv: List[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("output", help="figure file (.png, .svg, ...)")
    ap.add_argument("--duration", type=float, default=1.0, help="simulated seconds per run (default 1)")
    ap.add_argument("--platform", default=str(ROOT / "platforms" / "reference.yaml"))
    ap.add_argument("--binary", default=None, help="nestvp binary (default: see nestvp.find_binary)")
    ap.add_argument("--latency", default="l1_handling_latency_ns", help="latency kind for the CDF")
    args = ap.parse_args(argv)

    vp = nestvp.Nestvp(args.binary)
    records = {
        p: vp.run(args.platform, {"l1.dec_policy": p, "run.duration_s": args.duration})
        for p in POLICIES
    }
    summary = nestvp.load_record(list(records.values())).set_index("settings.l1.dec_policy")
    exits = {p: nestvp.vcpu_counters(r).reindex(columns=["l1.guest_exits"], fill_value=0)["l1.guest_exits"]
             for p, r in records.items()}

    fig, (ax_exits, ax_cdf) = plt.subplots(1, 2, figsize=(11, 4.2))
    width = 0.8 / len(POLICIES)
    for i, policy in enumerate(POLICIES):
        per_vcpu = exits[policy]
        ax_exits.bar(per_vcpu.index + (i - (len(POLICIES) - 1) / 2) * width, per_vcpu.values,
                     width, label=policy)
        hist = nestvp.latency_histogram(records[policy], args.latency)
        if hist["count"].sum():
            ax_cdf.step(hist["ns"], hist["cdf"], where="post", label=policy)
    ax_exits.set_xticks(sorted(set().union(*(e.index for e in exits.values()))))
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
    for policy in POLICIES:
        print(f"{policy}: kvm_guest_exit={summary.loc[policy, 'metrics.kvm_guest_exit']} "
              f"exits/vCPU={exits[policy].tolist()}")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
