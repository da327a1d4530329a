# Bash completion for nestvp. Load it with:  source scripts/nestvp-completion.bash
# Commands come from `nestvp --help`, options from `nestvp CMD --help` and the keys of
# --set/--vs/--grid from `nestvp params`, all asked of the binary being completed, so the
# completion follows the build. Needs only bash (not the bash-completion package).

# The binary the user is typing: the first word (build/nestvp, ./nestvp, nestvp on PATH).
_nestvp_bin() {
    local b=${COMP_WORDS[0]}
    b=${b/#\~/$HOME}
    if [[ -x $b && ! -d $b ]]; then printf '%s\n' "$b"; else command -v "$b" || command -v nestvp; fi
}

_nestvp_run() {
    SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$@" 2>/dev/null
}

# Command names listed under the "commands:" heading of the top-level help.
_nestvp_commands() {
    _nestvp_run "$1" --help | awk 'tolower($0) ~ /^ *(sub)?commands *: *$/ {on=1; next}
        on && /^ +[a-z][a-z0-9-]*( |$)/ {print $1; next} on && NF {on=0}'
}

_nestvp() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=""
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
    local bin
    bin=$(_nestvp_bin) || return 0
    COMPREPLY=()

    if ((COMP_CWORD == 1)); then
        mapfile -t COMPREPLY < <(compgen -W "$(_nestvp_commands "$bin") --help --version" -- "$cur")
        return 0
    fi
    local cmd=${COMP_WORDS[1]}

    # "--set KEY=..." with '=' a word break: COMP_WORDS holds KEY and '=' apart; leave values.
    if [[ $cur == "=" || $prev == "=" ]]; then return 0; fi
    case $prev in
        --set | --vs | --grid)
            local keys
            keys=$(_nestvp_run "$bin" params | awk 'NR > 1 && NF {print $1}')
            mapfile -t COMPREPLY < <(compgen -W "$keys" -S = -- "$cur")
            compopt -o nospace 2>/dev/null
            return 0
            ;;
        --impl)
            mapfile -t COMPREPLY < <(compgen -W "tlm rtl lockstep" -- "$cur")
            return 0
            ;;
    esac
    if [[ $cur == -* ]]; then
        local opts
        opts=$(_nestvp_run "$bin" "$cmd" --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
        mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
        return 0
    fi
    # Anything else: files (complete -o default falls back to them when COMPREPLY is empty).
    return 0
}

complete -o default -F _nestvp nestvp build/nestvp ./build/nestvp ./nestvp
