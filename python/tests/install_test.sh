#!/bin/sh
# Installs python/ into a fresh venv offline, as docs/python.md says, and uses it from there:
#   install_test.sh PYTHON3 PYTHON_DIR WORK_DIR [NESTVP_BINARY]
# PYTHON3 is Debian's /usr/bin/python3 (python3-venv, -setuptools, -wheel, -pandas).
# With NESTVP_BINARY, the installed package also runs it (found through NESTVP_BIN).
set -eu
py=$1 src=$2 work=$3 bin=${4:-}
fail() { echo "install_test: $*" >&2; exit 1; }
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
src=$(abs "$src") work=$(abs "$work")
[ -z "$bin" ] || bin=$(abs "$bin")
rm -rf "$work" && mkdir -p "$work/bin"
# Built from a copy: setuptools writes build/ and *.egg-info beside the sources it builds.
cp -R "$src" "$work/src" && rm -rf "$work/src/build" "$work/src"/*.egg-info
"$py" -m venv --system-site-packages "$work/V"
"$work/V/bin/pip" install --no-index --no-build-isolation --disable-pip-version-check -q "$work/src" \
    || fail "pip install --no-index --no-build-isolation failed"
cd "$work"  # away from the sources, so that the import is the installed package's
fixture=$src/tests/fixtures/sweep.csv
out=$("$work/V/bin/python" -c "
import sys, nestvp, pandas
assert '/site-packages/nestvp/' in nestvp.__file__, nestvp.__file__
df = nestvp.load_sweep(sys.argv[1])
assert isinstance(df, pandas.DataFrame), type(df)
assert list(df['kvm_guest_exit']) == [973, 1371, 589, 595], df['kvm_guest_exit']
print(df[['l1.dec_policy', 'l2.vcpus', 'kvm_guest_exit']])
" "$fixture") || fail "import nestvp or load_sweep from the venv failed"
echo "$out"
echo "$out" | grep -q "no-cancel  *3  *1371" || fail "load_sweep printed no DataFrame: $out"

# The installed package finds the binary in NESTVP_BIN or on PATH, never in a checkout.
printf '#!/bin/sh\nexit 0\n' > "$work/bin/nestvp" && chmod +x "$work/bin/nestvp"
env -u NESTVP_BIN PATH="$work/bin:/usr/bin:/bin" "$work/V/bin/python" -c "
import nestvp, sys
assert nestvp.REPO_ROOT is None, nestvp.REPO_ROOT
assert nestvp.find_binary() == sys.argv[1], nestvp.find_binary()
" "$work/bin/nestvp" || fail "nestvp on PATH not found"
env -u NESTVP_BIN PATH=/usr/bin:/bin "$work/V/bin/python" -c "
import nestvp
try:
    nestvp.find_binary()
except nestvp.BinaryNotFoundError as e:
    assert 'NESTVP_BIN' in str(e) and 'build' not in str(e), e
else:
    raise SystemExit('found a binary with no NESTVP_BIN and none on PATH')
" || fail "a binary was found where none should be"

if [ -n "$bin" ]; then
    NESTVP_BIN=$bin PATH=/usr/bin:/bin "$work/V/bin/python" -c "
import nestvp, sys
rec = nestvp.Nestvp().run(sys.argv[1], {'run.duration_s': 0.02})
df = nestvp.load_record(rec)
assert len(df) == 1 and df['metrics.kvm_guest_exit'].iloc[0] > 0, df
print('run through NESTVP_BIN:', int(df['metrics.kvm_guest_exit'].iloc[0]), 'exits')
" "$src/../platforms/reference.yaml" || fail "running $bin through NESTVP_BIN failed"
fi
echo "install_test: ok"
