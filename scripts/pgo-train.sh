#!/bin/sh
# Profile-guided optimisation of a Release build (CMakeLists.txt, NESTVP_PGO; bench/README.md,
# "Profile-guided optimisation"). Builds `nestvp` instrumented in BUILD_DIR.pgo-gen, runs the
# training set below, and leaves the profiles in BUILD_DIR.pgo-data, which BUILD_DIR then reads
# (configured with -DNESTVP_PGO=use, as `make PGO=1` does). Does nothing while the profiles are newer
# than every source; after a new training, BUILD_DIR's outputs are cleaned so that it compiles
# again against the new profiles. The profiles change code layout, never a result.
# Usage: scripts/pgo-train.sh BUILD_DIR [JOBS]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "${1:?usage: scripts/pgo-train.sh BUILD_DIR [JOBS]}"
build=$(cd "$1" && pwd)
jobs=${2:-$(nproc)}
gen=$build.pgo-gen
data=$build.pgo-data
stamp=$data/trained
if [ -f "$stamp" ] && [ -z "$(find "$here/CMakeLists.txt" "$here/cmake" "$here/models" "$here/rtl" \
    "$here/sw" "$here/platforms" -type f -newer "$stamp" -print | head -n 1)" ]; then
    exit 0
fi
echo "pgo: building an instrumented nestvp in $gen and training it (make PGO=1 asks for this)" >&2
rm -rf "$data"
mkdir -p "$data" "$gen"
log=$gen/pgo.log
fail() {
    tail -n 40 "$log" >&2
    echo "pgo: $1 failed; the whole log is $log" >&2
    exit 1
}
cmake -S "$here" -B "$gen" -DCMAKE_BUILD_TYPE=Release -DNESTVP_BUILD_TESTS=OFF \
    -DNESTVP_PGO=generate -DNESTVP_PGO_DIR="$data" >"$log" 2>&1 || fail "configuring $gen"
cmake --build "$gen" -j"$jobs" --target nestvp >>"$log" 2>&1 || fail "building $gen/nestvp"
# The training set: the reference under each policy and timer implementation, the other
# platforms, and the device and IPI paths (as tests/golden/cases.txt), each short.
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
while read -r platform args; do
    [ -n "$platform" ] || continue
    # shellcheck disable=SC2086
    "$gen/nestvp" run "$here/$platform" --quiet $args >>"$log" 2>&1 ||
        fail "training run $platform $args"
done <<'RUNS'
platforms/reference.yaml --set l1.dec_policy=no-cancel --set run.duration_s=0.5
platforms/reference.yaml --set l1.dec_policy=cancel --set run.duration_s=0.5
platforms/reference.yaml --set l1.dec_policy=cancel-poll --set l0.run_output=powervm --set run.duration_s=0.3
platforms/reference.yaml --set l1.dec_policy=no-cancel --set machine.timer.impl=lockstep --set run.duration_s=0.3
platforms/reference.yaml --set l1.dec_policy=cancel --set machine.timer.impl=rtl --set run.duration_s=0.2
platforms/reference.yaml --set l2.irqchip=in-kernel-xics --set l2.devices.ipi_hz=700 --set run.duration_s=0.2
platforms/reference.yaml --set l2.devices.ipi_hz=700 --set run.duration_s=0.2
platforms/nestedv1.yaml --set run.duration_s=0.3
platforms/idle-heavy.yaml --set run.duration_s=0.3
RUNS
touch "$stamp"
if [ -f "$build/CMakeCache.txt" ]; then
    cmake --build "$build" --target clean >/dev/null 2>&1 || true
fi
