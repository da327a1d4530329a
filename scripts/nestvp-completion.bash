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

# The values of an enum or boolean key, from its row of `nestvp params KEY`.
_nestvp_values() {
    _nestvp_run "$1" params "$2" | awk -v k="$2" '$1 == k {
        if ($2 == "boolean") print "true false"
        else if ($2 == "enum") for (i = 3; i <= NF; i++) if ($i ~ /[|]/) { gsub(/[|]/, " ", $i); print $i; break }
        exit }'
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

    # After "--set KEY=": '=' is a word break, so COMP_WORDS holds KEY, '=' and the value
    # apart. Enum and boolean values complete; --grid completes the item after the last comma.
    local key="" flag=""
    if [[ $cur == "=" ]]; then
        key=$prev flag=${COMP_WORDS[COMP_CWORD - 2]} cur=""
    elif [[ $prev == "=" ]] && ((COMP_CWORD >= 3)); then
        key=${COMP_WORDS[COMP_CWORD - 2]} flag=${COMP_WORDS[COMP_CWORD - 3]}
    fi
    if [[ $key == --set || $key == --vs || $key == --grid ]]; then
        prev=$key # the "--set=KEY" spelling: complete the key as after "--set KEY"
    elif [[ -n $key ]]; then
        case $flag in --set | --vs | --grid) ;; *) return 0 ;; esac
        local pre=""
        if [[ $flag == --grid && $cur == *,* ]]; then pre=${cur%,*}, cur=${cur##*,}; fi
        mapfile -t COMPREPLY < <(compgen -P "$pre" -W "$(_nestvp_values "$bin" "$key")" -- "$cur")
        return 0
    fi
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
