#!/usr/bin/python3
"""Runs real-stack scenarios (L0 QEMU 10 TCG -> L1 Debian 6.12 + KVM-HV -> L2) and writes one
JSON per scenario, policy and run (bench/realstack/README.md has the schema).
Scenario: a YAML file (--scenario) and/or flags; flags override the file."""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import console  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
POLICIES = ('cancel', 'no-cancel', 'cancel-rebuilt')
DEFAULTS = {
    'name': None, 'l2_vcpus': 2, 'arith_vcpus': [0], 'l2_append': '', 'window_s': 10.0,
    'policies': ['cancel', 'no-cancel'], 'runs': 1, 'l1_cpus': 2, 'l2_mem_mb': 1024,
    'settle_s': 2.0, 'extra_s': 3.0, 'burst_s': 0.2, 'icount': None, 'raw_trace_s': 0.0,
}
TYPES = {'name': str, 'l2_vcpus': int, 'arith_vcpus': list, 'l2_append': str, 'window_s': float,
         'policies': list, 'runs': int, 'l1_cpus': int, 'l2_mem_mb': int, 'settle_s': float,
         'extra_s': float, 'burst_s': float, 'icount': str, 'raw_trace_s': float}


class ScenarioError(Exception):
    pass


def load_yaml(path):
    try:
        with open(path) as f:
            data = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        raise ScenarioError('%s: %s' % (path, e))
    if not isinstance(data, dict):
        raise ScenarioError('%s: expected a mapping of scenario keys' % path)
    if 'policy' in data:  # one policy is accepted as a shorthand
        data['policies'] = [data.pop('policy')]
    unknown = sorted(set(data) - set(DEFAULTS))
    if unknown:
        raise ScenarioError('%s: unknown key(s) %s (known: %s)'
                            % (path, ', '.join(unknown), ', '.join(sorted(DEFAULTS))))
    return data


def validate(sc):
    for k, t in TYPES.items():
        v = sc[k]
        if v is None and k in ('icount', 'name'):
            continue
        if t is float and isinstance(v, int) and not isinstance(v, bool):
            sc[k] = v = float(v)
        if not isinstance(v, t) or isinstance(v, bool):
            raise ScenarioError('%s must be %s, got %r' % (k, t.__name__, v))
    if not sc['name'] or not re.fullmatch(r'[A-Za-z0-9][A-Za-z0-9_.+-]*', sc['name']):
        raise ScenarioError('name must be set and made of letters, digits, . _ + - (got %r)'
                            % sc['name'])
    if sc['l2_vcpus'] < 1:
        raise ScenarioError('l2_vcpus must be >= 1')
    for c in sc['arith_vcpus']:
        if not isinstance(c, int) or not 0 <= c < sc['l2_vcpus']:
            raise ScenarioError('arith_vcpus entry %r is not a vCPU of a %d-vCPU L2'
                                % (c, sc['l2_vcpus']))
    for p in sc['policies']:
        if p not in POLICIES:
            raise ScenarioError('unknown policy %r (known: %s)' % (p, ', '.join(POLICIES)))
    if re.search(r'[%"\'\\]', sc['l2_append']):
        raise ScenarioError('l2_append must not contain %% quotes or backslashes')
    for k in ('window_s', 'runs', 'l1_cpus'):
        if sc[k] <= 0:
            raise ScenarioError('%s must be > 0' % k)
    if sc['raw_trace_s'] < 0:
        raise ScenarioError('raw_trace_s must be >= 0 (0: no raw trace burst)')
    return sc


