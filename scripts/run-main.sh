#!/bin/sh
# The main job (`make run`): the reference comparison of shared/docs/reference-result.md.
# Runs platforms/reference.yaml under l1.dec_policy=no-cancel (180c6b072bf3) and =cancel
# (7be6ce7043b4), prints the reference-style table, then the published figures beside the
# model's and whether each band of reference-result.md is met, then each figure's 90 % interval
# from uncertainty samples, and whether each interval has converged (N/2 against N samples).
# Usage: scripts/run-main.sh BUILD_DIR
set -eu
build=${1:?usage: scripts/run-main.sh BUILD_DIR}
here=$(cd "$(dirname "$0")/.." && pwd)
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$build/nestvp" compare "$here/platforms/reference.yaml" --set machine.timer.impl=lockstep \
    --set l1.dec_policy=no-cancel --vs l1.dec_policy=cancel --json "$out/compare.json"
# The 90 % intervals (docs/cmd-uncertainty.md): Latin-hypercube samples of every assumed range,
# seed 1, both policies, the TLM decrementer (the RTL gives the same records), -j of the cores.
# Every row (exits, arithoh, GET_STATE and their ratios): NESTVP_UNCERTAINTY_SAMPLES (default
# 384) samples of 1 s runs, counts scaled to 10 s: their rates are stationary within 2 %, 1 s
# against 10 s, under both policies (tests/cli/stationarity_test.cpp). reference_bands.py prints
# whether each row's N/2 and N bounds agree within 10 % of the width (docs/cmd-uncertainty.md).
# The published figures are one run each (N=1), so every interval is one run's: each sample plus
# the run-to-run noise of NESTVP_RUN_NOISE (default 16) replicates of 10 s per policy, each with
# its own seed, stepped from the platform's own 1 s point (which removes the short runs' offset).
jobs=$(nproc)
samples=${NESTVP_UNCERTAINTY_SAMPLES:-384}
replicates=${NESTVP_RUN_NOISE:-16}
echo "sampling the assumed ranges: $samples samples x 2 policies of 1 s, and $replicates" \
    "replicates x 2 policies of 10 s (nestvp uncertainty, -j $jobs)..." >&2
"$build/nestvp" uncertainty "$here/platforms/reference.yaml" --samples "$samples" --seed 1 \
    --short-runs 1 --run-noise "$replicates" -j "$jobs" --quiet \
    --json "$out/uncertainty-short.json" > /dev/null
echo
python3 "$here/scripts/reference_bands.py" "$out/compare.json" "$out/uncertainty-short.json"
