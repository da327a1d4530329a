#!/bin/sh
# Runs every benchmark binary of a build: bench/run.sh <build dir> (`make bench`).
set -eu
build=${1:?usage: bench/run.sh <build dir>}
dir="$build/bench"
if [ ! -d "$dir" ]; then
    echo "bench/run.sh: no bench binaries in '$dir' (build first: make build)" >&2
    exit 2
fi
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
status=0
found=0
for b in "$dir"/*_bench; do
    [ -x "$b" ] || continue
    found=1
    echo "== $(basename "$b")"
    "$b" || status=1
done
if [ "$found" = 0 ]; then
    echo "bench/run.sh: no *_bench executables in '$dir'" >&2
    exit 2
fi
exit $status
