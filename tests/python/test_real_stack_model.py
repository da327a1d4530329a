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
        checked = 0
        for path in sorted(glob.glob(os.path.join(rsm.SCENARIOS, '*.yaml'))):
            name, _, policies = rsm.scenario_settings(path)
            model, stack = {}, {}
            for p in policies:
                model[p] = rsm.model_row(rsm.load(os.path.join(
                    self.out, '%s-%s-s1.json' % (name, p)))[0])
                stack[p] = [rsm.stack_row(r) for r in rsm.load(os.path.join(
                    rsm.RESULTS, '%s-%s-[0-9]*.json' % (name, p)))]
                self.assertGreaterEqual(len(stack[p]), 3, name + ' ' + p)
                for key in ('get_state_per_run', 'probe_per_run'):
                    vals = [r[key] for r in stack[p]]
                    self.assertNotEqual(rsm.verdict(model[p][key], vals), 'outside',
                                        '%s %s %s: model %.3f, stack %s'
                                        % (name, p, key, model[p][key], vals))
                    checked += 1
            ratio = model['no-cancel']['exits'] / model['cancel']['exits']
            pairs = [n['exits'] / c['exits'] for c in stack['cancel'] for n in stack['no-cancel']]
            self.assertNotEqual(rsm.verdict(ratio, pairs), 'outside', '%s exit ratio' % name)
        self.assertGreaterEqual(checked, 12)

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
