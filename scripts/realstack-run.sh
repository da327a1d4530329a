#!/bin/bash
# Runs real-stack scenarios; see scripts/realstack/run.py --help and bench/realstack/README.md.
set -euo pipefail
exec /usr/bin/python3 "$(dirname "$0")/realstack/run.py" "$@"
