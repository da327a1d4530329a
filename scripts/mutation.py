#!/usr/bin/env python3
"""C++ mutation testing of the timer and interrupt-delivery models (docs/testing.md, "Mutation").

Each mutant in scripts/mutants.py is one exact edit: a file, a source pattern that must occur
exactly once, and its replacement. The checkout is never written: its files are copied to a
scratch tree under the mutation folder (only the changed ones, so rebuilds stay incremental),
each mutant is applied there and undone before the next, and that tree is built in its own
folder (Release, no LTO, no PGO), the timer and RTL test executables only. A mutant is killed
when one of their tests fails or runs past the per-test timeout (ten times the slowest test of
the unmutated run, at least 10 s); the tests run one process each (SystemC elaborates once per
process), those that killed earlier mutants first, and stop at the first failure.

Usage: scripts/mutation.py [--dir build-mutation] [--jobs 2] [--only NAME ...] [--list]
Prints one line per survivor (saying whether docs/testing.md documents it as equivalent) and
ends with `C++ mutation score: K/N killed`. Exits non-zero only
on a setup error (a pattern that does not match exactly once, a failed baseline build or test).
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mutants import MUTANTS  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The test executables that exercise the models: tests/timer and tests/rtl (CMakeLists.txt
# there); timer_stim runs the nestvp command too.
TEST_TARGETS = [
    "timer_tb_arith", "timer_conformance", "timer_kut", "timer_choices", "timer_irq_lines",
    "timer_external_class", "timer_dispatch", "timer_event_path", "timer_stim", "rtl_module", "rtl_adv_property", "rtl_unit",
    "rtl_differential", "rtl_lockstep_checker",
]
BUILD_TARGETS = TEST_TARGETS + ["nestvp"]
# Seconds per test process (a hang counts as a kill): ten times the slowest test of the
# baseline run, at least MIN_TEST_TIMEOUT, so that a hanging mutant costs seconds, not minutes.
MIN_TEST_TIMEOUT = 10


class SetupError(Exception):
    pass


def log(msg):
    print(msg, flush=True)


def source_files():
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                         check=True, capture_output=True).stdout
    return [f for f in out.decode().split("\0") if f and os.path.isfile(os.path.join(ROOT, f))]


def sync_tree(src_dir):
    """Copies the checkout's files into the scratch tree, writing only those that differ."""
    changed = 0
    for rel in source_files():
        a = os.path.join(ROOT, rel)
        b = os.path.join(src_dir, rel)
        with open(a, "rb") as f:
            data = f.read()
        try:
            with open(b, "rb") as f:
                if f.read() == data:
                    continue
        except FileNotFoundError:
            os.makedirs(os.path.dirname(b), exist_ok=True)
        with open(b, "wb") as f:
            f.write(data)
        os.chmod(b, os.stat(a).st_mode & 0o777)
        changed += 1
    return changed


def check_patterns(mutants):
    """Every pattern must occur exactly once in the checkout's file (a stale one is an error)."""
    errors = []
    names = set()
    for m in mutants:
        if m["name"] in names:
            errors.append(f"{m['name']}: duplicate mutant name")
        names.add(m["name"])
        path = os.path.join(ROOT, m["file"])
        try:
            text = open(path).read()
        except FileNotFoundError:
            errors.append(f"{m['name']}: {m['file']} does not exist")
            continue
        n = text.count(m["pattern"])
        if n != 1:
            errors.append(f"{m['name']}: pattern occurs {n} times in {m['file']} (must be 1)")
        if m["pattern"] == m["replacement"]:
            errors.append(f"{m['name']}: replacement equals the pattern")
    if errors:
        raise SetupError("stale or ambiguous mutants:\n  " + "\n  ".join(errors))


