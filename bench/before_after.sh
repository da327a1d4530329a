#!/bin/sh
# The reference platform's speed under this build against an earlier commit's, in one run:
#   bench/before_after.sh BUILD_DIR OLD_COMMIT [REPS] [OLD_BUILD_DIR]
# Builds `nestvp` of OLD_COMMIT in a worktree (or uses OLD_BUILD_DIR/nestvp), then runs the
# 10 s reference (`impl: tlm`, or IMPL=rtl|lockstep from the environment) under no-cancel and
# cancel with each binary, interleaved so that
# machine noise hits both alike, each binary with its own commit's platforms/reference.yaml.
# NEW_PLATFORM=FILE runs the new build on FILE instead (e.g. bench/reference-as-2677f31.yaml,
# the old reference in today's schema, so that both builds simulate the same work).
# Prints the median user CPU seconds, real-time factors, exits and CPU ns per exit, and the
# new/old ratios. Not a test: it asserts nothing.
set -eu
build=${1:?usage: bench/before_after.sh BUILD_DIR OLD_COMMIT [REPS] [OLD_BUILD_DIR]}
old=${2:?usage: bench/before_after.sh BUILD_DIR OLD_COMMIT [REPS] [OLD_BUILD_DIR]}
reps=${3:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'git -C "$here" worktree remove --force "$work/old" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git -C "$here" worktree add --detach "$work/old" "$old" >/dev/null 2>&1
if [ -n "${4:-}" ]; then
    old_bin=$4/nestvp
else
    cmake -S "$work/old" -B "$work/old/build" -DCMAKE_BUILD_TYPE=Release \
        -DNESTVP_BUILD_TESTS=OFF >"$work/configure.log" 2>&1
    cmake --build "$work/old/build" -j"$(nproc)" --target nestvp >"$work/build.log" 2>&1
    old_bin=$work/old/build/nestvp
fi
NEW_PLATFORM=${NEW_PLATFORM:-$here/platforms/reference.yaml}
new_platform=$(realpath "$NEW_PLATFORM")
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
run() {  # binary platform policy -> "user_seconds exits"
    /usr/bin/time -f "%U" -o "$work/t" "$1" run "$2" --quiet --set l1.dec_policy="$3" \
        --set machine.timer.impl="${IMPL:-tlm}" --json "$work/r.json" >/dev/null
    exits=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['metrics']['kvm_guest_exit'])" "$work/r.json")
    echo "$(cat "$work/t") $exits"
}
for policy in no-cancel cancel; do
    : >"$work/old.$policy"
    : >"$work/new.$policy"
    i=0
    while [ $i -lt "$reps" ]; do
        run "$old_bin" "$work/old/platforms/reference.yaml" $policy >>"$work/old.$policy"
        run "$build/nestvp" "$new_platform" $policy >>"$work/new.$policy"
        i=$((i + 1))
    done
done
# The new build's label: HEAD, marked -dirty when the tree has changes the build may hold.
python3 - "$work" "$old" "$(git -C "$here" describe --always --dirty --abbrev=7)" "$NEW_PLATFORM" <<'PY'
import os, statistics, sys
work, old, new = sys.argv[1:4]
def load(tag, policy):
    rows = [l.split() for l in open(f"{work}/{tag}.{policy}") if l.strip()]
    return statistics.median(float(r[0]) for r in rows), int(rows[0][1])
print(f"impl: {os.environ.get('IMPL', 'tlm')}; new build's platform: {sys.argv[4]}")
print(f"| policy | build | CPU s (median) | x real time | exits | CPU ns / exit |")
print(f"|---|---|---:|---:|---:|---:|")
for policy in ("no-cancel", "cancel"):
    res = {}
    for tag, name in (("old", old), ("new", new)):
        cpu, exits = load(tag, policy)
        res[tag] = (cpu, exits)
        print(f"| {policy} | {name} | {cpu:.2f} | {10 / cpu:.1f} | {exits:,} | {cpu * 1e9 / exits:,.0f} |")
    (co, eo), (cn, en) = res["old"], res["new"]
    print(f"| {policy} | new/old | {cn / co:.2f}x | | {en / eo:.2f}x | {(cn / en) / (co / eo):.2f}x |")
PY
