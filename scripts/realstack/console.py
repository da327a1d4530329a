"""Turns the L1 console of one real-stack run (scripts/realstack/l1-init.sh) into the result
dictionary that run.py writes as JSON (schema: bench/realstack/README.md)."""
import re

import hist

SCHEMA = 'nestvp-realstack-counts/1'
H_GUEST_GET_STATE = 0x478
H_GUEST_RUN_VCPU = 0x480
# arch/powerpc/kvm/trace_book3s.h, kvm_trace_symbol_exit (6.12). Traps it does not name (trap 0
# among them) print as an empty name in the trace buffer; here they are "0x<hex>".
TRAP_NAMES = {
    0x100: 'SYSTEM_RESET', 0x200: 'MACHINE_CHECK', 0x300: 'DATA_STORAGE', 0x380: 'DATA_SEGMENT',
    0x400: 'INST_STORAGE', 0x480: 'INST_SEGMENT', 0x500: 'EXTERNAL', 0x502: 'EXTERNAL_HV',
    0x600: 'ALIGNMENT', 0x700: 'PROGRAM', 0x800: 'FP_UNAVAIL', 0x900: 'DECREMENTER',
    0x980: 'HV_DECREMENTER', 0xc00: 'SYSCALL', 0xd00: 'TRACE', 0xe00: 'H_DATA_STORAGE',
    0xe20: 'H_INST_STORAGE', 0xe40: 'H_EMUL_ASSIST', 0xf00: 'PERFMON', 0xf20: 'ALTIVEC',
    0xf40: 'VSX',
}
PER_VCPU_KEY = ('exits: kvm_guest_exit vcpu_id. hcalls and gsb_recv: common_pid, the L1 thread '
                'that made the hcall or hit the probe, mapped to a vCPU by the thread name QEMU '
                'gives it ("CPU n/KVM"); calls from other threads are under "other".')


class ConsoleError(Exception):
    pass


def trap_name(trap):
    return TRAP_NAMES.get(trap, '0x%x' % trap)


def sections(text):
    out, name, buf = {}, None, []
    for line in text.splitlines():
        line = line.rstrip('\r')
        if name is None:
            m = re.match(r'^RS_BEGIN (\S+)$', line)
            if m:
                name, buf = m.group(1), []
        elif line == 'RS_END':
            out[name] = '\n'.join(buf) + '\n'
            name = None
        else:
            buf.append(line)
    return out


def kv_lines(text, tag):
    """Fields of every `TAG k=v k=v` line; a value runs up to the next ` k=`."""
    out = {}
    for line in text.splitlines():
        line = line.rstrip('\r')
        if line.startswith(tag + ' '):
            for m in re.finditer(r'(\w+)=(.*?)(?= \w+=|$)', line[len(tag) + 1:]):
                out[m.group(1)] = m.group(2)
    return out


def _num(v):
    try:
        return int(v)
    except ValueError:
        return float(v)


def costs(sec, tb_hz):
    out = {'l1_timebase_hz': tb_hz,
           'method': 'hcall_entry/hcall_exit pairs (same L1 thread, same opcode) recorded in the '
                     'trace buffer with trace_clock=ppc-tb for burst_s L1 seconds after the '
                     'window, while arithoh still runs; ticks of the L1 timebase converted to ns'}
    for line in sec.splitlines():
        if line.startswith('trace_lines'):
            out['trace_info'] = line.strip()
        if not line.startswith('opcode='):
            continue
        f = {k: _num(v) for k, v in (p.split('=', 1) for p in line.split())}
        name = {H_GUEST_RUN_VCPU: 'h_guest_run_vcpu', H_GUEST_GET_STATE: 'h_guest_get_state'}[f['opcode']]
        if f['n'] == 0:
            out[name] = {'n': 0}
            continue
        d = {'n': f['n']}
        for k in ('mean', 'median', 'p10', 'p90', 'min', 'max'):
            d[k + '_ticks'] = f[k + '_ticks']
            d[k + '_ns'] = round(f[k + '_ticks'] * 1e9 / tb_hz, 1)
        out[name] = d
    return out


