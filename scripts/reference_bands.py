#!/usr/bin/env python3
"""Prints the published reference figures (shared/docs/reference-result.md) beside the model's
and checks the bands that document sets. Input: the JSON of
`nestvp compare reference.yaml --set l1.dec_policy=no-cancel --vs l1.dec_policy=cancel`."""
import json
import sys

PUBLISHED = {  # reference-result.md, from the 7be6ce7043b4 patch message (10 s run, N=1)
    "arithoh_count": (3244831634, 3403089673),
    "kvm_guest_exit": (513558, 152441),
    "gsb_recv": (28060, 28110),
}


def main(path):
    d = json.load(open(path))
    a, b = d["a"]["metrics"], d["b"]["metrics"]
    rows = []
    print("| metric | published no-cancel | model no-cancel | published cancel | model cancel |")
    print("|---|---:|---:|---:|---:|")
    for k, (pa, pb) in PUBLISHED.items():
        print(f"| {k} | {pa:,} | {a[k]:,} | {pb:,} | {b[k]:,} |")
    print()
    bands = []
    ratio = b["kvm_guest_exit"] / max(1, a["kvm_guest_exit"])
    bands.append(("exits cancel/no-cancel in [0.20, 0.40] (published 0.297)", f"{ratio:.3f}", 0.20 <= ratio <= 0.40))
    gsb = (b["gsb_recv"] - a["gsb_recv"]) / max(1, a["gsb_recv"]) * 100
    bands.append(("GSB received within +-2 % (published +0.18 %)", f"{gsb:+.2f} %", abs(gsb) <= 2))
    ar = b["arithoh_count"] / max(1, a["arithoh_count"])
    bands.append(("arithoh cancel/no-cancel in [1.03, 1.07] (published 1.0488)", f"{ar:.4f}", 1.03 <= ar <= 1.07))
    for k, (pa, pb) in PUBLISHED.items():
        for side, pub, got in (("no-cancel", pa, a[k]), ("cancel", pb, b[k])):
            dev = (got - pub) / pub * 100
            bands.append((f"{k} {side} within +-30 % of {pub:,}", f"{dev:+.1f} %", abs(dev) <= 30))
    print("| band (reference-result.md) | model | met |")
    print("|---|---:|:---:|")
    for name, val, ok in bands:
        print(f"| {name} | {val} | {'yes' if ok else 'NO'} |")
    missed = [n for n, _, ok in bands if not ok]
    if missed:
        print(f"\n{len(missed)} band(s) missed; docs/calibration.md explains why.")


if __name__ == "__main__":
    main(sys.argv[1])
