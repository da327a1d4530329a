#!/bin/bash
# Shows (1) that the unmodified rebuild of kvm-hv.ko equals Debian's in every section the module
# loader uses (SHF_ALLOC sections and their relocations), section by section, and (2) that the
# no-cancel build differs from the unmodified one only in book3s_hv.o. Needs build-kvm-hv.sh and
# build-images.sh first.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

B=$RS_BUILD/kvm-hv
deb_ko=$RS_BUILD/img/kvm-hv-cancel.ko
[ -f "$deb_ko" ] && [ -f "$B/unmodified/kvm-hv.ko" ] && [ -f "$B/nocancel/kvm-hv.ko" ] ||
    rs_die "run scripts/realstack/build-kvm-hv.sh and build-images.sh first"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
OBJDUMP=powerpc64le-linux-gnu-objcopy
RE=powerpc64le-linux-gnu-readelf

alloc_sections() {  # KO -> "name size" of every SHF_ALLOC section (objdump -h: ALLOC)
    powerpc64le-linux-gnu-objdump -h "$1" | awk '/^ *[0-9]+ / { n = $2; sz = $3; next } /ALLOC/ { print n, sz }'
}
relocs() {  # KO SECTION -> offset, type, symbol value, name and addend of each relocation (not
    # r_info: it holds the symbol's index, and the two symbol tables are ordered differently)
    $RE -rW "$1" | awk -v s="$2" '/^Relocation section/ { on = (index($0, "\x27" s "\x27") > 0); next }
        on && NF && !/Offset/ { $2 = ""; print }'
}
all_sections() { $RE -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] \([^ ]*\) .*/\1/p'; }
dump() {  # dump KO SECTION OUT
    rm -f "$3"; $OBJDUMP --dump-section "$2=$3" "$1" "$tmp/discard" 2>/dev/null; [ -f "$3" ] || : > "$3"
}

echo "== 1. Debian's kvm-hv.ko against the unmodified rebuild (--strip-debug), loaded sections"
echo "Debian's:   $(sha256sum < "$deb_ko" | cut -c1-16)...  $(modinfo -F vermagic "$deb_ko")"
echo "rebuild:    $(sha256sum < "$B/unmodified/kvm-hv.stripped.ko" | cut -c1-16)...  $(modinfo -F vermagic "$B/unmodified/kvm-hv.stripped.ko")"
same=0 differ=0
all_sections "$deb_ko" > "$tmp/secs.a"; all_sections "$B/unmodified/kvm-hv.stripped.ko" > "$tmp/secs.b"
while read -r sec size; do
    for s in "$sec" ".rela$sec"; do
        grep -qxF -- "$s" "$tmp/secs.a" || continue
        if ! grep -qxF -- "$s" "$tmp/secs.b"; then echo "  $s: missing in the rebuild"; differ=$((differ + 1)); continue; fi
        if [ "$s" != "$sec" ]; then  # relocations: readelf's listing (offset, type, symbol, addend)
            relocs "$deb_ko" "$s" > "$tmp/a"; relocs "$B/unmodified/kvm-hv.stripped.ko" "$s" > "$tmp/b"
            if [ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b"; then same=$((same + 1)); printf '  %-30s %8d relocations  identical\n' "$s" "$(wc -l < "$tmp/a")"
            else differ=$((differ + 1)); printf '  %-30s %8d/%d relocations  DIFFERENT\n' "$s" "$(wc -l < "$tmp/a")" "$(wc -l < "$tmp/b")"; fi
            continue
        fi
        dump "$deb_ko" "$s" "$tmp/a"; dump "$B/unmodified/kvm-hv.stripped.ko" "$s" "$tmp/b"
        [ "$s" = "$sec" ] && [ ! -s "$tmp/a" ] && [ ! -s "$tmp/b" ] && {  # NOBITS: compare sizes
            sb=$(alloc_sections "$B/unmodified/kvm-hv.stripped.ko" | awk -v s="$s" '$1 == s { print $2 }')
            printf '  %-30s 0x%s bytes  %s\n' "$s" "$size" "$([ "$size" = "$sb" ] && echo 'same size (no contents)' || echo "size $sb DIFFERENT")"
            [ "$size" = "$sb" ] && same=$((same + 1)) || differ=$((differ + 1)); continue; }
        if cmp -s "$tmp/a" "$tmp/b"; then same=$((same + 1)); printf '  %-30s %8d bytes  identical\n' "$s" "$(stat -c %s "$tmp/a")"
        else differ=$((differ + 1)); printf '  %-30s %8d/%d bytes  DIFFERENT\n' "$s" "$(stat -c %s "$tmp/a")" "$(stat -c %s "$tmp/b")"; fi
    done
done < <(alloc_sections "$deb_ko")
echo "loaded sections: $same identical, $differ different"
echo "sections that differ outside the loaded ones (expected: .modinfo intree, .comment, .BTF order, signature):"
for s in $(sort -u "$tmp/secs.a" "$tmp/secs.b"); do
    alloc_sections "$deb_ko" | awk '{ print $1; print ".rela" $1 }' | grep -qxF -- "$s" && continue
    grep -qxF -- "$s" "$tmp/secs.a" || { echo "  $s: only in the rebuild"; continue; }
    grep -qxF -- "$s" "$tmp/secs.b" || { echo "  $s: only in Debian's"; continue; }
    case "$s" in .symtab|.strtab|.shstrtab|.rela*) continue ;; esac
    dump "$deb_ko" "$s" "$tmp/a"; dump "$B/unmodified/kvm-hv.stripped.ko" "$s" "$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" && echo "  $s: identical" || echo "  $s: differs"
done
syms() { $RE -sW "$1" | awk 'NR > 3 { $1 = ""; print }' | sort; }
echo ".symtab (name, value, size, type, binding; not index): $(syms "$deb_ko" | wc -l) vs $(syms "$B/unmodified/kvm-hv.stripped.ko" | wc -l) symbols; only in one of them:"
diff <(syms "$deb_ko") <(syms "$B/unmodified/kvm-hv.stripped.ko") | grep '^[<>]' | sed 's/^/  /' || true
echo ".modinfo, field by field (Debian's vs rebuild):"
diff <(modinfo "$deb_ko" | grep -v '^\(filename\|sig\|signer\|  \)') <(modinfo "$B/unmodified/kvm-hv.stripped.ko" | grep -v '^\(filename\|sig\|signer\|  \)') | sed 's/^/  /' || true
echo "module signature appended to Debian's: $(tail -c 28 "$deb_ko" | grep -c '~Module signature appended~' || true)"

echo
echo "== 2. The no-cancel build against the unmodified one, object by object"
echo "(both builds run in the same directory, so debug info does not differ by path)"
for o in "$B"/unmodified/*.o; do
    n=$(basename "$o")
    if cmp -s "$o" "$B/nocancel/$n"; then echo "  $n: identical"; else echo "  $n: DIFFERENT"; fi
done
echo "the source change (build-kvm-hv.sh):"
sed 's/^/  /' "$B/nocancel/nocancel.diff"