def parse_args(argv):
    ap = argparse.ArgumentParser(prog='realstack-run.sh', description=__doc__)
    ap.add_argument('--scenario', help='YAML file (keys: %s)' % ', '.join(DEFAULTS))
    ap.add_argument('--name')
    ap.add_argument('--l2-vcpus', type=int)
    ap.add_argument('--arith-vcpus', help='comma list of L2 vCPUs running arithoh; "" for none')
    ap.add_argument('--l2-append', help='extra L2 kernel command line, e.g. nohz=off')
    ap.add_argument('--window', type=float, dest='window_s', help='window, guest seconds')
    ap.add_argument('--policy', action='append', choices=POLICIES, dest='policies')
    ap.add_argument('--runs', type=int)
    ap.add_argument('--l1-cpus', type=int)
    ap.add_argument('--icount', help='L0 -icount argument, e.g. shift=auto')
    ap.add_argument('--extra', type=float, dest='extra_s',
                    help='arithoh runs this long after the window, guest seconds')
    ap.add_argument('--raw-trace', type=float, dest='raw_trace_s',
                    help='raw trace burst after the cost burst, L1 seconds (0: none)')
    ap.add_argument('--samples', default=os.path.join(ROOT, 'bench', 'realstack', 'samples'),
                    help='where the raw trace burst writes trace-SCENARIO-POLICY.{txt,counts.json}')
    ap.add_argument('--first-run', type=int, default=1, help='index of the first run (default 1)')
    ap.add_argument('--out', default=os.path.join(ROOT, 'bench', 'realstack', 'results'))
    ap.add_argument('--build', default=os.environ.get('RS_BUILD', os.path.join(ROOT, 'build-realstack')))
    ap.add_argument('--timeout', type=float, default=1500, help='wall seconds per run')
    ap.add_argument('--dry-run', action='store_true', help='print the L0 command lines only')
    ap.add_argument('--reparse', action='store_true',
                    help='rewrite the JSONs from the consoles kept in BUILD/runs, without running')
    a = ap.parse_args(argv)
    sc = dict(DEFAULTS)
    if a.scenario:
        sc.update(load_yaml(a.scenario))
        if sc['name'] is None:
            sc['name'] = os.path.splitext(os.path.basename(a.scenario))[0]
    for k in ('name', 'l2_vcpus', 'l2_append', 'window_s', 'policies', 'runs', 'l1_cpus', 'icount',
              'extra_s', 'raw_trace_s'):
        v = getattr(a, k)
        if v is not None:
            sc[k] = v
    if a.arith_vcpus is not None:
        try:
            sc['arith_vcpus'] = [int(x) for x in a.arith_vcpus.split(',') if x.strip()]
        except ValueError:
            raise ScenarioError('--arith-vcpus: %r is not a comma list of integers' % a.arith_vcpus)
    return a, validate(sc)


def l0_command(build, sc, policy):
    img = os.path.join(build, 'img')
    for f in ('vmlinux', 'l1-initrd.cpio'):
        if not os.path.exists(os.path.join(img, f)):
            raise ScenarioError('%s missing: run `make realstack` first' % os.path.join(img, f))
    append = ['console=hvc0', 'quiet', 'rs_policy=' + policy, 'rs_l2_cpus=%d' % sc['l2_vcpus'],
              'rs_l2_mem=%d' % sc['l2_mem_mb'],
              'rs_arith=' + ','.join(str(c) for c in sc['arith_vcpus']),
              'rs_window=%g' % sc['window_s'], 'rs_extra=%g' % sc['extra_s'],
              'rs_settle=%g' % sc['settle_s'], 'rs_burst=%g' % sc['burst_s']]
    if sc['raw_trace_s'] > 0:
        append.append('rs_raw=%g' % sc['raw_trace_s'])
    if sc['l2_append'].strip():
        append.append('rs_l2_append=' + '%20'.join(sc['l2_append'].split()))
    cmd = ['qemu-system-ppc64', '-machine', 'pseries,cap-nested-papr=on', '-cpu', 'power10',
           '-m', '4G', '-smp', str(sc['l1_cpus']), '-nographic', '-vga', 'none', '-nic', 'none',
           '-no-reboot', '-kernel', os.path.join(img, 'vmlinux'),
           '-initrd', os.path.join(img, 'l1-initrd.cpio'), '-append', ' '.join(append)]
    if sc['icount']:
        cmd[1:1] = ['-icount', sc['icount']]
    return cmd


