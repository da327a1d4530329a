#!/usr/bin/env bash
# nestvp.1 renders with man -l and with groff's warnings on, without a word on stderr, and
# has a section for every command the binary lists in its --help.
# Usage: manpage_test.sh NESTVP_BINARY NESTVP_1
set -euo pipefail
bin=$1 page=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
test -s "$page" || { echo "missing or empty: $page" >&2; exit 1; }

MANPAGER=cat PAGER=cat MANWIDTH=100 man -l "$page" >"$tmp/out" 2>"$tmp/err"
groff -man -Tutf8 -ww -z "$page" 2>>"$tmp/err"
if [[ -s $tmp/err ]]; then
    echo "rendering warned:" >&2
    cat "$tmp/err" >&2
    exit 1
fi
grep -q '^COMMANDS' "$tmp/out" || { echo "no COMMANDS section" >&2; exit 1; }

cmds=$(SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$bin" --help 2>/dev/null |
    awk 'tolower($0) ~ /^ *(sub)?commands *: *$/ {on=1; next}
         on && /^ +[a-z][a-z0-9-]*( |$)/ {print $1; next} on && NF {on=0}')
[[ -n $cmds ]] || { echo "no commands in '$bin --help'" >&2; exit 1; }
missing=0
for c in $cmds; do
    # Each command is a subsection heading and its own usage line is quoted below it.
    if ! grep -Eq "^ {3}$c\$" "$tmp/out" || ! grep -q "usage: nestvp $c" "$tmp/out"; then
        echo "command '$c' has no section in $page" >&2
        missing=1
    fi
done
((missing == 0)) || exit 1
echo "nestvp.1 renders and covers:" $cmds  # one line, word-split on purpose
