"""scripts/real_stack_model.py against the stack's committed counts (docs/real-stack.md): the
model, run now, must hold the issue's criteria in every scenario: GET_STATE hcalls and probe
hits per H_GUEST_RUN_VCPU under each policy and the no-cancel/cancel exit ratio inside the
stack's min-max over its runs, or within 15 %. A change to a mechanism these rest on fails it."""
import glob
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, 'scripts'))
import real_stack_model as rsm  # noqa: E402


class RealStackModel(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out = tempfile.mkdtemp(prefix='nestvp_real_stack_')
        build = os.path.dirname(os.environ['NESTVP_BINARY'])
        # 2 simulated seconds, not the 10 s window: the rows compared are rates (and the
        # sanitizer suite runs this too).
        args = type('args', (), {'build': build, 'out': cls.out, 'seeds': 1, 'duration': 2.0})
        rsm.predict(args)

    def test_every_criterion_holds_in_every_scenario(self):
        judged = 0
        for path in sorted(glob.glob(os.path.join(rsm.SCENARIOS, '*.yaml'))):
            name, _, policies = rsm.scenario_settings(path)
            rows, runs = rsm.compare(name, policies, self.out, rsm.RESULTS)
            for p, n in runs.items():
                self.assertGreaterEqual(n, 3, '%s %s: runs' % (name, p))
            for label, p, model, stack in rows:
                if label not in rsm.JUDGED:
                    continue
                self.assertNotEqual(rsm.verdict(model, stack), 'outside',
                                    '%s %s %s: model %.3f, stack %s' % (name, p, label, model,
                                                                       stack))
                judged += 1
        self.assertEqual(judged, 15)  # 3 scenarios x (2 policies x 2 rows + the ratio)

    def test_a_scenario_the_model_cannot_express_is_refused(self):
        bad = os.path.join(self.out, 'bad.yaml')
        with open(bad, 'w') as f:
            f.write('name: bad\nl2_vcpus: 2\narith_vcpus: [1]\n')
        with self.assertRaisesRegex(rsm.ModelError, 'arith_vcpus'):
            rsm.scenario_settings(bad)
        with open(bad, 'w') as f:
            f.write('name: bad\nl2_vcpus: 2\narith_vcpus: [0]\nl2_append: nohz=off\n')
        with self.assertRaisesRegex(rsm.ModelError, 'l2_append'):
            rsm.scenario_settings(bad)


if __name__ == '__main__':
    unittest.main()
