#!/bin/sh
# Runs the libFuzzer targets of a fuzz build one at a time, niced (docs/fuzzing.md):
#   tests/fuzz/run.sh <fuzz build dir> [seconds per target] [target ...]
# Each target starts from tests/fuzz/corpus/<t> and works in <build>/fuzz-work/<t>; new inputs
# that add coverage are merged back into the (small) repository corpus; crashes, leaks and
# timeouts are written to tests/fuzz/crashes/<t>/ (keep them: fuzz_replay_test replays them).
# A log per target with the final stats line goes to <build>/fuzz-work/<t>.log.
set -eu
build=${1:?usage: tests/fuzz/run.sh <fuzz build dir> [seconds] [target ...]}
secs=${2:-600}
shift 2 2>/dev/null || shift $#
targets=${*:-gsb l0 platform stim}
src=$(cd "$(dirname "$0")" && pwd)
status=0
for t in $targets; do
    bin="$build/tests/fuzz/fuzz_$t"
    [ -x "$bin" ] || { echo "fuzz: no $bin (make fuzz builds it)" >&2; exit 2; }
    work="$build/fuzz-work/$t"
    mkdir -p "$work" "$src/crashes/$t"
    echo "== fuzz_$t for ${secs}s" >&2
    # -rss_limit_mb: the platform loader target links SystemC and yaml-cpp.
    if nice -n 19 "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$src/crashes/$t/" \
        "$work" "$src/corpus/$t" > "$work.log" 2>&1; then
        :
    else
        status=1
        echo "fuzz_$t: finding, see $work.log and $src/crashes/$t/" >&2
    fi
    grep -E "^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb)" \
        "$work.log" >&2 || tail -5 "$work.log" >&2
    # Keep the repository corpus small: only inputs that add coverage go back.
    nice -n 19 "$bin" -merge=1 "$src/corpus/$t" "$work" >> "$work.log" 2>&1 || true
done
exit $status
