#!/bin/bash
# Host (amd64) packages of the real stack, through the host's apt. Adds bookworm-backports as a
# source when no configured source has it. Versions: versions.conf.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    rs_log "adding bookworm-backports to /etc/apt/sources.list.d/bookworm-backports.sources"
    cat > /etc/apt/sources.list.d/bookworm-backports.sources <<SRC
Types: deb
URIs: $DEBIAN_MIRROR
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    apt-get update -q
fi

pkgs=(
    "qemu-system-ppc=$L0_QEMU_VERSION"
    "gcc-powerpc64le-linux-gnu=$CROSS_GCC_VERSION"
    "gcc-12-powerpc64le-linux-gnu=$CROSS_GCC12_VERSION"
    "binutils-powerpc64le-linux-gnu=$CROSS_BINUTILS_VERSION"
    "dwarves=$DWARVES_VERSION"
    "libc6-dev-ppc64el-cross=$CROSS_LIBC_VERSION"
    kmod cpio xz-utils python3-yaml
)
missing=()
for p in "${pkgs[@]}"; do
    name=${p%%=*}
    want=${p#*=}; [ "$want" = "$p" ] && want=
    have=$(dpkg-query -W -f '${Status} ${Version}' "$name" 2>/dev/null || true)
    [ "$have" = "install ok installed $want" ] || { [ -z "$want" ] && [[ $have == "install ok installed"* ]]; } ||
        missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
for p in "${missing[@]}"; do
    case "$p" in *=*)
        name=${p%%=*}; want=${p#*=}
        if ! apt-cache madison "$name" | awk -F'|' '{gsub(/ /,"",$2); print $2}' | grep -qxF "$want"; then
            [ -n "$(apt-cache madison "$name")" ] || apt-get update -q
            apt-cache madison "$name" | awk -F'|' '{gsub(/ /,"",$2); print $2}' | grep -qxF "$want" ||
                rs_die "$name=$want is not in the archive any more (available: $(apt-cache madison "$name" | awk -F'|' '{gsub(/ /,"",$2); printf "%s ", $2}')); change it in scripts/realstack/versions.conf"
        fi ;;
    esac
done
rs_log "apt-get install ${missing[*]}"
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends -t bookworm-backports "${missing[@]}"
