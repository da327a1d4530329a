#!/bin/sh
# A newcomer's first run, timed: clones the repository into a fresh folder, runs `make run`
# (packages already installed are skipped by scripts/install-deps.sh) and notes when the
# reference table appears and when the job ends, then `make test`. bench/README.md,
# "What make builds", holds the figures. Usage: bench/first-run.sh [REPO] [MAKE ARGS...]
set -eu
repo=${1:-$(cd "$(dirname "$0")/.." && pwd)}
[ $# -gt 0 ] && shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
git clone -q "$repo" "$dir/nestvp"
cd "$dir/nestvp"
now() { date +%s.%N; }
t0=$(now)
# The table's header row is the first line of the reference comparison.
make run "$@" 2>&1 | while IFS= read -r line; do
    printf '%s\n' "$line"
    case $line in
        "| metric"*) [ -e "$dir/table" ] || now > "$dir/table" ;;
    esac
done > "$dir/run.log"
t1=$(now)
[ -e "$dir/table" ] || { tail -n 30 "$dir/run.log"; echo "first-run: make run printed no table" >&2; exit 1; }
make test "$@" > "$dir/test.log" 2>&1 || { tail -n 30 "$dir/test.log"; echo "first-run: make test failed" >&2; exit 1; }
t2=$(now)
awk -v a="$t0" -v b="$(cat "$dir/table")" -v c="$t1" -v d="$t2" -v n="$(nproc)" 'BEGIN {
    printf "first-run on %d cores, %s\n", n, "fresh clone, packages already installed"
    printf "  make run: table after %.0f s (%d min %02d s), job done after %.0f s\n", b - a, (b - a) / 60, (b - a) % 60, c - a
    printf "  make test after it: %.0f s\n", d - c
}'
