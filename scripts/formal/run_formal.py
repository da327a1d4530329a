#!/usr/bin/env python3
"""`make formal`: proofs, covers, the adv=N miter and the mutants of rtl/decrementer_unit.v.

Prints one line per property, cover, miter and mutant:
  PROVEN <property> (k-induction, depth N)
  BOUNDED <property> depth N: <reason>    (a check bounded in depth; none at present)
  COVER <name> reached in step N          (UNREACHED is a failure: a vacuous antecedent)
  MUTANT <name> KILLED by <property>
  MUTANT <name> SURVIVED
and FAILED/UNPROVEN lines for proofs that do not hold. Exit status 1 on any failure.
Semantics of the properties: timer-facilities.md §2.1, §2.2, §3, §7.2.
Usage: scripts/formal/run_formal.py WORKDIR [-j JOBS]
"""
import argparse
import concurrent.futures as cf
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import smt_check  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RTL = os.path.join(ROOT, "rtl")
MAX_K = 4            # k-induction depth tried
PROOF_TIMEOUT = 300  # s per smtbmc call
COVER_DEPTH = 6
MUTANT_DEPTH = 6     # BMC from reset (the miter: from its start): a counterexample of a proven
                     # property kills
# The adv=N miter (scripts/formal/adv_miter.v; docs/rtl-decrementer.md, "What is proven"):
# every N in 1 .. 2^64-1 from any equal state, proven by k-induction together with its
# auxiliary invariants (the a_* assertions of the miter).
MITER = "p_adv_n_equals_n_clocks_of_one"
MITER_AUX = ["a_state_within_width", "a_inside_the_step", "a_many_is_p_ticks_ahead"]


def unit_design(src_dir):
    return dict(sources=[os.path.join(src_dir, "decrementer_unit.v")], top="decrementer_unit",
                defines=["FORMAL", "NESTVP_ASSERT", "NESTVP_COVER"], include_dirs=[src_dir])


def prove_one(design, name, workdir):
    smt2 = smt_check.prepare(design, name, "assert", workdir)
    return smt_check.prove(smt2, MAX_K, PROOF_TIMEOUT)


def cover_one(design, name, workdir):
    smt2 = smt_check.prepare(design, name, "cover", workdir)
    return smt_check.cover(smt2, COVER_DEPTH, PROOF_TIMEOUT)


def miter_design(src_dir):
    return dict(sources=[os.path.join(src_dir, "decrementer_unit.v"),
                         os.path.join(HERE, "adv_miter.v")],
                top="adv_miter", defines=[], include_dirs=[src_dir])


def miter(workdir):
    smt2 = smt_check.prepare(miter_design(RTL), [MITER] + MITER_AUX, "assert", workdir)
    return smt_check.prove(smt2, MAX_K, 2 * PROOF_TIMEOUT)


def read_mutants():
    out = []
    with open(os.path.join(HERE, "mutants.txt"), encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.rstrip("\n").split(" | ")]
            if len(parts) not in (3, 4):
                raise smt_check.ToolError(f"mutants.txt: not 3 or 4 fields: {line.strip()}")
            out.append((parts[0], parts[1], parts[2], parts[3] if len(parts) == 4 else None))
    return out


def mutant_one(name, old, new, props, workdir):
    """The first of props (unit property labels, or the miter's) with a counterexample on the
    mutated unit, or None."""
    src = os.path.join(workdir, "src")
    os.makedirs(src, exist_ok=True)
    for f in os.listdir(RTL):
        if f.endswith((".v", ".vh")):
            shutil.copy(os.path.join(RTL, f), src)
    path = os.path.join(src, "decrementer_unit.v")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if text.count(old) != 1:
        raise smt_check.ToolError(f"mutant {name}: its text occurs {text.count(old)} times")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(old, new))
    for prop in props:
        # The miter's counterexample starts in any equal state within the width (its own
        # initial assumption); the unit's start at the first reset.
        design = miter_design(src) if prop == MITER else unit_design(src)
        smt2 = smt_check.prepare(design, prop, "assert", workdir)
        if smt_check.bmc(smt2, MUTANT_DEPTH, PROOF_TIMEOUT) == "failed":
            return prop
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("workdir")
    ap.add_argument("-j", type=int, default=2)
    args = ap.parse_args()
    work = os.path.abspath(args.workdir)
    shutil.rmtree(work, ignore_errors=True)
    design = unit_design(RTL)
    ok = True
    props = smt_check.labels(design, "assert", os.path.join(work, "list"))
    covers = smt_check.labels(design, "cover", os.path.join(work, "list"))
    with cf.ThreadPoolExecutor(args.j) as pool:
        miter_f = pool.submit(miter, os.path.join(work, "miter"))
        pf = {p: pool.submit(prove_one, design, p, os.path.join(work, "prove", p)) for p in props}
        cfs = {c: pool.submit(cover_one, design, c, os.path.join(work, "cover", c)) for c in covers}
        proven = []
        for p in props:
            status, k = pf[p].result()
            if status == "proven":
                print(f"PROVEN {p} (k-induction, depth {k})", flush=True)
                proven.append(p)
            else:
                print(f"FAILED {p}: {status} at depth {k}", flush=True)
                ok = False
        status, k = miter_f.result()
        miter_proven = status == "proven"
        if miter_proven:
            print(f"PROVEN {MITER} (k-induction, depth {k})", flush=True)
        else:
            print(f"FAILED {MITER}: {status} at depth {k}", flush=True)
            ok = False
        for c in covers:
            step = cfs[c].result()
            if isinstance(step, int):
                print(f"COVER {c} reached in step {step}", flush=True)
            else:
                print(f"COVER {c} UNREACHED within {COVER_DEPTH} steps ({step or 'unsat'})",
                      flush=True)
                ok = False
        # A mutant with a fourth field is checked against that property alone (the miter's
        # mutants: the point is that the miter kills them, though a unit property would too).
        mfs = []
        for n, old, new, only in read_mutants():
            if only is None:
                props = proven
            else:
                props = [only] if only in proven or (only == MITER and miter_proven) else []
            mfs.append((n, pool.submit(mutant_one, n, old, new, props,
                                       os.path.join(work, "mutant", n))))
        for n, fut in mfs:
            killer = fut.result()
            if killer:
                print(f"MUTANT {n} KILLED by {killer}", flush=True)
            else:
                print(f"MUTANT {n} SURVIVED", flush=True)
                ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except smt_check.ToolError as e:
        print(f"formal: {e}", file=sys.stderr)
        sys.exit(2)
