#!/bin/bash
# `make realstack`: host packages, Debian downloads (cached in build-realstack/debs), both
# kvm-hv.ko rebuilds, the images. bench/realstack/README.md.
set -euo pipefail
d=$(dirname "$0")
"$d/host-deps.sh"
"$d/fetch.sh"
"$d/build-kvm-hv.sh"
"$d/build-images.sh"
