# Shared paths and helpers for the real-stack scripts (sourced, not run).
RS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
RS_DIR="$RS_ROOT/scripts/realstack"
RS_BUILD=${RS_BUILD:-$RS_ROOT/build-realstack}
# shellcheck source=versions.conf
. "$RS_DIR/versions.conf"

rs_log() { printf '[realstack %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
rs_die() { printf 'realstack: error: %s\n' "$*" >&2; exit 1; }
