"""Turns the L1 console of one real-stack run (scripts/realstack/l1-init.sh) into the result
dictionary that run.py writes as JSON (schema: bench/realstack/README.md)."""
import hashlib
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
        'scenario': scenario_of(sc),
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


# The raw trace burst (l1-init.sh, rs_raw): five events, each counted by one hist trigger in the
# same tracing instance, gated while L2's QEMU is stopped.
TRACE_SCHEMA = 'nestvp-realstack-trace-counts/1'
RAW_EVENTS = [('kvm_hv', 'kvm_guest_enter', ['vcpu_id']),
              ('kvm_hv', 'kvm_guest_exit', ['vcpu_id', 'trap']),
              ('powerpc', 'hcall_entry', ['common_pid', 'opcode']),
              ('powerpc', 'hcall_exit', ['common_pid', 'opcode']),
              ('kprobes', 'gsb_recv', ['common_pid'])]
RAW_GATING = (
    'Two gates: the trace buffer (tracing_on of the instance rs_raw) and the five hist triggers '
    '(created paused; :cont and :pause written one after the other). Both are flipped while L2\'s '
    'QEMU is stopped (SIGSTOP, every thread of it seen in state T in /proc): no L2 vCPU is in '
    'KVM_RUN then, so no kvm_guest_enter/exit, gsb_recv or H_GUEST_* hcall can happen between the '
    'two gates, whatever their order and however long a :cont takes. Open: stop, clear the buffer, '
    'cont the triggers, tracing_on=1, SIGCONT; after raw_trace_s L1 seconds: stop, tracing_on=0, '
    'pause the triggers, SIGCONT. What is not covered: events of other L1 threads between the gates '
    '(hcalls of L1 itself, e.g. a console write); check.trace_lines_by_event counts the trace\'s '
    'lines per event on the host, and check.equal says whether every one equals its hist count.')
_TRACE_HEADER = re.compile(r'^# entries-in-buffer/entries-written: (\d+)/(\d+)\s+#P:(\d+)')
_TRACE_EVENT = re.compile(r' \d+: (\w+): ')


