#!/bin/bash
# Rebuilds kvm-hv.ko from Debian's linux-source twice, out of tree against Debian's headers:
# `unmodified`, and `nocancel` with the one-line change at book3s_hv.c:4984 (the DEC cancel
# skipped for nestedv2). Output: $RS_BUILD/kvm-hv/{unmodified,nocancel}/kvm-hv.ko (the build)
# and kvm-hv.stripped.ko (--strip-debug, what L1 loads). Needs fetch.sh and host-deps.sh first.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

T=$RS_BUILD/kvm-hv
DEBS=$RS_BUILD/debs
tree=$T/tree
HDR=$tree/usr/src/linux-headers-$KVER-powerpc64le
SRC=$T/src/linux-source-${KSRC_PKG#linux-source-}
PATCH_LINE=4984
ORIG='	if (kvmppc_core_pending_dec(vcpu) &&'
NEW='	if (!kvmhv_is_nestedv2() && kvmppc_core_pending_dec(vcpu) &&'
OBJS="book3s_hv.o book3s_hv_interrupts.o book3s_64_mmu_hv.o book3s_64_mmu_radix.o book3s_hv_nested.o"
deb() { compgen -G "$DEBS/${1}_${2/:/%3a}_*.deb" | head -1; }

if [ ! -f "$HDR/.rs-ready" ]; then
    rm -rf "$tree"; mkdir -p "$tree"
    for p in "linux-headers-$KVER-powerpc64le" "linux-headers-$KVER-common" "linux-kbuild-$KVER"; do
        f=$(deb "$p" "$KPKG_VERSION"); [ -n "$f" ] || rs_die "$p not downloaded (run scripts/realstack/fetch.sh)"
        dpkg-deb -x "$f" "$tree"
    done
    # The flavour Makefile includes the common headers by an absolute /usr/src path.
    sed -i "s#^include /usr/src/#include $tree/usr/src/#" "$HDR/Makefile"
    grep -q "^include $tree/" "$HDR/Makefile" || rs_die "unexpected $HDR/Makefile: $(cat "$HDR/Makefile")"
    touch "$HDR/.rs-ready"
fi
if [ ! -f "$SRC/arch/powerpc/kvm/book3s_hv.c" ]; then
    f=$(deb "$KSRC_PKG" "$KPKG_VERSION"); [ -n "$f" ] || rs_die "$KSRC_PKG not downloaded"
    rs_log "extracting arch/powerpc/kvm from $(basename "$f")"
    mkdir -p "$T/src"
    dpkg-deb --fsys-tarfile "$f" | tar -xO "./usr/src/$KSRC_PKG.tar.xz" |
        tar -xJ -C "$T/src" "${KSRC_PKG}/arch/powerpc/kvm"
fi

build() {  # build NAME: in $T/work (one path for both builds, so their objects compare), then moved
    local d=$T/work
    rm -rf "$d" "$T/$1"; mkdir -p "$d"
    for o in $OBJS; do
        s=$SRC/arch/powerpc/kvm/${o%.o}.c; [ -f "$s" ] || s=${s%.c}.S
        cp "$s" "$d/"
    done
    cp "$SRC"/arch/powerpc/kvm/*.h "$d/"
    cat > "$d/Kbuild" <<KB
ccflags-y := -I\$(src) -fmacro-prefix-map=\$(src)/=arch/powerpc/kvm/
asflags-y := -I\$(src)
obj-m += kvm-hv.o
kvm-hv-y := $OBJS
KB
    if [ "$1" = nocancel ]; then
        line=$(sed -n "${PATCH_LINE}p" "$d/book3s_hv.c")
        [ "$line" = "$ORIG" ] || rs_die "book3s_hv.c:$PATCH_LINE is '$line', expected '$ORIG' (another linux-source version? find the DEC-cancel condition and update PATCH_LINE)"
        sed -n "$((PATCH_LINE-5)),$((PATCH_LINE+4))p" "$d/book3s_hv.c" | grep -q 'kvmppc_dec_expires_host_tb' ||
            rs_die "the DEC-cancel condition is not around book3s_hv.c:$PATCH_LINE"
        cp "$d/book3s_hv.c" "$d/book3s_hv.c.orig"
        awk -v n="$PATCH_LINE" -v new="$NEW" 'NR == n { print new; next } { print }' "$d/book3s_hv.c.orig" > "$d/book3s_hv.c"
        diff -u --label a/arch/powerpc/kvm/book3s_hv.c --label b/arch/powerpc/kvm/book3s_hv.c \
            "$d/book3s_hv.c.orig" "$d/book3s_hv.c" | tee "$d/nocancel.diff" >&2 || true
        rm "$d/book3s_hv.c.orig"
    fi
    rs_log "building kvm-hv.ko ($1)"
    make -s -C "$HDR" M="$d" ARCH=powerpc CROSS_COMPILE=powerpc64le-linux-gnu- modules >&2
    powerpc64le-linux-gnu-strip --strip-debug -o "$d/kvm-hv.stripped.ko" "$d/kvm-hv.ko"
    mv "$d" "$T/$1"
}
for v in "$@"; do build "$v"; done
[ $# -gt 0 ] || { build unmodified; build nocancel; }