def versions():
    def q(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return None
    conf = {}
    with open(os.path.join(ROOT, 'scripts', 'realstack', 'versions.conf')) as f:
        for line in f:
            m = re.match(r'^([A-Z0-9_]+)=(.*)$', line.strip())
            if m:
                conf[m.group(1)] = m.group(2)
    return {
        'kernel_package': 'linux-image-%s-powerpc64le=%s' % (conf['KVER'], conf['KPKG_VERSION']),
        'l0_qemu_package': 'qemu-system-ppc=' + (q(['dpkg-query', '-W', '-f', '${Version}',
                                                      'qemu-system-ppc']) or '?'),
        'l0_qemu': (q(['qemu-system-ppc64', '--version']) or '?').splitlines()[0],
        'l1_qemu_package': 'qemu-system-ppc:ppc64el=' + conf['L1_QEMU_VERSION'],
    }


def run_once(a, sc, policy, index):
    cmd = l0_command(a.build, sc, policy)
    base = '%s-%s-%d' % (sc['name'], policy, index)
    logdir = os.path.join(a.build, 'runs')
    os.makedirs(logdir, exist_ok=True)
    log_path = os.path.join(logdir, base + '.console')
    print('realstack: %s: %s' % (base, ' '.join(cmd)), file=sys.stderr, flush=True)
    t0 = time.monotonic()
    with open(log_path, 'w') as log:
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        try:
            p.wait(timeout=a.timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            raise ScenarioError('%s: timed out after %.0f s (console: %s)' % (base, a.timeout, log_path))
    wall = time.monotonic() - t0
    with open(log_path + '.wall', 'w') as f:
        f.write('%.1f\n' % wall)
    write_result(a, sc, policy, index, log_path, wall, cmd)


def write_result(a, sc, policy, index, log_path, wall, cmd):
    base = '%s-%s-%d' % (sc['name'], policy, index)
    with open(log_path, errors='replace') as f:
        text = f.read()
    try:
        result = console.to_result(text, sc, policy, index)
    except (ValueError, KeyError) as e:
        raise console.ConsoleError('%s: cannot read the console %s: %s' % (base, log_path, e))
    result['wall_s'] = round(wall, 1)
    result['versions'].update(versions())
    result['l0_command'] = cmd
    if sc['raw_trace_s'] > 0:
        result['raw_trace'] = write_raw_trace(a, sc, policy, index, text, base)
    os.makedirs(a.out, exist_ok=True)
    out = os.path.join(a.out, base + '.json')
    with open(out + '.tmp', 'w') as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write('\n')
    os.replace(out + '.tmp', out)
    print('realstack: %s: %d exits, %d RUN_VCPU, %d GET_STATE, %d probe, %s iterations, %.0f s wall -> %s'
          % (base, result['exits_total'], result['h_guest_run_vcpu'], result['h_guest_get_state'],
             result['gsb_recv_probe'], result['arithoh_iterations'], wall, out),
          file=sys.stderr, flush=True)


def write_raw_trace(a, sc, policy, index, text, base):
    """The raw trace burst's two files: the trace as L1 printed it and its counts."""
    name = 'trace-%s-%s' % (sc['name'], policy)
    try:
        got = console.raw_trace(text, sc, policy, index, name + '.txt')
    except (ValueError, KeyError) as e:
        raise console.ConsoleError('%s: cannot read the raw trace burst: %s' % (base, e))
    if got is None:
        raise console.ConsoleError('%s: raw_trace_s is set but the console has no raw trace' % base)
    trace, counts = got
    os.makedirs(a.samples, exist_ok=True)
    paths = {'trace': os.path.join(a.samples, name + '.txt'),
             'counts': os.path.join(a.samples, name + '.counts.json')}
    with open(paths['trace'] + '.tmp', 'w') as f:
        f.write(trace)
    os.replace(paths['trace'] + '.tmp', paths['trace'])
    with open(paths['counts'] + '.tmp', 'w') as f:
        json.dump(counts, f, indent=1, sort_keys=True)
        f.write('\n')
    os.replace(paths['counts'] + '.tmp', paths['counts'])
    print('realstack: %s: raw trace %d lines, %d bytes, events %s (trace lines %s, %s) -> %s'
          % (base, counts['trace_lines'], counts['trace_bytes'], counts['events'],
             'equal' if counts['check']['equal'] else 'DIFFERENT: %s' % counts['check']['trace_lines_by_event'],
             'same window' if counts['gating']['same_window'] else 'NOT the same window',
             paths['trace']), file=sys.stderr, flush=True)
    return {k: os.path.relpath(v, ROOT) if v.startswith(ROOT + os.sep) else v for k, v in paths.items()}


def reparse(a, sc, policy, index):
    log = os.path.join(a.build, 'runs', '%s-%s-%d.console' % (sc['name'], policy, index))
    try:
        with open(log + '.wall') as f:
            wall = float(f.read())
    except (OSError, ValueError) as e:
        raise console.ConsoleError('no wall time for %s: %s' % (log, e))
    write_result(a, sc, policy, index, log, wall, l0_command(a.build, sc, policy))


def main(argv):
    try:
        a, sc = parse_args(argv)
        if a.dry_run:
            for p in sc['policies']:
                print(' '.join(l0_command(a.build, sc, p)))
            return 0
        if not a.reparse and not shutil.which('qemu-system-ppc64'):
            raise ScenarioError('qemu-system-ppc64 not found: run `make realstack` first')
        # Runs are sequential; policies alternate within a run index so drift hits both alike.
        # A run whose console cannot be read is reported and the others still run.
        failed = 0
        for i in range(a.first_run, a.first_run + sc['runs']):
            for p in sc['policies']:
                try:
                    reparse(a, sc, p, i) if a.reparse else run_once(a, sc, p, i)
                except console.ConsoleError as e:
                    print('realstack-run: error: %s' % e, file=sys.stderr, flush=True)
                    failed += 1
        if failed:
            return 1
    except (ScenarioError, console.ConsoleError) as e:
        print('realstack-run: error: %s' % e, file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
