"""scripts/realstack/hist.py and console.py on a raw tracefs `hist` file the L1 kernel printed
(bench/realstack/samples/kvm_guest_exit.hist: two hist triggers on kvm_hv:kvm_guest_exit, from a
5 s smoke window of the development boot, not a result) and on a small synthetic console."""
import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, '..', '..')
sys.path.insert(0, os.path.join(ROOT, 'scripts', 'realstack'))
import console  # noqa: E402
import hist  # noqa: E402


class HistSample(unittest.TestCase):
    def setUp(self):
        with open(os.path.join(ROOT, 'bench', 'realstack', 'samples', 'kvm_guest_exit.hist')) as f:
            self.text = f.read()
        self.triggers = hist.parse(self.text)

    def test_two_triggers_with_their_keys(self):
        self.assertEqual([t['keys'] for t in self.triggers], [['trap'], ['vcpu_id', 'trap']])
        self.assertTrue(all(t['paused'] for t in self.triggers))

    def test_entries_add_up_to_totals(self):
        for t in self.triggers:
            self.assertEqual(sum(e['vals']['hitcount'] for e in t['entries']), t['hits'])
            self.assertEqual(len(t['entries']), t['entries_n'])

    def test_hex_keys_and_trap_zero(self):
        by_trap = hist.counts(hist.find(self.triggers, ['trap']), 'trap')
        self.assertIn(0, by_trap)
        self.assertIn(0x980, by_trap)
        self.assertEqual(console.trap_name(0x980), 'HV_DECREMENTER')
        self.assertEqual(console.trap_name(0), '0x0')
        per = hist.find(self.triggers, ['vcpu_id', 'trap'])
        self.assertEqual({e['key']['vcpu_id'] for e in per['entries']}, {0, 1})

    def test_window_is_end_minus_start(self):
        # An earlier snapshot of the same file: every count halved (totals recomputed).
        half = re.sub(r'hitcount: +(\d+)', lambda m: 'hitcount: %d' % (int(m.group(1)) // 2), self.text)
        half = re.sub(r'Hits: \d+\n', '', half)
        window = hist.diff(hist.parse(half), self.triggers)
        for full, w in zip(self.triggers, window):
            self.assertEqual(w['spec'], full['spec'])
            self.assertEqual(w['hits'], sum(e['vals']['hitcount'] - e['vals']['hitcount'] // 2
                                            for e in full['entries']))
        with self.assertRaises(ValueError):  # counts cannot go down
            hist.diff(self.triggers, hist.parse(half))

    def test_inconsistent_totals_are_refused(self):
        # A paused trigger's entries must sum to its Totals; an active one counts on while its
        # file is printed, so its Totals may run ahead and are accepted.
        text = ('# trigger info: hist:keys=opcode.hex:vals=hitcount:sort=hitcount:size=256 [%s]\n'
                '{ opcode: 480 } hitcount:          3\nTotals:\n    Hits: 4\n    Entries: 1\n'
                '    Dropped: 0\n')
        with self.assertRaises(ValueError):
            hist.parse(text % 'paused')
        self.assertEqual(hist.parse(text % 'active')[0]['entries'][0]['vals']['hitcount'], 3)


class Console(unittest.TestCase):
    TEXT = ('noise\r\nRS_KV l1_qemu=QEMU emulator version 7.2.22 (Debian) l1_timebase_hz=512000000\n'
            'RS_BEGIN cost\nopcode=1144 n=3 sum_ticks=3000 mean_ticks=1000.0 median_ticks=900 '
            'p10_ticks=800 p90_ticks=1300 min_ticks=800 max_ticks=1300\nopcode=1152 n=0\nRS_END\n')

    def test_sections_and_fields(self):
        self.assertEqual(console.sections(self.TEXT)['cost'].count('opcode='), 2)
        kv = console.kv_lines(self.TEXT, 'RS_KV')
        self.assertEqual(kv['l1_qemu'], 'QEMU emulator version 7.2.22 (Debian)')
        self.assertEqual(kv['l1_timebase_hz'], '512000000')

    def test_costs_in_ns(self):
        c = console.costs(console.sections(self.TEXT)['cost'], 512000000)
        self.assertEqual(c['h_guest_get_state']['median_ns'], 1757.8)
        self.assertEqual(c['h_guest_run_vcpu'], {'n': 0})


if __name__ == '__main__':
    unittest.main()
