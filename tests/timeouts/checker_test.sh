#!/bin/sh
# check_timeouts.py on a fixture with one entry lacking a TIMEOUT: it must exit 1 and name that
# entry, and only that one.
# Usage: checker_test.sh PYTHON3 CHECKER FIXTURE_JSON
out=$("$1" "$2" --json "$3")
rc=$?
echo "$out"
expected="no TIMEOUT: lacks_timeout
2 entries, 1 without a timeout"
[ "$rc" -eq 1 ] || { echo "expected exit 1, got $rc"; exit 1; }
[ "$out" = "$expected" ] || { echo "unexpected output"; exit 1; }
