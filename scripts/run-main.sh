#!/bin/sh
# The main job (`make run`): the reference comparison of shared/docs/reference-result.md.
# Runs platforms/reference.yaml under l1.dec_policy=no-cancel (180c6b072bf3) and =cancel
# (7be6ce7043b4), prints the reference-style table, then the published figures beside the
# model's and whether each band of reference-result.md is met, then each figure's 90 % interval
# from a quick uncertainty sample (NESTVP_UNCERTAINTY_SAMPLES, default 12).
# Usage: scripts/run-main.sh BUILD_DIR
set -eu
build=${1:?usage: scripts/run-main.sh BUILD_DIR}
here=$(cd "$(dirname "$0")/.." && pwd)
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$build/nestvp" compare "$here/platforms/reference.yaml" --set machine.timer.impl=lockstep \
    --set l1.dec_policy=no-cancel --vs l1.dec_policy=cancel --json "$out/compare.json"
# The 90 % intervals: a quick uncertainty sample (12 Latin-hypercube samples of every assumed
# range, seed 1, 10 s each, both policies, the TLM decrementer: the RTL gives the same records).
samples=${NESTVP_UNCERTAINTY_SAMPLES:-12}
echo "sampling the assumed ranges: $samples samples x 2 policies of 10 s (nestvp uncertainty)..." >&2
"$build/nestvp" uncertainty "$here/platforms/reference.yaml" --samples "$samples" --seed 1 \
    --quiet --json "$out/uncertainty.json" > /dev/null
echo
python3 "$here/scripts/reference_bands.py" "$out/compare.json" "$out/uncertainty.json"
