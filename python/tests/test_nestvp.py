"""Unit tests of the nestvp package against a fake binary (no simulation).

Run: python3 -m unittest discover -s python/tests   (from the repository root)
"""

import json
import os
import stat
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import nestvp  # noqa: E402

RECORD = {
    "platform": "fake",
    "settings": {"l1.dec_policy": "cancel"},
    "sim_seconds": 0.1,
    "metrics": {
        "kvm_guest_exit": 10,
        "latencies": {
            "wake_latency_ns": {"all": {"count": 4, "p50": 100}, "histogram": [[100, 1], [200, 3]]},
        },
        "vcpus": {"0": {"l1.guest_exits": 4}, "1": {"l1.guest_exits": 6}},
    },
}

# Answers like the real binary: run/compare write --json, sweep writes --csv, uncertainty
# is unknown, a platform called bad.yaml is a bad platform file; argv is logged.
FAKE = textwrap.dedent(
    """\
    import json, sys
    args = sys.argv[1:]
    with open(sys.argv[0] + ".log", "a") as log:
        log.write(json.dumps(args) + "\\n")
    sys.stderr.write("        SystemC 2.3.4-Accellera --- Jan 13 2023\\n")
    def opt(name):
        return args[args.index(name) + 1] if name in args else None
    cmd = args[0] if args else ""
    if cmd not in ("run", "compare", "sweep", "params"):
        sys.stderr.write("nestvp: unknown command '%s'\\n" % cmd)
        sys.exit(2)
    if "bad.yaml" in args:
        sys.stderr.write("bad.yaml:3:5: l1.dec_policy: expected one of cancel|no-cancel\\n")
        sys.exit(2)
    record = RECORD
    if cmd == "run":
        json.dump(record, open(opt("--json"), "w"))
    elif cmd == "compare":
        json.dump({"label_a": "A", "label_b": "B", "a": record, "b": record,
                   "difference_pct": {"kvm_guest_exit": 0.0}}, open(opt("--json"), "w"))
    elif cmd == "sweep":
        with open(opt("--csv"), "w") as f:
            f.write('l2.vcpus,l1.dec_policy,sim_seconds,partial,kvm_guest_exit\\n'
                    '2,cancel,0.1,false,10\\n3,"no,cancel",0.1,true,12\\n')
    elif cmd == "params":
        print("| key | type | default | unit | range | description |")
        print("|---|---|---|---|---|---|")
        print("| `l1.dec_policy` | enum | `cancel` |  | cancel\\\\|no-cancel | queued-DEC handling |")
        print("| `l2.hz` | integer | `250` | Hz | 1..1000 | tick rate |")
    """
)


