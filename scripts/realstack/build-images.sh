#!/bin/bash
# Builds the L1 kernel path and the two initramfs images from the downloaded packages:
#   $RS_BUILD/img/vmlinux       Debian's kernel (L1 and L2)
#   $RS_BUILD/img/l2-initrd.cpio  busybox-static + arithoh + l2-init.sh
#   $RS_BUILD/img/l1-initrd.cpio  busybox-static + QEMU 7.2 (ppc64el) + kvm.ko + the kvm-hv builds
#                                 (cancel = Debian's, no-cancel and cancel-rebuilt = ours) + L2
# Needs fetch.sh and build-kvm-hv.sh first.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

DEBS=$RS_BUILD/debs
IMG=$RS_BUILD/img
deb() { compgen -G "$DEBS/${1}_${2/:/%3a}_*.deb" | head -1; }
need() { [ -f "$1" ] || rs_die "$1 missing: $2"; }
cpio_of() {  # cpio_of DIR OUT
    (cd "$1" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$2.tmp"
    mv "$2.tmp" "$2"
}
mkdir -p "$IMG"

# Kernel and modules.
K=$RS_BUILD/kernel
if [ ! -f "$K/.done" ]; then
    rm -rf "$K"; mkdir -p "$K"
    f=$(deb "linux-image-$KVER-powerpc64le" "$KPKG_VERSION"); [ -n "$f" ] || rs_die "linux-image not downloaded (fetch.sh)"
    dpkg-deb -x "$f" "$K"
    touch "$K/.done"
fi
cp "$K/boot/vmlinux-$KVER-powerpc64le" "$IMG/vmlinux"
M=$K/lib/modules/$KVER-powerpc64le/kernel/arch/powerpc/kvm
deps=$(xz -dc "$M/kvm.ko.xz" > "$IMG/kvm.ko" && modinfo -F depends "$IMG/kvm.ko")
[ -z "$deps" ] || rs_die "kvm.ko depends on '$deps': add those modules to build-images.sh"
xz -dc "$M/kvm-hv.ko.xz" > "$IMG/kvm-hv-cancel.ko"
need "$RS_BUILD/kvm-hv/nocancel/kvm-hv.stripped.ko" "run scripts/realstack/build-kvm-hv.sh"
cp "$RS_BUILD/kvm-hv/nocancel/kvm-hv.stripped.ko" "$IMG/kvm-hv-no-cancel.ko"
cp "$RS_BUILD/kvm-hv/unmodified/kvm-hv.stripped.ko" "$IMG/kvm-hv-cancel-rebuilt.ko"

bb=$(deb busybox-static "$BUSYBOX_VERSION"); [ -n "$bb" ] || rs_die "busybox-static not downloaded"

# L2.
R=$RS_BUILD/l2-root
rm -rf "$R"; mkdir -p "$R/bin"
dpkg-deb --fsys-tarfile "$bb" | tar -xO ./bin/busybox > "$R/bin/busybox"
chmod 755 "$R/bin/busybox"
powerpc64le-linux-gnu-gcc -O2 -static -Wall -Werror -o "$R/arithoh" "$RS_ROOT/bench/realstack/arithoh.c"
install -m 755 "$RS_DIR/l2-init.sh" "$R/init"
cpio_of "$R" "$IMG/l2-initrd.cpio"

# L1.
R=$RS_BUILD/l1-root
rm -rf "$R"; mkdir -p "$R/rs" "$R/bin"
while IFS= read -r spec; do
    f=$(deb "${spec%%=*}" "${spec#*=}"); [ -n "$f" ] || rs_die "$spec not downloaded (fetch.sh)"
    dpkg-deb -x "$f" "$R"
done < "$RS_BUILD/qemu-ppc64el.lock"
rm -rf "$R"/usr/share/{doc,man,locale,lintian,bug}
dpkg-deb --fsys-tarfile "$bb" | tar -xO ./bin/busybox > "$R/bin/busybox.rs"
mv -f "$R/bin/busybox.rs" "$R/bin/busybox"; chmod 755 "$R/bin/busybox"
install -m 755 "$RS_DIR/l1-init.sh" "$R/init"
cp "$IMG/kvm.ko" "$IMG"/kvm-hv-*.ko "$R/rs/"
cp "$IMG/vmlinux" "$R/rs/l2-vmlinux"
cp "$IMG/l2-initrd.cpio" "$R/rs/l2-initrd.cpio"
cpio_of "$R" "$IMG/l1-initrd.cpio"
{
    echo "kernel=$KVER $KPKG_VERSION"
    echo "l1_qemu=qemu-system-ppc $L1_QEMU_VERSION (ppc64el)"
    echo "busybox=$BUSYBOX_VERSION"
    sha256sum "$IMG"/kvm*.ko | sed "s#$IMG/##"
} > "$IMG/manifest.txt"
rs_log "images: $(du -sh "$IMG/l1-initrd.cpio" | cut -f1) L1 initrd, $(du -sh "$IMG/l2-initrd.cpio" | cut -f1) L2 initrd"
