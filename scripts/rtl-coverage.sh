#!/bin/sh
# `make coverage`: line and toggle coverage of rtl/decrementer_unit.v under co-verification
# (docs/rtl-decrementer.md, "Co-verification coverage"). BUILD_DIR is a build configured with
# -DNESTVP_RTL_COVERAGE=ON. Runs (a) the §8 conformance vectors on rtl and lockstep, (b) the
# seeded random differential test, (c) a short lockstep run of the reference platform; every
# RTL unit writes its counts into BUILD_DIR/coverage/dat; then merges them with
# verilator_coverage and prints the figures per coverage type.
# Usage: scripts/rtl-coverage.sh BUILD_DIR [JOBS]
set -eu
build=${1:?usage: scripts/rtl-coverage.sh BUILD_DIR [JOBS]}
jobs=${2:-2}
here=$(cd "$(dirname "$0")/.." && pwd)
out="$(cd "$build" && pwd)/coverage"  # absolute: tests run in their own folders
rm -rf "$out"
mkdir -p "$out/dat"
export NESTVP_RTL_COVERAGE_DIR="$out/dat"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1

echo "coverage: (a) conformance vectors on rtl and lockstep"
ctest --test-dir "$build" -j"$jobs" --output-on-failure -R '^Impl/Vector\..*/(rtl|lockstep)( |$)' \
    > "$out/conformance.log" || { cat "$out/conformance.log"; exit 1; }
echo "coverage: (b) random differential test"
ctest --test-dir "$build" -j"$jobs" --output-on-failure -R 'RtlDifferential' \
    > "$out/differential.log" || { cat "$out/differential.log"; exit 1; }
echo "coverage: (c) reference platform, lockstep, 0.2 s simulated"
"$build/nestvp" run "$here/platforms/reference.yaml" --quiet --json "$out/lockstep-run.json" \
    --set machine.timer.impl=lockstep --set run.duration_s=0.2 > "$out/lockstep-run.log"

set -- "$out"/dat/*.dat
[ -f "$1" ] || { echo "coverage: no coverage data written (build without NESTVP_RTL_COVERAGE?)" >&2; exit 1; }
echo "coverage: merging $# data files"
verilator_coverage --write "$out/merged.dat" "$@"
verilator_coverage --write-info "$out/merged.info" "$out/merged.dat"
verilator_coverage --annotate "$out/annotated" --annotate-min 1 "$out/merged.dat" > "$out/annotate.log"
echo
python3 "$here/scripts/rtl_coverage_summary.py" "$out/merged.dat" "$out/merged.info"
echo "annotated source: $out/annotated/decrementer_unit.v (lines marked %NNNNNN are below 1)"
echo "lcov data: $out/merged.info"
