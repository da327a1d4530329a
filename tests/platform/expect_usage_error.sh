#!/bin/sh
# Runs a nestvp command that must reject its input: exit code 2, nothing on stdout, and an
# "expected ..., found ..." message on stderr.
out=$("$@" 2>/tmp/nestvp_cli_err.$$)
rc=$?
err=$(cat /tmp/nestvp_cli_err.$$)
rm -f /tmp/nestvp_cli_err.$$
echo "stderr: $err"
[ "$rc" -eq 2 ] || { echo "exit code $rc, expected 2"; exit 1; }
[ -z "$out" ] || { echo "stdout not empty: $out"; exit 1; }
case "$err" in
    *expected*) ;;
    *) echo "stderr does not say what was expected"; exit 1 ;;
esac
