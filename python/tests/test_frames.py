"""The DataFrame loaders on committed fixtures (fixtures/README.md says how each was made).

No binary needed. Needs pandas (python3-pandas, scripts/install-deps.sh).
Run: python3 -m unittest -v test_frames   (from python/tests)
"""

import json
import os
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pandas as pd  # noqa: E402

import nestvp  # noqa: E402

FIX = Path(__file__).resolve().parent / "fixtures"


class Temp(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def write(self, name: str, text: str) -> str:
        path = os.path.join(self.tmp.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path


class LoadRecord(Temp):
    def test_one_row_flattened(self):
        df = nestvp.load_record(FIX / "record.json")
        self.assertEqual(len(df), 1)
        row = df.iloc[0]
        self.assertEqual(row["file"], str(FIX / "record.json"))
        self.assertEqual(row["metrics.kvm_guest_exit"], 1371)
        self.assertEqual(row["settings.l1.dec_policy"], "no-cancel")
        self.assertEqual(row["metrics.vcpus.2.l1.guest_exits"] + row["metrics.vcpus.0.l1.guest_exits"]
                         + row["metrics.vcpus.1.l1.guest_exits"], 1371)
        self.assertIsInstance(row["metrics.latencies.wake_latency_ns.histogram"], list)

    def test_several_and_a_compare_output(self):
        rec = json.loads((FIX / "record.json").read_text())
        cmp = self.write("cmp.json", json.dumps({"label_a": "A: x", "label_b": "B: y", "a": rec,
                                                  "b": rec, "difference_pct": {}}))
        df = nestvp.load_record([FIX / "record.json", cmp, rec])
        self.assertEqual(list(df["label"].fillna("-")), ["-", "A: x", "B: y", "-"])
        self.assertEqual(list(df["file"]), [str(FIX / "record.json"), cmp, cmp, "<record>"])
        self.assertTrue((df["metrics.kvm_guest_exit"] == 1371).all())

    def test_per_vcpu_and_histogram(self):
        v = nestvp.vcpu_counters(FIX / "record.json")
        self.assertEqual(list(v.index), [0, 1, 2])
        self.assertEqual(v["l1.guest_exits"].sum(), 1371)
        self.assertEqual(v["l1.guest_exits"].dtype, "int64")
        h = nestvp.latency_histogram(FIX / "record.json", "l1_handling_latency_ns")
        self.assertEqual(list(h.columns), ["ns", "count", "cdf"])
        self.assertEqual(list(h.iloc[0][["ns", "count"]]), [1320.0, 403])
        self.assertTrue(h["ns"].is_monotonic_increasing)
        self.assertAlmostEqual(h["cdf"].iloc[-1], 1.0)
        rec = json.loads((FIX / "record.json").read_text())
        self.assertEqual([(x, round(y, 12)) for x, y in zip(h["ns"], h["cdf"])],
                         [(x, round(y, 12)) for x, y in nestvp.latency_cdf(rec, "l1_handling_latency_ns")])
        with self.assertRaisesRegex(KeyError, "no latency 'nope'.*wake_latency_ns"):
            nestvp.latency_histogram(rec, "nope")

    def test_bad_inputs_name_the_file(self):
        with self.assertRaises(FileNotFoundError):
            nestvp.load_record(os.path.join(self.tmp.name, "missing.json"))
        bad = self.write("bad.json", '{"metrics": {"kvm_guest_exit": 1},\n oops}')
        with self.assertRaisesRegex(nestvp.FormatError, r"bad\.json: not JSON: line 2"):
            nestvp.load_record(bad)
        other = self.write("other.json", '{"schema": "x"}')
        with self.assertRaisesRegex(nestvp.FormatError, r"other\.json: not a nestvp run record"):
            nestvp.load_record(other)


class LoadSweep(Temp):
    def test_real_sweep(self):
        df = nestvp.load_sweep(FIX / "sweep.csv")
        self.assertIsInstance(df, pd.DataFrame)
        self.assertEqual(df.attrs["grid"], ["l1.dec_policy", "l2.vcpus"])
        self.assertEqual(list(df["l1.dec_policy"]), ["no-cancel", "no-cancel", "cancel", "cancel"])
        self.assertEqual(list(df["kvm_guest_exit"]), [973, 1371, 589, 595])
        self.assertEqual(df["partial"].dtype, bool)
        self.assertEqual(df["kvm_guest_exit"].dtype, "int64")
        self.assertIn("exits_by_reason.0x980 HDEC", df.columns)
        self.assertIn("wake_latency_ns.p99", df.columns)

    def test_null_is_nan_and_text_settings_stay_text(self):
        path = self.write("s.csv", "l1.dec_policy,sim_seconds,sc_events,partial,kvm_guest_exit,"
                                   "wake_latency_ns.p99\nNA,0.1,5,false,3,null\nnone,0.1,5,true,4,7\n")
        df = nestvp.load_sweep(path)
        self.assertEqual(list(df["l1.dec_policy"]), ["NA", "none"])
        self.assertTrue(pd.isna(df["wake_latency_ns.p99"].iloc[0]))
        self.assertEqual(list(df["partial"]), [False, True])

    def test_bad_inputs_name_the_file(self):
        with self.assertRaises(FileNotFoundError):
            nestvp.load_sweep(os.path.join(self.tmp.name, "missing.csv"))
        empty = self.write("empty.csv", "")
        with self.assertRaisesRegex(nestvp.FormatError, r"empty\.csv: empty file"):
            nestvp.load_sweep(empty)
        other = self.write("other.csv", "a,b\n1,2\n")
        with self.assertRaisesRegex(nestvp.FormatError,
                                    r"other\.csv: not a nestvp sweep CSV: no column sim_seconds"):
            nestvp.load_sweep(other)
        with self.assertRaisesRegex(nestvp.FormatError, "uncertainty.csv: not a nestvp sweep CSV"):
            nestvp.load_sweep(FIX / "uncertainty.csv")


class LoadUncertainty(Temp):
    def test_json_summary(self):
        df = nestvp.load_uncertainty(FIX / "uncertainty.json")
        raw = json.loads((FIX / "uncertainty.json").read_text())
        self.assertEqual(df.attrs["kind"], "summary")
        self.assertEqual(df.attrs["samples"], 4)
        self.assertEqual(df.attrs["keys"], ["l1.costs.cede", "l2.costs.idle_exit"])
        self.assertEqual(len(df), len(raw["targets"]))
        first = df.iloc[0]
        self.assertEqual((first["target"], first["metric"], first["pair"], first["ratio"]),
                         ("kvm_guest_exit [no-cancel]", "kvm_guest_exit", "no-cancel", False))
        self.assertEqual(first["median"], raw["targets"][0]["median"])
        self.assertEqual(first["half.p95"], raw["targets"][0]["half"]["p95"])
        share = {s["key"]: s for s in raw["targets"][0]["shares"]}
        self.assertEqual(first["share.l2.costs.idle_exit"], share["l2.costs.idle_exit"]["share"])
        self.assertEqual(first["rho.l2.costs.idle_exit"], share["l2.costs.idle_exit"]["rho"])
        ratio = df[df["ratio"]].iloc[0]
        self.assertEqual((ratio["metric"], ratio["pair"]), ("kvm_guest_exit", "cancel/no-cancel"))

    def test_csv_summary_matches_json(self):
        c = nestvp.load_uncertainty(FIX / "uncertainty.csv")
        j = nestvp.load_uncertainty(FIX / "uncertainty.json")
        self.assertEqual(c.attrs["kind"], "summary")
        self.assertEqual(list(c.columns[:8]), ["target", "metric", "pair", "ratio", "n", "p5",
                                               "median", "p95"])
        self.assertEqual(list(c["target"]), list(j["target"]))
        self.assertEqual(list(c["metric"]), list(j["metric"]))
        for col in ("median", "share.l2.costs.idle_exit"):
            self.assertEqual([round(x, 9) for x in c[col]], [round(x, 9) for x in j[col]], col)

    def test_points(self):
        df = nestvp.load_uncertainty(FIX / "uncertainty-points.csv")
        self.assertEqual(df.attrs["kind"], "points")
        self.assertEqual(df.attrs["grid"], ["l1.costs.cede", "l2.costs.idle_exit", "l1.dec_policy"])
        self.assertEqual(len(df), 8)  # 4 samples x 2 policies
        self.assertEqual(sorted(set(df["l1.dec_policy"])), ["cancel", "no-cancel"])

    def test_bad_inputs_name_the_file(self):
        with self.assertRaises(FileNotFoundError):
            nestvp.load_uncertainty(os.path.join(self.tmp.name, "missing.json"))
        for name, text, problem in (
                ("a.json", '{"targets": 3}', r"a\.json: not an uncertainty --json summary"),
                ("b.json", '{"keys": [], "targets": [7]}', r"b\.json: targets\[0\]: expected"),
                ("c.csv", "x,y\n1,2\n", r"c\.csv: not an uncertainty output")):
            with self.assertRaisesRegex(nestvp.FormatError, problem):
                nestvp.load_uncertainty(self.write(name, text))


class LoadTraceStats(Temp):
    def fixture(self):
        return json.loads((FIX / "trace-stats.json").read_text())

    def test_frames(self):
        f = nestvp.load_trace_stats(FIX / "trace-stats.json")
        self.assertEqual(set(f), {"events", "exits_by_trap", "exits_by_vcpu", "exit_rate", "intervals",
                                  "hcalls_by_opcode", "malformed_lines"})
        self.assertEqual(len(f["hcalls_by_opcode"]), 0)  # sections the hand-written file lacks
        self.assertEqual(len(f["malformed_lines"]), 0)
        ev = f["events"]
        self.assertEqual(list(ev.columns), ["event", "count", "known"])
        self.assertEqual(list(ev["event"]), ["kvm_hv:kvm_guest_enter", "kvm_hv:kvm_guest_exit",
                                             "probe:kvmppc_gsb_recv", "sched:sched_switch"])
        self.assertEqual(list(ev["known"]), [True, True, True, False])
        self.assertEqual(ev.set_index("event").loc["kvm_hv:kvm_guest_exit", "count"], 10)
        self.assertEqual(dict(zip(f["exits_by_trap"]["trap"], f["exits_by_trap"]["exits"])),
                         {"HDEC": 3, "HV_DECREMENTER": 0, "SYSCALL": 7})
        self.assertEqual(list(f["exits_by_vcpu"].itertuples(index=False, name=None)), [(0, 6), (1, 4)])
        self.assertEqual(f["exits_by_vcpu"]["vcpu"].dtype, "int64")
        rate = f["exit_rate"]
        self.assertEqual([round(t, 9) for t in rate["t_s"]], [12.5, 12.501, 12.502, 12.503])
        self.assertEqual(list(rate["per_s"]), [4000.0, 3000.0, 2000.0, 1000.0])
        iv = f["intervals"]
        self.assertEqual(list(iv.columns), ["kind", "vcpu", "count", "min", "mean", "p50", "p90",
                                            "p99", "max"])
        self.assertEqual(list(zip(iv["kind"], iv["vcpu"])), [("enter_to_exit", 0), ("enter_to_exit", 1),
                                                             ("exit_to_enter", 0), ("exit_to_enter", 1)])
        self.assertEqual(iv.iloc[1]["max"], 1750.25)
        self.assertEqual(iv.iloc[2]["count"], 5)
        for df in f.values():
            self.assertEqual(df.attrs["source"]["format"], "perf-script")
            self.assertEqual(df.attrs["lines"]["malformed"], 1)
            self.assertEqual(df.attrs["bin_s"], 0.001)

    def test_real_output(self):
        # trace-stats --json of a 0.01 s perf-script with one line broken (fixtures/README.md).
        f = nestvp.load_trace_stats(FIX / "trace-stats-real.json")
        ev = f["events"].set_index("event")["count"]
        self.assertEqual((ev["kvm_hv:kvm_guest_exit"], ev["probe:kvmppc_gsb_recv"]), (114, 29))
        self.assertEqual(f["exits_by_vcpu"]["exits"].sum(), ev["kvm_hv:kvm_guest_exit"])
        self.assertEqual(f["exits_by_trap"]["exits"].sum(), ev["kvm_hv:kvm_guest_exit"])
        self.assertEqual(f["hcalls_by_opcode"].set_index("opcode").loc["0x480", "calls"], 115)
        self.assertEqual(f["hcalls_by_opcode"]["calls"].sum(), ev["powerpc:hcall_entry"])
        self.assertEqual(list(f["malformed_lines"]["line"]), [6])
        self.assertIn("not a perf script event line", f["malformed_lines"]["why"].iloc[0])
        self.assertEqual(f["events"].attrs["first_s"], 0)
        self.assertEqual(list(f["exit_rate"]["t_s"]), [0.0, 0.005])
        self.assertEqual(sorted(set(f["intervals"]["vcpu"])), [0, 1])

    def test_empty_sections(self):
        d = self.fixture()
        d.update(unknown_events={}, exits_by_trap={}, exit_rate={"bin_s": 1, "t0_s": 0, "per_s": []},
                 intervals_ns={"enter_to_exit": {}, "exit_to_enter": {}})
        f = nestvp.load_trace_stats(self.write("t.json", json.dumps(d)))
        self.assertEqual(len(f["events"]), 3)
        self.assertEqual(len(f["exits_by_trap"]), 0)
        self.assertEqual(len(f["exit_rate"]), 0)
        self.assertEqual(list(f["intervals"].columns)[:2], ["kind", "vcpu"])

    def test_bad_inputs_name_the_file_and_problem(self):
        with self.assertRaises(FileNotFoundError):
            nestvp.load_trace_stats(os.path.join(self.tmp.name, "missing.json"))
        cases = [
            (lambda d: d.update(schema="nestvp-trace-stats/2"),
             r'schema is "nestvp-trace-stats/2", this reader knows .nestvp-trace-stats/1'),
            (lambda d: d.pop("schema"), r"schema is null"),
            (lambda d: d.pop("events"), r"no events \(an object of counts\)"),
            (lambda d: d["exits_by_trap"].update(HDEC=-1), r"exits_by_trap\.HDEC: expected a count"),
            (lambda d: d["exits_by_vcpu"].update(x=1), r"exits_by_vcpu: vCPU 'x' is not a number"),
            (lambda d: d["exit_rate"].pop("t0_s"), r"no t0_s"),
            (lambda d: d["exit_rate"]["per_s"].append("fast"), r"exit_rate\.per_s\[4\]: expected a rate"),
            (lambda d: d["intervals_ns"].pop("exit_to_enter"), r"no exit_to_enter"),
            (lambda d: d["intervals_ns"]["enter_to_exit"]["0"].pop("p99"),
             r"intervals_ns\.enter_to_exit\.0: no p99"),
            (lambda d: d.update(span_s="long"), r"span_s: expected a number of seconds"),
            (lambda d: d.update(malformed_lines=[{"why": "x"}]), r"malformed_lines\[0\]: expected"),
            (lambda d: d.update(hcalls_by_opcode={"0x480": "many"}),
             r"hcalls_by_opcode\.0x480: expected a count"),
        ]
        for i, (change, problem) in enumerate(cases):
            d = self.fixture()
            change(d)
            path = self.write(f"t{i}.json", json.dumps(d))
            with self.subTest(problem=problem):
                with self.assertRaisesRegex(nestvp.FormatError, rf"t{i}\.json: {problem}"):
                    nestvp.load_trace_stats(path)
        with self.assertRaisesRegex(nestvp.FormatError, r"list\.json: not a trace-stats JSON"):
            nestvp.load_trace_stats(self.write("list.json", "[]"))


if __name__ == "__main__":
    unittest.main()
