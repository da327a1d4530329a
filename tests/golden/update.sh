#!/bin/sh
# Rewrites the golden run records from tests/golden/cases.txt with BUILD_DIR/nestvp:
#   tests/golden/update.sh BUILD_DIR
set -eu
build=$(cd "${1:?usage: tests/golden/update.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
cd "$here"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
grep -v '^#' tests/golden/cases.txt | grep -v '^$' | while read -r name platform args; do
    # shellcheck disable=SC2086
    "$build/nestvp" run "$platform" --quiet $args --json "tests/golden/$name.json" >/dev/null
    echo "tests/golden/$name.json"
done
