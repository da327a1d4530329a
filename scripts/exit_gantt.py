#!/usr/bin/env python3
"""The median exit (from the trap to L2 running) of each of two `nestvp run --trace-events` timelines as a gnuplot Gantt chart
(docs/trace-events.md): the path steps of one hardware thread from an L2 trap (the exit's
flow arrow starts there) to L2 running again, a panel per file, each with its own time axis.

usage: exit_gantt.py OUT.svg LABEL_A A.json LABEL_B B.json [--thread N] [--reason TEXT]
"""
import argparse
import json
import subprocess
import sys


def one_exit(path, thread, reason):
    """The steps of the first exit on `thread` whose interrupt instant names `reason`."""
    with open(path) as f:
        events = json.load(f)['traceEvents']
    tid = 8 * thread + 1
    traps = {e['ts'] for e in events
             if e['ph'] == 'i' and e['pid'] == 1 and e['tid'] == tid and reason in e['name']}
    flows = {}
    for e in events:
        if e['ph'] in 'sf' and e['pid'] == 1 and e['tid'] == tid and e.get('cat') == 'exit':
            flows.setdefault(e['id'], {})[e['ph']] = e['ts']
    spans = sorted((f['s'], f['f']) for f in flows.values()
                   if 's' in f and 'f' in f and f['s'] in traps)
    if not spans:
        sys.exit('%s: no exit on thread %d with an interrupt named %r' % (path, thread, reason))
    t0, t1 = sorted(spans, key=lambda s: s[1] - s[0])[len(spans) // 2]  # the median exit
    steps = sorted((e['ts'], e['dur'], e['name']) for e in events
                   if e['ph'] == 'X' and e['pid'] == 1 and e['tid'] == tid
                   and e['ts'] < t1 and e['ts'] + e['dur'] > t0 and e['name'] != 'GET_STATE')
    cut = [(max(ts, t0) - t0, min(ts + d, t1) - t0, n) for ts, d, n in steps]
    return t0, t1, [c for c in cut if c[1] > c[0]]


def panel(label, t0, t1, steps, block):
    lines = ['$%s << EOD' % block]
    for i, (a, b, name) in enumerate(steps):
        lines.append('%.4f %.4f %d "%s"' % (a, b, i, name))
    lines.append('EOD')
    total = t1 - t0
    lines += [
        'set title "%s: the median exit of its kind, %.3f us from the L2 trap to L2 running"'
        % (label, total),
        'set yrange [%d:-1]' % len(steps),
        'set xrange [0:%.4f]' % (total * 1.02),
        'set ytics () ',
        'plot $%s using 1:3:($2-$1):(0) with vectors nohead lw 12 lc rgb "#4477aa" notitle, \\' % block,
        '     $%s using 2:3:(sprintf(" %%s %%.3f us", stringcolumn(4), $2-$1)) with labels left font ",9" notitle' % block,
    ]
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('out')
    ap.add_argument('label_a')
    ap.add_argument('file_a')
    ap.add_argument('label_b')
    ap.add_argument('file_b')
    ap.add_argument('--thread', type=int, default=1)
    ap.add_argument('--reason', default='0xc00')
    a = ap.parse_args()
    term = ('pngcairo size 1100,900 font "Helvetica,10"' if a.out.endswith('.png') else
            'svg size 1100,900 font "Helvetica,11" background rgb "white"')
    script = ['set terminal ' + term,
              'set output "%s"' % a.out, 'set multiplot layout 2,1',
              'set xlabel "us after the trap"', 'set rmargin 26', 'set grid xtics',
              'set termoption noenhanced']
    for i, (label, path) in enumerate(((a.label_a, a.file_a), (a.label_b, a.file_b))):
        script += panel(label, *one_exit(path, a.thread, a.reason), 'p%d' % i)
    script.append('unset multiplot')
    subprocess.run(['gnuplot'], input='\n'.join(script) + '\n', text=True, check=True)


if __name__ == '__main__':
    main()
