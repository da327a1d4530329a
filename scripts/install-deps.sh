#!/usr/bin/env bash
# Installs the Debian packages nestvp needs, only those that are missing.
# Uses sudo when not root. See ../shared/docs/toolchain.md for the recipe.
set -euo pipefail
pkgs=(build-essential cmake pkg-config libsystemc-dev verilator libyaml-cpp-dev
      libgtest-dev libxml2-utils parallel python3 python3-matplotlib python3-yaml groff-base man-db
      libcli11-dev nlohmann-json3-dev libssl-dev gnuplot-nox yosys z3
      python3-venv python3-wheel python3-setuptools python3-pandas)
# yosys ships yosys-smtbmc (make formal); z3 is its solver.
# gnuplot-nox draws the --plot figures from the scripts nestvp writes.
# python/nestvp: venv, wheel and setuptools install it offline (pip install --no-index
# --no-build-isolation ./python, docs/python.md); pandas makes its DataFrames.
# `make coverage` needs nothing more: verilator ships verilator_coverage and depends on python3.
if [[ "${NESTVP_WITH_CLANG:-0}" == 1 ]]; then pkgs+=(clang libclang-rt-14-dev); fi
missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then exit 0; fi
echo "install-deps: installing ${missing[*]}" >&2
sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
