#!/bin/bash
# Downloads every Debian package of the real stack into $RS_BUILD/debs (a cache: a .deb already
# there is not fetched again). ppc64el packages go through a separate apt configuration
# ($RS_BUILD/apt-ppc64el: own state, cache, sources with [arch=ppc64el], an empty dpkg status)
# and are never installed; they are only `apt-get download`ed, to be unpacked with dpkg-deb -x.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

A=$RS_BUILD/apt-ppc64el
DEBS=$RS_BUILD/debs
mkdir -p "$A"/{etc/preferences.d,state/lists/partial,cache/archives/partial} "$DEBS"
: > "$A/state/status"
cat > "$A/etc/sources.list" <<SRC
deb [arch=ppc64el signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $DEBIAN_MIRROR bookworm main
deb [arch=ppc64el signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $DEBIAN_MIRROR bookworm-backports main
SRC
ppc_apt() {  # ppc_apt apt-get|apt-cache ARGS...
    local bin=$1; shift
    "$bin" -q -o APT::Architecture=ppc64el -o APT::Architectures=ppc64el \
        -o Dir::Etc::sourcelist="$A/etc/sources.list" -o Dir::Etc::sourceparts=- \
        -o Dir::Etc::preferencesparts="$A/etc/preferences.d" \
        -o Dir::State="$A/state" -o Dir::State::status="$A/state/status" \
        -o Dir::Cache="$A/cache" -o Debug::NoLocking=1 "$@"
}
# The lists are refreshed once a day at most.
if [ -z "$(find "$A/state/lists" -name '*_Packages*' -mtime -1 2>/dev/null | head -1)" ]; then
    rs_log "apt-get update (ppc64el configuration)"
    ppc_apt apt-get update >&2
fi

# download APTCMD PKG=VERSION...: fetch into $DEBS unless present; a version that left the
# archive stops the build with what to change.
download() {
    local cmd=$1; shift
    local spec name ver have
    for spec in "$@"; do
        name=${spec%%=*}; ver=${spec#*=}
        if compgen -G "$DEBS/${name}_${ver/:/%3a}_*.deb" >/dev/null; then continue; fi
        if [ "$cmd" = ppc ]; then have=$(ppc_apt apt-cache madison "$name" 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); print $2}')
        else have=$(apt-cache madison "$name" 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); print $2}'); fi
        grep -qxF "$ver" <<<"$have" || rs_die "$name=$ver is no longer in Debian's archive (available: $(echo $have)). Change the pin in scripts/realstack/versions.conf."
        if [ "$cmd" = ppc ]; then (cd "$DEBS" && ppc_apt apt-get download "$spec" >&2)
        else (cd "$DEBS" && apt-get -q download "$spec" >&2); fi
    done
}

download ppc "linux-image-$KVER-powerpc64le=$KPKG_VERSION" \
    "linux-headers-$KVER-powerpc64le=$KPKG_VERSION" "linux-headers-$KVER-common=$KPKG_VERSION" \
    "$KSRC_PKG=$KPKG_VERSION" "busybox-static=$BUSYBOX_VERSION"
download host "linux-kbuild-$KVER=$KPKG_VERSION"

# L1's VMM and everything it needs, resolved against an empty system; the resolution is kept in
# $RS_BUILD/qemu-ppc64el.lock (package=version per line).
lock=$RS_BUILD/qemu-ppc64el.lock
ppc_apt apt-cache madison qemu-system-ppc | awk -F'|' '{gsub(/ /,"",$2); print $2}' | grep -qxF "$L1_QEMU_VERSION" ||
    rs_die "qemu-system-ppc=$L1_QEMU_VERSION (ppc64el) is no longer in Debian's archive. Change L1_QEMU_VERSION in scripts/realstack/versions.conf."
ppc_apt apt-get -s install --no-install-recommends "qemu-system-ppc=$L1_QEMU_VERSION" |
    sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) .*/\1=\2/p' | sort > "$lock.tmp"
[ -s "$lock.tmp" ] || rs_die "could not resolve qemu-system-ppc's dependencies (ppc64el)"
mv "$lock.tmp" "$lock"
rs_log "qemu-system-ppc (ppc64el): $(wc -l < "$lock") packages"
mapfile -t qpkgs < "$lock"
download ppc "${qpkgs[@]}"
rs_log "all packages in $DEBS"