def to_result(text, sc, policy, index):
    fail = [l for l in text.splitlines() if l.startswith('RS_FAIL')]
    if fail:
        raise ConsoleError('L1 reported: %s' % fail[0])
    sec = sections(text)
    events = ['kvm_guest_exit', 'hcall_entry', 'gsb_recv']
    need = ['hist_%s_%s' % (w, e) for w in ('start', 'end') for e in events] + ['tasks', 'l2', 'cost']
    missing = [n for n in need if n not in sec]
    if missing:
        raise ConsoleError('console lacks section(s) %s (L1 did not finish?)' % ', '.join(missing))
    kv = kv_lines(text, 'RS_KV')
    win = {k: float(v) for k, v in kv_lines(text, 'RS_WINDOW').items()}
    tb_hz = int(kv['l1_timebase_hz'])

    exits, hcalls, probe = (hist.diff(hist.parse(sec['hist_start_' + e]), hist.parse(sec['hist_end_' + e]))
                            for e in events)
    by_trap = hist.counts(hist.find(exits, ['trap']), 'trap')
    by_op = hist.counts(hist.find(hcalls, ['opcode']), 'opcode')
    probe_t = hist.find(probe, ['common_pid'])

    vcpu_of = {}  # L1 thread id -> L2 vCPU
    for line in sec['tasks'].splitlines():
        m = re.match(r'^(\d+) CPU (\d+)/KVM$', line.strip())
        if m:
            vcpu_of[int(m.group(1))] = int(m.group(2))
    per = {str(v): {'exits_by_trap': {}, 'exits_total': 0, 'h_guest_run_vcpu': 0,
                    'h_guest_get_state': 0, 'gsb_recv_probe': 0, 'arithoh_iterations': None}
           for v in range(sc['l2_vcpus'])}
    per['other'] = {'h_guest_run_vcpu': 0, 'h_guest_get_state': 0, 'gsb_recv_probe': 0}
    for e in hist.find(exits, ['vcpu_id', 'trap'])['entries']:
        d = per[str(e['key']['vcpu_id'])]
        n = e['vals']['hitcount']
        name = trap_name(e['key']['trap'])
        d['exits_by_trap'][name] = d['exits_by_trap'].get(name, 0) + n
        d['exits_total'] += n
    for e in hist.find(hcalls, ['common_pid', 'opcode'])['entries']:
        field = {H_GUEST_RUN_VCPU: 'h_guest_run_vcpu', H_GUEST_GET_STATE: 'h_guest_get_state'}.get(
            e['key']['opcode'])
        if field:
            per[str(vcpu_of.get(e['key']['common_pid'], 'other'))][field] += e['vals']['hitcount']
    for e in probe_t['entries']:
        per[str(vcpu_of.get(e['key']['common_pid'], 'other'))]['gsb_recv_probe'] += e['vals']['hitcount']
    for v, tid in ((v, t) for t, v in vcpu_of.items()):
        per[str(v)]['l1_tid'] = tid

    arith = {}
    l2 = {}
    for line in sec['l2'].splitlines():
        m = re.match(r'^ARITHOH vcpu(\d+) (\d+) (\d+)$', line.strip())
        if m:
            arith[m.group(1)] = {'iterations': int(m.group(2)), 'elapsed_ns': int(m.group(3))}
            per[m.group(1)]['arithoh_iterations'] = int(m.group(2))
        m = re.match(r'^(RS_L2_\w+) (.*)$', line.strip())
        if m:
            l2[m.group(1)] = m.group(2)
    missing = [str(c) for c in sc['arith_vcpus'] if str(c) not in arith]
    if missing:
        raise ConsoleError('no arithoh count from vCPU(s) %s' % ', '.join(missing))

    dmesg = dict(l.split() for l in sec.get('l1_dmesg_counts', '').splitlines() if l.strip())
    return {
        'schema': SCHEMA,
        'scenario': dict(sc),
        'policy': policy,
        'run': index,
        'versions': {'l1_kernel': kv.get('l1_kernel'), 'l1_qemu': kv.get('l1_qemu'),
                     'kvm_hv_sha256': kv.get('kvm_hv_sha256')},
        'window_s': sc['window_s'],
        'window_l1': {'start_s': win.get('l1_start'), 'started_s': win.get('l1_started'),
                      'ending_s': win.get('l1_ending'), 'end_s': win.get('l1_end'),
                      'measured_s': round(win['l1_end'] - win['l1_start'], 3),
                      'note': 'L1 uptime (s) before and after the start snapshot of the hist '
                              'files (start, started) and before and after the end snapshot '
                              '(ending, end); measured_s = end - start'},
        'exits_by_trap': {trap_name(t): n for t, n in sorted(by_trap.items())},
        'exits_total': sum(by_trap.values()),
        'h_guest_run_vcpu': by_op.get(H_GUEST_RUN_VCPU, 0),
        'h_guest_get_state': by_op.get(H_GUEST_GET_STATE, 0),
        'hcalls_by_opcode': {'0x%x' % o: n for o, n in sorted(by_op.items())},
        'gsb_recv_probe': sum(hist.counts(probe_t, 'common_pid').values()),
        'per_vcpu': per,
        'per_vcpu_key': PER_VCPU_KEY,
        'arithoh_iterations': sum(a['iterations'] for a in arith.values()) if arith else 0,
        'arithoh': arith,
        'l2_markers': l2,
        'costs': costs(sec['cost'], tb_hz),
        'l1_log': {k: int(v) for k, v in dmesg.items()},
        'hist_dropped': sum(t.get('dropped', 0) for t in exits + hcalls + probe),
    }
