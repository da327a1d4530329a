#!/usr/bin/env bash
# Runs the "A five-minute tour" block of README.md verbatim, line by line, from a fresh
# temporary folder in which build/ is the real build folder and platforms/ the repository's,
# so that `build/nestvp ...` and `out/...` mean what they mean in the README.
# Skipped lines: `make run` (the full reference measurement, exercised on its own) and `xdg-open`
# (needs a desktop). Every other line must exit 0; the test fails if any line fails.
# The sweep line writes --csv out/vcpus.csv into a folder that does not exist yet here: it
# passes only where `sweep --csv` creates the missing folder, as `--plot` does.
# Usage: readme_tour_test.sh SOURCE_DIR BUILD_DIR
set -uo pipefail
src=$1 build=$2
readme=$src/README.md

# The fenced block after the heading, with backslash continuations joined.
mapfile -t lines < <(awk '/^## A five-minute tour/ {h=1; next}
    h && /^```/ {if (in_block) exit; in_block=1; next}
    in_block {print}' "$readme" | sed -e ':a' -e '/\\$/N; s/\\\n//; ta')
if ((${#lines[@]} == 0)); then
    echo "no code block under '## A five-minute tour' in $readme" >&2
    exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ln -s "$build" "$tmp/build"
ln -s "$src/platforms" "$tmp/platforms"
cd "$tmp" || exit 1
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1

failed=0 ran=0
for line in "${lines[@]}"; do
    cmd=${line%%#*}                       # the README's trailing comments
    cmd=${cmd%"${cmd##*[![:space:]]}"}   # trailing blanks
    [[ -z $cmd ]] && continue
    case $cmd in
        "make run"* | "xdg-open"*) echo "SKIP  $cmd"; continue ;;
    esac
    start=$SECONDS
    bash -c "$cmd" >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    ran=$((ran + 1))
    if ((rc == 0)); then
        echo "ok    ($((SECONDS - start)) s) $cmd"
    else
        failed=$((failed + 1))
        echo "FAIL  (exit $rc, $((SECONDS - start)) s) $cmd"
        sed -e 's/^/      /' "$tmp/stderr" | tail -n 15
    fi
done
echo "$ran lines run, $failed failed"
((failed == 0 && ran > 0))
