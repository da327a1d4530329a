#!/bin/sh
# The main job (`make run`). For now: the demonstration stimulus and its event log.
# Usage: scripts/run-main.sh BUILD_DIR
set -eu
build=${1:?usage: scripts/run-main.sh BUILD_DIR}
here=$(cd "$(dirname "$0")/.." && pwd)
SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 exec "$build/nestvp" stim "$here/platforms/stim/demo.yaml"
