"""One yosys-smtbmc check of one property or cover of a Verilog design (`make formal`).

yosys 0.23 reads the design with -formal; every assertion but the one asked for (and every
cover) is deleted, so each property is proven on its own (z3 is slow on the conjunction of
them all). z3 is the solver: Debian's boolector has no incremental mode, which smtbmc needs.
"""
import os
import re
import subprocess

SOLVER = "z3"


class ToolError(RuntimeError):
    """yosys or yosys-smtbmc could not run (not a proof result)."""


def _yosys(sources, top, defines, include_dirs, keep, kind, out_smt2):
    reads = " ".join(sources)
    defs = " ".join("-D" + d for d in defines)
    incs = " ".join("-I" + i for i in include_dirs)
    other = "cover" if kind == "assert" else "assert"
    script = (
        f"read_verilog -formal {defs} {incs} {reads}; prep -top {top}; async2sync; "
        f"chformal -{other} -remove; "
        f"select -set keep {top}/{keep}; "
        f"delete t:${kind} @keep %d; "
        f"write_smt2 -wires {out_smt2}"
    )
    r = subprocess.run(["yosys", "-q", "-p", script], capture_output=True, text=True)
    if r.returncode != 0:
        raise ToolError(f"yosys failed for {keep}: {(r.stderr or r.stdout).strip()}")


def _smtbmc(args, smt2, timeout):
    cmd = ["yosys-smtbmc", "-s", SOLVER] + args + [smt2]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", ""
    out = r.stdout
    if "Status: PASSED" in out:
        return "passed", out
    if "Status: FAILED" in out:
        return "failed", out
    raise ToolError(f"yosys-smtbmc {' '.join(args)} {smt2}: no status: {out[-400:]}{r.stderr}")


def prepare(design, keep, kind, workdir):
    """Writes the SMT2 model of design (a dict) with only `keep` of its `kind` cells."""
    os.makedirs(workdir, exist_ok=True)
    smt2 = os.path.join(workdir, f"{keep}.smt2")
    _yosys(design["sources"], design["top"], design["defines"], design["include_dirs"], keep, kind,
           smt2)
    return smt2


def prove(smt2, max_depth, timeout):
    """k-induction: the base case (BMC from the initial state) and the induction step, for
    k = 1..max_depth. Returns ("proven", k), ("failed", k) with a counterexample in the base
    case, or ("unproven", max_depth)."""
    for k in range(1, max_depth + 1):
        status, _ = _smtbmc(["-t", str(k)], smt2, timeout)
        if status == "failed":
            return "failed", k
        if status == "timeout":
            return "unproven", k
        status, _ = _smtbmc(["-i", "-t", str(k)], smt2, timeout)
        if status == "passed":
            return "proven", k
    return "unproven", max_depth


def bmc(smt2, depth, timeout):
    """Bounded model check from the initial state: "passed", "failed" or "timeout"."""
    return _smtbmc(["-t", str(depth)], smt2, timeout)[0]


def cover(smt2, depth, timeout):
    """The step at which the one cover is first reached, or None."""
    status, out = _smtbmc(["-c", "-t", str(depth)], smt2, timeout)
    m = re.search(r"Reached cover statement at \S+ in step (\d+)", out)
    return int(m.group(1)) if m else None
