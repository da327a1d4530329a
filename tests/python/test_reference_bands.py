"""scripts/reference_bands.py, the interval part: which summary serves a row (short runs only for
the stationary metrics), how far N/2 and N bounds moved, and the note for a model value outside
its own interval. Synthetic summaries; no binary needed."""
import contextlib
import importlib.util
import io
import json
import os
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = importlib.util.spec_from_file_location(
    "reference_bands", os.path.join(HERE, "..", "..", "scripts", "reference_bands.py"))
bands = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(bands)


def target(name, p5, p95, half_p5, half_p95, shares=()):
    return {"target": name, "n": 64, "p5": p5, "median": (p5 + p95) / 2, "p95": p95,
            "p5_se": 1.0, "p95_se": 1.0,
            "half": {"n": 32, "p5": half_p5, "p5_se": 2.0, "p95": half_p95, "p95_se": 2.0},
            "shares": [{"key": k, "share": s, "rho": 0.5} for k, s in shares]}


def summary(targets, scale=1.0, secs=10.0):
    return {"samples": 64, "samples_complete": 64, "hypercubes": 2, "half_samples": 32,
            "sim_seconds": secs, "count_scale": scale, "counts_scaled_to_s": secs * scale,
            "keys": ["l2.devices.ipi_hz", "l2.vcpus"], "targets": targets}


class Moved(unittest.TestCase):
    def test_share_of_width(self):
        self.assertAlmostEqual(bands.moved(target("t", 0, 100, 5, 92)), 0.08)
        self.assertAlmostEqual(bands.moved(target("t", 0, 100, -12, 100)), 0.12)

    def test_none_without_half_or_width(self):
        t = target("t", 0, 100, 0, 100)
        del t["half"]
        self.assertIsNone(bands.moved(t))
        self.assertIsNone(bands.moved(target("t", 5, 5, 5, 5)))


class Serving(unittest.TestCase):
    def test_short_runs_only_for_stationary_metrics(self):
        # A metric outside SHORT_RUN_METRICS (h_guest_run_vcpu) never comes from short runs.
        short = summary([target("kvm_guest_exit [cancel]", 1, 2, 1, 2),
                         target("h_guest_run_vcpu [cancel]", 1, 2, 1, 2)], scale=10, secs=1)
        short["samples_complete"] = 256
        full = summary([target("kvm_guest_exit [cancel]", 1, 2, 1, 2),
                        target("h_guest_run_vcpu [cancel]", 1, 2, 1, 2)])
        both = [short, full]
        self.assertIs(bands.serving(both, "kvm_guest_exit", "kvm_guest_exit [cancel]"), short)
        self.assertIs(bands.serving(both, "h_guest_run_vcpu", "h_guest_run_vcpu [cancel]"), full)
        self.assertIsNone(bands.serving([short], "h_guest_run_vcpu", "h_guest_run_vcpu [cancel]"))


class Intervals(unittest.TestCase):
    def run_intervals(self, targets, model_exits):
        metrics = {"arithoh_count": 3.0e9, "kvm_guest_exit": model_exits, "gsb_recv": 1000}
        record = {"config": {"l2.devices.ipi_hz": 0, "l2.vcpus": 8},
                  "provenance": {"l2.devices.ipi_hz": {"kind": "assumed", "range": [0, 5000]},
                                 "l2.vcpus": {"kind": "assumed", "range": [2, 16]}}}
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "u.json")
            with open(path, "w") as f:
                json.dump(summary(targets), f)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                bands.intervals([path], metrics, metrics, record)
        return out.getvalue()

    def test_model_outside_its_interval_names_the_edge(self):
        shares = [("l2.vcpus", 0.6), ("l2.devices.ipi_hz", 0.4)]
        out = self.run_intervals([target("kvm_guest_exit [no-cancel]", 200000, 900000,
                                         210000, 880000, shares)], model_exits=150000)
        self.assertIn("- kvm_guest_exit no-cancel: model's own value outside its interval "
                      "(150,000 against 200,000 .. 900,000): it sits at the edge of a range: "
                      "l2.devices.ipi_hz = 0 in [0, 5000] (40 %).", out)

    def test_an_edge_key_without_share_is_noise(self):
        shares = [("l2.vcpus", 0.995), ("l2.devices.ipi_hz", 0.005)]
        out = self.run_intervals([target("kvm_guest_exit [no-cancel]", 200000, 900000,
                                         210000, 880000, shares)], model_exits=950000)
        self.assertIn("(950,000 against 200,000 .. 900,000): none of its assumed values sits at "
                      "the edge of its range.", out)

    def test_model_inside_gets_no_note(self):
        out = self.run_intervals([target("kvm_guest_exit [no-cancel]", 200000, 900000,
                                         210000, 880000)], model_exits=500000)
        self.assertNotIn("model's own value outside", out)

    def test_convergence_per_row(self):
        out = self.run_intervals([target("kvm_guest_exit [no-cancel]", 0, 1000, 50, 1000),
                                  target("kvm_guest_exit [cancel]", 0, 1000, 0, 880)],
                                 model_exits=500)
        self.assertIn("| kvm_guest_exit no-cancel | 64 | 0 +- 1 | 1,000 +- 1 | 32 | 50 +- 2 "
                      "| 1,000 +- 2 | 5.0 % | yes |", out)
        self.assertIn("| kvm_guest_exit cancel | 64 | 0 +- 1 | 1,000 +- 1 | 32 | 0 +- 2 "
                      "| 880 +- 2 | 12.0 % | NO |", out)
        self.assertIn("1 interval(s) not converged (kvm_guest_exit cancel)", out)


if __name__ == "__main__":
    unittest.main()
