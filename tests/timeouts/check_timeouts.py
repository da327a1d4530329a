#!/usr/bin/env python3
"""Every ctest entry must carry a TIMEOUT property (docs/testing.md, "Timeouts").

Usage: check_timeouts.py BUILD_DIR        reads `ctest --show-only=json-v1` of that build tree
       check_timeouts.py --json FILE      reads that output from a file (the checker's own test)
Prints one line per entry without a timeout and exits 1 if there is any.
"""
import json
import subprocess
import sys


def load(argv):
    if len(argv) == 3 and argv[1] == "--json":
        with open(argv[2]) as f:
            return json.load(f)
    if len(argv) == 2:
        out = subprocess.run(["ctest", "--test-dir", argv[1], "--show-only=json-v1"],
                             check=True, capture_output=True, text=True).stdout
        return json.loads(out)
    sys.exit(__doc__)


def main(argv):
    tests = load(argv).get("tests", [])
    missing = []
    for t in tests:
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        timeout = props.get("TIMEOUT")
        if timeout is None or float(timeout) <= 0:
            missing.append(t["name"])
    for name in missing:
        print(f"no TIMEOUT: {name}")
    print(f"{len(tests)} entries, {len(missing)} without a timeout")
    if not tests:
        print("no ctest entries found")
        return 1
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
