"""One yosys-smtbmc check of one property or cover of a Verilog design (`make formal`).

yosys 0.23 reads the design with -formal; every assertion but the one asked for (and every
cover) is deleted, so each property is proven on its own (z3 is slow on the conjunction of
them all). z3 is the solver: Debian's boolector has no incremental mode, which smtbmc needs.
"""
import os
import re
import signal
import subprocess

SOLVER = "z3"


class ToolError(RuntimeError):
    """yosys or yosys-smtbmc could not run (not a proof result)."""


def _read_cmd(design):
    defs = " ".join("-D" + d for d in design["defines"])
    incs = " ".join("-I" + i for i in design["include_dirs"])
    return (f"read_verilog -formal {defs} {incs} {' '.join(design['sources'])}; "
            f"prep -top {design['top']}; ")


def _yosys_script(design, keep, kind, out_smt2):
    top = design["top"]
    other = "cover" if kind == "assert" else "assert"
    # opt_clean drops the logic only the deleted properties read.
    sel = " ".join(f"{top}/{k}" for k in ([keep] if isinstance(keep, str) else keep))
    return (f"{_read_cmd(design)}flatten; async2sync; chformal -{other} -remove; "
            f"select -set keep {sel}; delete t:${kind} @keep %d; opt_clean; "
            f"write_smt2 -wires {out_smt2}")


def labels(design, kind, workdir):
    """The labels of the design's `kind` ("assert" or "cover") cells, in source order."""
    os.makedirs(workdir, exist_ok=True)
    script = f"{_read_cmd(design)}select -list t:${kind}"
    r = subprocess.run(["yosys", "-p", script], capture_output=True, text=True, cwd=workdir)
    if r.returncode != 0:
        raise ToolError(f"yosys failed listing {kind}: {(r.stderr or r.stdout)[-2000:]}")
    prefix = design["top"] + "/"
    names = [l.strip()[len(prefix):] for l in r.stdout.splitlines() if l.strip().startswith(prefix)]
    # Anonymous cells ($assert$file:line$n) have no label to report; the units label all.
    names = [n for n in names if not n.startswith("$")]
    order = _source_order(design["sources"] + _includes(design))
    return sorted(set(names), key=lambda n: order.get(n, 1 << 30))


def _includes(design):
    out = []
    for d in design["include_dirs"]:
        out += [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith(".vh")]
    return out


def _source_order(paths):
    order = {}
    for p in paths:
        with open(p, encoding="utf-8") as f:
            for m in re.finditer(r"\b([A-Za-z_]\w*)(?:\s*:\s*(?:assert|cover)\b|,)", f.read()):
                order.setdefault(m.group(1), len(order))
    return order


def prepare(design, keep, kind, workdir):
    """Writes the SMT2 model of design (a dict) with only `keep` of its `kind` cells: one
    label, or a list of them (a property and the auxiliary invariants proven with it; the file
    is named after the first)."""
    os.makedirs(workdir, exist_ok=True)
    name = keep if isinstance(keep, str) else keep[0]
    smt2 = os.path.join(workdir, f"{name}.smt2")
    r = subprocess.run(["yosys", "-q", "-p", _yosys_script(design, keep, kind, smt2)],
                       capture_output=True, text=True, cwd=workdir)
    if r.returncode != 0:
        raise ToolError(f"yosys failed for {keep}: {(r.stderr or r.stdout).strip()[-2000:]}")
    return smt2


def _smtbmc(args, smt2, timeout):
    cmd = ["yosys-smtbmc", "-s", SOLVER] + args + [smt2]
    # A session of its own, so that a timeout also ends the solver smtbmc started.
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return "timeout", ""
    if "Status: PASSED" in out:
        return "passed", out
    if "Status: FAILED" in out:
        return "failed", out
    raise ToolError(f"yosys-smtbmc {' '.join(args)} {smt2}: no status: {out[-400:]}{err}")


def prove(smt2, max_depth, timeout):
    """k-induction: for k = 1..max_depth the base case (BMC from the initial state, k steps;
    --presat fails when the assumptions admit no trace) and the induction step (any k steps
    whose first k-1 hold end in one that holds), as SymbiYosys runs them. Returns ("proven", k),
    ("failed", k) with a counterexample from the initial state, ("timeout", k) or
    ("unproven", max_depth)."""
    for k in range(1, max_depth + 1):
        status, _ = _smtbmc(["--presat", "-t", str(k)], smt2, timeout)
        if status != "passed":
            return status, k
        status, _ = _smtbmc(["-i", "-t", str(k)], smt2, timeout)
        if status == "passed":
            return "proven", k
        if status == "timeout":
            return "timeout", k
    return "unproven", max_depth


def bmc(smt2, depth, timeout):
    """Bounded model check from the initial state: "passed", "failed" or "timeout"."""
    return _smtbmc(["--presat", "-t", str(depth)], smt2, timeout)[0]


def cover(smt2, depth, timeout):
    """The step at which the one cover is first reached, None if it is not within depth,
    or "timeout"."""
    status, out = _smtbmc(["-c", "-t", str(depth)], smt2, timeout)
    if status == "timeout":
        return "timeout"
    m = re.search(r"Reached cover statement at \S+ in step (\d+)", out)
    return int(m.group(1)) if m and status == "passed" else None