def documented_equivalents():
    """Mutant names listed in docs/testing.md's "Equivalent mutants" section."""
    names = set()
    try:
        text = open(os.path.join(ROOT, "docs", "testing.md")).read()
    except FileNotFoundError:
        return names
    section = text.split("### Equivalent mutants", 1)[-1].split("\n#", 1)[0] if (
        "### Equivalent mutants" in text) else ""
    for line in section.splitlines():
        if line.startswith("- `"):
            names.add(line[3:].split("`", 1)[0])
    return names


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def configure(src_dir, build_dir):
    r = run(["cmake", "-S", src_dir, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
             "-DNESTVP_LTO=OFF", "-DNESTVP_PGO=OFF"])
    if r.returncode != 0:
        raise SetupError("configure failed:\n" + r.stdout[-4000:])


def build(build_dir, jobs):
    return run(["nice", "-n", "10", "cmake", "--build", build_dir, f"-j{jobs}", "--target"]
               + BUILD_TARGETS)


def exe_path(build_dir, target):
    sub = "timer" if target.startswith("timer_") else "rtl"
    return os.path.join(build_dir, "tests", sub, target)


def list_tests(build_dir):
    """(executable, gtest filter) for every test, in the order the executables list them."""
    tests = []
    for t in TEST_TARGETS:
        exe = exe_path(build_dir, t)
        r = run([exe, "--gtest_list_tests"], env=test_env(), cwd=os.path.dirname(exe))
        if r.returncode != 0:
            raise SetupError(f"{t} --gtest_list_tests failed:\n{r.stdout[-2000:]}")
        suite = None
        for line in r.stdout.splitlines():
            if not line.strip():
                continue
            if not line.startswith(" "):
                suite = line.split("#")[0].strip()
            else:
                tests.append((t, suite + line.split("#")[0].strip()))
    return tests


def test_env():
    env = dict(os.environ)
    env["SYSTEMC_DISABLE_COPYRIGHT_MESSAGE"] = "1"
    return env


def run_one(build_dir, test, stop):
    """'pass', 'fail', 'timeout' or 'skipped' (another test already killed the mutant)."""
    if stop["killed"]:
        return "skipped"
    exe = exe_path(build_dir, test[0])
    t0 = time.monotonic()
    p = subprocess.Popen([exe, f"--gtest_filter={test[1]}"], cwd=os.path.dirname(exe),
                         env=test_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)
    try:
        rc = p.wait(timeout=stop["timeout"])
        stop["slowest"] = max(stop["slowest"], time.monotonic() - t0)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        stop["killed"] = True
        return "timeout"
    if rc != 0:
        stop["killed"] = True
        return "fail"
    return "pass"


def run_tests(build_dir, tests, jobs, timeout):
    """Runs until the first failure; returns (killed, the killing test or None, the slowest
    passing test's seconds)."""
    stop = {"killed": False, "timeout": timeout, "slowest": 0.0}
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        try:
            results = list(pool.map(lambda t: (t, run_one(build_dir, t, stop)), tests))
        except KeyboardInterrupt:
            stop["killed"] = True  # the queued tests return at once
            raise
    for t, res in results:
        if res in ("fail", "timeout"):
            return True, (t, res), stop["slowest"]
    return False, None, stop["slowest"]


def interrupt(signum, frame):
    raise KeyboardInterrupt