def raw_trace(text, sc, policy, index, trace_name):
    """The raw trace burst of one console: (trace text, counts dictionary), or None when the
    console has no burst. The trace text is the kernel's, byte for byte (checked by sha256)."""
    sec = sections(text)
    if 'raw_trace_info' not in sec:
        return None
    need = ['raw_trace'] + ['raw_hist_' + e for _, e, _ in RAW_EVENTS]
    missing = [n for n in need if n not in sec]
    if missing:
        raise ConsoleError('console lacks raw trace section(s) %s' % ', '.join(missing))
    info = dict(l.split(' ', 1) for l in sec['raw_trace_info'].splitlines() if ' ' in l)
    if info.get('error', 'none') != 'none':
        raise ConsoleError('L1 raw trace burst failed at: %s' % info['error'])
    trace = sec['raw_trace']
    sha = hashlib.sha256(trace.encode()).hexdigest()
    if sha != info.get('trace_sha256') or len(trace.encode()) != int(info.get('trace_bytes', -1)):
        raise ConsoleError('raw trace garbled on the console: %d bytes sha256 %s, L1 had %s bytes '
                           'sha256 %s' % (len(trace.encode()), sha, info.get('trace_bytes'),
                                          info.get('trace_sha256')))
    header = {}
    for line in trace.splitlines():
        m = _TRACE_HEADER.match(line)
        if m:
            header = {'entries_in_buffer': int(m.group(1)), 'entries_written': int(m.group(2)),
                      'cpus': int(m.group(3))}
    lines_by_event = {}
    for line in trace.splitlines():
        if line.startswith('#'):
            continue
        m = _TRACE_EVENT.search(line)
        if m:
            lines_by_event[m.group(1)] = lines_by_event.get(m.group(1), 0) + 1

    events, specs, dropped, by = {}, [], 0, {}
    for system, e, keys in RAW_EVENTS:
        triggers = hist.parse(sec['raw_hist_' + e])
        t = hist.find(triggers, keys)
        if not t['paused']:
            raise ConsoleError('raw hist trigger on %s is not paused' % e)
        specs.append('%s:%s %s' % (system, e, t['spec']))
        dropped += t.get('dropped', 0)
        events[e] = sum(en['vals']['hitcount'] for en in t['entries'])
        by[e] = t
    kv = kv_lines(text, 'RS_KV')
    up = kv_lines(sec['raw_trace_info'], 'l1_uptimes')

    def keyed(t, key, fmt):
        return {fmt(k): n for k, n in sorted(hist.counts(t, key).items())}
    by_trap = {}
    for trap, n in sorted(hist.counts(by['kvm_guest_exit'], 'trap').items()):
        by_trap[trap_name(trap)] = by_trap.get(trap_name(trap), 0) + n
    f = lambda k: float(up[k]) if up.get(k) else None  # noqa: E731
    check = {e: lines_by_event.get(e, 0) for _, e, _ in RAW_EVENTS}
    other = sorted(set(lines_by_event) - set(check))
    stopped = info.get('l2_stopped_at_open') == '1' and info.get('l2_stopped_at_close') == '1'
    tids = {}  # L2 vCPU -> the L1 thread (QEMU's "CPU n/KVM"), the common_pid of the trace lines
    for line in sec.get('tasks', '').splitlines():
        m = re.match(r'^(\d+) CPU (\d+)/KVM$', line.strip())
        if m:
            tids[m.group(2)] = int(m.group(1))
    return trace, {
        'schema': TRACE_SCHEMA,
        'scenario': scenario_of(sc),
        'policy': policy,
        'run': index,
        'versions': {'l1_kernel': kv.get('l1_kernel'), 'kvm_hv_sha256': kv.get('kvm_hv_sha256')},
        'trace_file': trace_name,
        'trace_sha256': sha,
        'trace_bytes': len(trace.encode()),
        'trace_lines': len(trace.splitlines()),
        'trace_header': header,
        'trace_clock': (re.findall(r'\[(\S+)\]', info.get('trace_clock', '')) or [None])[0],
        'l1_timebase_hz': int(kv['l1_timebase_hz']),
        'buffer_size_kb': int(info['buffer_size_kb']),
        'instance': 'rs_raw',
        'raw_trace_s': float(info['raw_trace_s']),
        'burst_l1': {'stopped_s': f('stopped'), 'open_s': f('open'), 'stopping_s': f('stopping'),
                     'stopped_again_s': f('stopped_again'), 'closed_s': f('closed'),
                     'note': 'L1 uptimes (s): L2 stopped (stopped), gates opened (open; SIGCONT '
                             'right after), sleep over (stopping), L2 stopped again '
                             '(stopped_again), gates closed (closed; SIGCONT right after). '
                             'L2 ran from open to stopped_again.'},
        'l2_done_at_close': info.get('l2_done_at_close') == '1',
        'events': events,
        'events_total': sum(events.values()),
        'kvm_guest_enter_by_vcpu_id': keyed(by['kvm_guest_enter'], 'vcpu_id', str),
        'kvm_guest_exit_by_trap': by_trap,
        'kvm_guest_exit_by_vcpu_id': keyed(by['kvm_guest_exit'], 'vcpu_id', str),
        'hcall_entry_by_opcode': keyed(by['hcall_entry'], 'opcode', lambda o: '0x%x' % o),
        'hcall_exit_by_opcode': keyed(by['hcall_exit'], 'opcode', lambda o: '0x%x' % o),
        'hcall_entry_by_common_pid': keyed(by['hcall_entry'], 'common_pid', str),
        'gsb_recv_by_common_pid': keyed(by['gsb_recv'], 'common_pid', str),
        'l1_tid_of_vcpu': tids,
        'hist_triggers': specs,
        'hist_dropped': dropped,
        'gating': {'method': RAW_GATING,
                   'l2_stopped_at_both_gates': stopped,
                   'same_window': stopped and check == events and not other and dropped == 0
                   and header.get('entries_in_buffer') == header.get('entries_written')},
        'check': {'trace_lines_by_event': check, 'other_events': other,
                  'equal': check == events,
                  'method': 'run.py: lines of the trace outside its # header with " TIMESTAMP: '
                            'EVENT: ", counted by EVENT'},
    }


def scenario_of(sc):
    """The scenario as result files show it: raw_trace_s only when the burst is on, so files of
    runs without it are as before."""
    out = dict(sc)
    if not out.get('raw_trace_s'):
        out.pop('raw_trace_s', None)
    return out