class FakeBinary(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.bin = os.path.join(self.tmp.name, "nestvp")
        with open(self.bin, "w") as f:
            f.write(f"#!{sys.executable}\n")
            f.write(f"RECORD = {json.dumps(RECORD)!r}\nimport json as _j; RECORD = _j.loads(RECORD)\n")
            f.write(FAKE)
        os.chmod(self.bin, os.stat(self.bin).st_mode | stat.S_IXUSR)
        self.vp = nestvp.Nestvp(self.bin)

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def calls(self):
        with open(self.bin + ".log") as f:
            return [json.loads(l) for l in f]

    def test_run_returns_record_and_passes_settings_in_order(self):
        rec = self.vp.run("p.yaml", {"l1.dec_policy": "cancel", "run.duration_s": 0.1, "x.flag": True})
        self.assertEqual(rec["metrics"]["kvm_guest_exit"], 10)
        argv = self.calls()[0]
        self.assertEqual(argv[:8], ["run", "p.yaml", "--set", "l1.dec_policy=cancel",
                                    "--set", "run.duration_s=0.1", "--set", "x.flag=true"])
        self.assertIn("--json", argv)

    def test_settings_as_strings_and_bad_setting(self):
        self.vp.run("p.yaml", ["a=1"])
        self.assertEqual(self.calls()[0][2:4], ["--set", "a=1"])
        with self.assertRaises(ValueError):
            self.vp.run("p.yaml", ["no-equals"])

    def test_compare_shape_and_vs(self):
        out = self.vp.compare("p.yaml", settings={"a": 1}, vs={"a": 2}, jobs=1)
        self.assertEqual(set(out), {"label_a", "label_b", "a", "b", "difference_pct"})
        argv = self.calls()[0]
        self.assertEqual(argv[:6], ["compare", "p.yaml", "--set", "a=1", "--vs", "a=2"])
        self.assertEqual(argv[argv.index("-j") + 1], "1")

    def test_sweep_rows_are_typed_dicts(self):
        rows = self.vp.sweep("p.yaml", {"l2.vcpus": [2, 3], "l1.dec_policy": ["cancel", "no-cancel"]})
        self.assertEqual(rows[0], {"l2.vcpus": 2, "l1.dec_policy": "cancel", "sim_seconds": 0.1,
                                   "partial": False, "kvm_guest_exit": 10})
        self.assertEqual(rows[1]["l1.dec_policy"], "no,cancel")
        self.assertIs(rows[1]["partial"], True)
        argv = self.calls()[0]
        self.assertEqual(argv[2:6], ["--grid", "l2.vcpus=2,3", "--grid", "l1.dec_policy=cancel,no-cancel"])

    def test_unknown_command_raises_with_binary_message(self):
        with self.assertRaises(nestvp.UnknownCommandError) as cm:
            self.vp.uncertainty("p.yaml", "--samples", "3")
        err = cm.exception
        self.assertEqual(err.returncode, 2)
        self.assertIn("unknown command 'uncertainty'", str(err))
        self.assertNotIn("SystemC", err.message)
        self.assertEqual(self.calls()[0][:4], ["uncertainty", "p.yaml", "--samples", "3"])

    def test_failure_raises_with_stderr(self):
        with self.assertRaises(nestvp.NestvpError) as cm:
            self.vp.run("bad.yaml")
        self.assertNotIsInstance(cm.exception, nestvp.UnknownCommandError)
        self.assertEqual(cm.exception.returncode, 2)
        self.assertIn("bad.yaml:3:5: l1.dec_policy", cm.exception.stderr)
        self.assertIn("bad.yaml:3:5", str(cm.exception))

    def test_params_table(self):
        rows = self.vp.params()
        self.assertEqual(rows[0]["key"], "l1.dec_policy")
        self.assertEqual(rows[1]["unit"], "Hz")
        self.assertEqual(rows[0]["range"], "cancel|no-cancel")
        self.assertEqual(rows[0]["default"], "cancel")
        self.assertIn("--markdown", self.calls()[0])


class FindBinary(unittest.TestCase):
    def test_order_argument_env_build_path(self):
        with tempfile.TemporaryDirectory() as tmp:
            exe = os.path.join(tmp, "nestvp")
            Path(exe).write_text("#!/bin/sh\n")
            os.chmod(exe, 0o755)
            self.assertEqual(nestvp.find_binary(exe), exe)
            with mock.patch.dict(os.environ, {"NESTVP_BIN": exe}):
                self.assertEqual(nestvp.find_binary(), exe)
                with self.assertRaises(nestvp.BinaryNotFoundError):
                    nestvp.find_binary(os.path.join(tmp, "missing"))
            with mock.patch.dict(os.environ, {"NESTVP_BIN": os.path.join(tmp, "missing")}):
                with self.assertRaises(nestvp.BinaryNotFoundError):
                    nestvp.find_binary()
            env = {k: v for k, v in os.environ.items() if k != "NESTVP_BIN"}
            env["PATH"] = tmp
            with mock.patch.dict(os.environ, env, clear=True), \
                    mock.patch.object(nestvp.binary, "REPO_ROOT", Path(tmp) / "no-repo"):
                self.assertEqual(nestvp.find_binary(), exe)
                os.chmod(exe, 0o644)
                with self.assertRaises(nestvp.BinaryNotFoundError):
                    nestvp.find_binary()


class Helpers(unittest.TestCase):
    def test_flatten_and_cdf(self):
        flat = nestvp.flatten(RECORD)
        self.assertEqual(flat["metrics.latencies.wake_latency_ns.all.p50"], 100)
        self.assertEqual(flat["metrics.vcpus.1.l1.guest_exits"], 6)
        self.assertEqual(nestvp.latency_cdf(RECORD, "wake_latency_ns"), [(100.0, 0.25), (200.0, 1.0)])

    def test_to_frame_with_or_without_pandas(self):
        if nestvp.have_pandas():
            df = nestvp.to_frame([RECORD, RECORD])
            self.assertEqual(len(df), 2)
            self.assertIn("metrics.kvm_guest_exit", df.columns)
        else:
            with self.assertRaisesRegex(ImportError, "python3-pandas"):
                nestvp.to_frame(RECORD)


if __name__ == "__main__":
    unittest.main()
