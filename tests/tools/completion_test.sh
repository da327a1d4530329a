#!/usr/bin/env bash
# scripts/nestvp-completion.bash, sourced in a plain bash, completes a partial command, a
# partial --set/--grid key (from `nestvp params`), an enum value and a partial option.
# Usage: completion_test.sh SOURCE_DIR NESTVP_BINARY
set -uo pipefail
src=$1 bin=$2
# shellcheck source=/dev/null
source "$src/scripts/nestvp-completion.bash"
fails=0

expect() { # expect WANTED WORDS... : complete the last word, WANTED must be in COMPREPLY
    local want=$1
    shift
    COMP_WORDS=("$bin" "$@")
    COMP_CWORD=$#
    COMPREPLY=()
    _nestvp
    local got=" ${COMPREPLY[*]} "
    if [[ $got == *" $want "* ]]; then
        echo "ok    '${*}' -> ${COMPREPLY[*]}"
    else
        echo "FAIL  '${*}': wanted '$want', got '${COMPREPLY[*]}'"
        fails=$((fails + 1))
    fi
}

expect run ru
expect sweep sw
expect uncertainty unc
expect l1.dec_policy= run platforms/reference.yaml --set l1.dec
expect l2.vcpus= sweep platforms/reference.yaml --grid l2.vc
expect --grid sweep platforms/reference.yaml --gr
expect l1.dec_policy= run platforms/reference.yaml --set = l1.dec
# Values of an enum key after "KEY=" ('=' is a word break, so it is a word of its own).
expect no-cancel run platforms/reference.yaml --set l1.dec_policy = no
expect clear-on-entry run platforms/reference.yaml --set l1.dec_policy =
expect cancel,no-cancel sweep platforms/reference.yaml --grid l1.dec_policy = cancel,no

# Exactly one match for a unique prefix.
COMP_WORDS=("$bin" run x.yaml --set l1.dec_pol) COMP_CWORD=4
_nestvp
if ((${#COMPREPLY[@]} != 1)); then
    echo "FAIL  unique key prefix gave ${#COMPREPLY[@]} matches: ${COMPREPLY[*]}"
    fails=$((fails + 1))
fi
((fails == 0))