def main():
    # Ctrl-C or a kill undoes the mutant in the scratch tree (the finally below), also when
    # started in the background, where SIGINT would otherwise be ignored.
    signal.signal(signal.SIGINT, interrupt)
    signal.signal(signal.SIGTERM, interrupt)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", default=os.path.join(ROOT, "build-mutation"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", nargs="*", help="run these mutants only")
    ap.add_argument("--list", action="store_true", help="check and list the mutants")
    args = ap.parse_args()

    mutants = MUTANTS
    if args.only:
        unknown = set(args.only) - {m["name"] for m in MUTANTS}
        if unknown:
            raise SetupError("unknown mutants: " + ", ".join(sorted(unknown)))
        mutants = [m for m in MUTANTS if m["name"] in args.only]
    check_patterns(mutants)
    if args.list:
        for m in mutants:
            log(f"{m['name']}: {m['file']}")
        log(f"{len(mutants)} mutants")
        return 0

    start = time.monotonic()
    work = os.path.abspath(args.dir)
    src_dir = os.path.join(work, "src")
    build_dir = os.path.join(work, "build")
    os.makedirs(src_dir, exist_ok=True)
    # A run stopped mid-mutant leaves the scratch tree mutated, never the checkout: the sync
    # puts the checkout's text back first.
    n = sync_tree(src_dir)
    log(f"mutation: scratch tree {src_dir} ({n} files updated)")
    configure(src_dir, build_dir)  # incremental; picks up new test targets before the build
    r = build(build_dir, args.jobs)
    if r.returncode != 0:
        raise SetupError("baseline build failed:\n" + r.stdout[-4000:])
    tests = list_tests(build_dir)
    log(f"mutation: baseline built, {len(tests)} tests, {time.monotonic() - start:.0f} s")
    # The unmutated tree must pass: otherwise every mutant would count as killed.
    killed, why, slowest = run_tests(build_dir, tests, args.jobs, 600)
    if killed:
        raise SetupError(f"baseline fails: {why[0][1]} ({why[1]})")
    timeout = max(MIN_TEST_TIMEOUT, 10 * slowest)
    log(f"mutation: baseline passes, {time.monotonic() - start:.0f} s; slowest test"
        f" {slowest:.1f} s, per-test timeout {timeout:.0f} s")

    # Mutants of one file run back to back: undoing the edit is then a rewrite, not a build.
    order = sorted(range(len(mutants)), key=lambda i: (mutants[i]["file"], i))
    survivors = []
    killed_count = 0
    kill_counts = {}  # test -> mutants it killed; those run first for the next mutant
    original = {}
    try:
        for k, i in enumerate(order):
            m = mutants[i]
            path = os.path.join(src_dir, m["file"])
            if m["file"] not in original:
                original[m["file"]] = open(path).read()
            for f, text in original.items():  # undo the previous mutant
                if f != m["file"] and open(os.path.join(src_dir, f)).read() != text:
                    with open(os.path.join(src_dir, f), "w") as fh:
                        fh.write(text)
            text = original[m["file"]]
            with open(path, "w") as fh:
                fh.write(text.replace(m["pattern"], m["replacement"], 1))
            t0 = time.monotonic()
            r = build(build_dir, args.jobs)
            if r.returncode != 0:
                # A mutant that does not compile tells nothing about the tests.
                raise SetupError(f"{m['name']}: mutant does not build:\n{r.stdout[-3000:]}")
            tb = time.monotonic() - t0
            ordered = sorted(tests, key=lambda t: -kill_counts.get(t, 0))
            killed, why, _ = run_tests(build_dir, ordered, args.jobs, timeout)
            tt = time.monotonic() - t0 - tb
            if killed:
                killed_count += 1
                kill_counts[why[0]] = kill_counts.get(why[0], 0) + 1
                log(f"[{k + 1}/{len(mutants)}] killed  {m['name']} by {why[0][1]} ({why[1]}),"
                    f" build {tb:.0f} s, tests {tt:.0f} s")
            else:
                survivors.append(m)
                log(f"[{k + 1}/{len(mutants)}] SURVIVED {m['name']},"
                    f" build {tb:.0f} s, tests {tt:.0f} s")
    finally:
        # Only the file of the last mutant differs; rewriting the others would rebuild them.
        for f, text in original.items():
            path = os.path.join(src_dir, f)
            if open(path).read() != text:
                with open(path, "w") as fh:
                    fh.write(text)
    documented = documented_equivalents()
    for m in survivors:
        note = ("documented as equivalent in docs/testing.md" if m["name"] in documented
                else "not documented: kill it with a test or document why it is equivalent")
        log(f"survivor: {m['name']} ({m['file']}): {m['why']} [{note}]")
    log(f"mutation: wall time {time.monotonic() - start:.0f} s")
    log(f"C++ mutation score: {killed_count}/{len(mutants)} killed")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except SetupError as e:
        print(f"mutation: setup error: {e}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print("mutation: interrupted (the checkout was never modified)", file=sys.stderr)
        sys.exit(130)
