#!/usr/bin/python3
"""Summarises real-stack result JSONs: per scenario and policy, each count's runs, mean and
spread ((max - min) / mean). Usage: summarize.py [RESULTS_DIR_OR_FILES...] [--markdown]"""
import glob
import json
import os
import sys

FIELDS = ['exits_total', 'h_guest_run_vcpu', 'h_guest_get_state', 'gsb_recv_probe',
          'arithoh_iterations']


def load(args):
    files = []
    for a in args or [os.path.join(os.path.dirname(__file__), '..', '..', 'bench', 'realstack', 'results')]:
        files += sorted(glob.glob(os.path.join(a, '*.json'))) if os.path.isdir(a) else [a]
    groups = {}
    for f in files:
        with open(f) as fh:
            r = json.load(fh)
        groups.setdefault((r['scenario']['name'], r['policy']), []).append(r)
    return groups


def rows(groups):
    for (name, policy), rs in sorted(groups.items()):
        rs.sort(key=lambda r: r['run'])
        traps = sorted({t for r in rs for t in r['exits_by_trap']})
        fields = [(f, [r[f] for r in rs]) for f in FIELDS]
        fields += [('exits ' + t, [r['exits_by_trap'].get(t, 0) for r in rs]) for t in traps]
        fields += [('GET_STATE cost median ns',
                    [r['costs'].get('h_guest_get_state', {}).get('median_ns') for r in rs]),
                   ('RUN_VCPU cost median ns',
                    [r['costs'].get('h_guest_run_vcpu', {}).get('median_ns') for r in rs]),
                   ('wall s', [r['wall_s'] for r in rs]),
                   ('window measured s', [r['window_l1']['measured_s'] for r in rs])]
        for f, vals in fields:
            got = [v for v in vals if v is not None]
            mean = sum(got) / len(got) if got else None
            spread = (max(got) - min(got)) / mean if got and mean else None
            yield name, policy, [r['run'] for r in rs], f, vals, mean, spread


def main(argv):
    md = '--markdown' in argv
    args = [a for a in argv if a != '--markdown']
    if md:
        print('| scenario | policy | count | runs | mean | spread |')
        print('|---|---|---|---|---|---|')
    for name, policy, runs, f, vals, mean, spread in rows(load(args)):
        v = ', '.join('-' if x is None else '%g' % x for x in vals)
        m = '-' if mean is None else '%.6g' % mean
        s = '-' if spread is None else '%.1f %%' % (100 * spread)
        if md:
            print('| %s | %s | %s | %s | %s | %s |' % (name, policy, f, v, m, s))
        else:
            print('%-22s %-10s %-28s runs %-6s %-40s mean %-12s spread %s'
                  % (name, policy, f, ','.join(map(str, runs)), v, m, s))


if __name__ == '__main__':
    main(sys.argv[1:])
