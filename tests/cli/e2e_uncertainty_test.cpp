// End-to-end: nestvp uncertainty, locally and through --emit-jobs + GNU parallel + merge.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "cli_test_util.h"
#include "platforms/records/json.h"

namespace nestvp {
namespace {

using test::nestvp;
using test::run_cmd;

const std::string k_ref = std::string(NESTVP_SOURCE_DIR) + "/platforms/reference.yaml";

std::vector<std::string> unc_args(std::vector<std::string> extra) {
    std::vector<std::string> a = {"uncertainty",        k_ref,    "--samples", "4", "--set",
                                  "run.duration_s=0.1", "--quiet"};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
}

// The same seed gives the same samples and intervals; another seed other samples. The summary
// has a row per metric and policy and the three reference ratios, every share in [0, 1].
TEST(CliE2E, UncertaintyIsReproducibleForAFixedSeed) {
    const std::string d = test::fresh_dir("e2e-uncertainty");
    const auto a = run_cmd(nestvp(unc_args({"-j", "2", "--csv", d + "/a.csv", "--json",
                                            d + "/a.json", "--plot", d + "/plots"})),
                           d);
    ASSERT_EQ(a.code, 0) << a.err;
    EXPECT_NE(a.out.find("samples: 4 of 4 complete"), std::string::npos) << a.out;
    const auto b = run_cmd(nestvp(unc_args({"-j", "1", "--csv", d + "/b.csv"})), d);
    ASSERT_EQ(b.code, 0) << b.err;
    EXPECT_EQ(test::slurp(d + "/a.csv"), test::slurp(d + "/b.csv"));
    const auto c = run_cmd(nestvp(unc_args({"--seed", "7", "--csv", d + "/c.csv"})), d);
    ASSERT_EQ(c.code, 0) << c.err;
    EXPECT_NE(test::slurp(d + "/a.csv"), test::slurp(d + "/c.csv"));
    const json j = parse_json(test::slurp(d + "/a.json"), "a.json");
    EXPECT_EQ(j["samples"], 4);
    bool exit_ratio = false;
    for (const auto& t : j["targets"]) {
        if (t["target"] == "ratio kvm_guest_exit cancel/no-cancel") exit_ratio = true;
        EXPECT_LE(t["p5"].get<double>(), t["median"].get<double>()) << t["target"];
        EXPECT_LE(t["median"].get<double>(), t["p95"].get<double>()) << t["target"];
        double sum = 0;
        for (const auto& s : t["shares"]) sum += s["share"].get<double>();
        // 1, or 0 for an output with no spread (h_enter_nested under v2)
        EXPECT_TRUE(std::abs(sum - 1.0) < 1e-9 || sum == 0.0) << t["target"] << " " << sum;
    }
    EXPECT_TRUE(exit_ratio);
    // The sampled keys are the file's assumed ranges (l2.vcpus among them, not the calibrated
    // housekeeping rate).
    const auto& keys = j["keys"];
    EXPECT_NE(std::find(keys.begin(), keys.end(), "l2.vcpus"), keys.end());
    EXPECT_EQ(std::find(keys.begin(), keys.end(), "l2.housekeeping_hz"), keys.end());
    std::string why;
    EXPECT_TRUE(
        test::xml_well_formed(d + "/plots/tornado-ratio_kvm_guest_exit_cancel_no-cancel.svg", why))
        << why;
}

TEST(CliE2E, UncertaintyEmitJobsMergeEqualsLocal) {
    const std::string d = test::fresh_dir("e2e-uncertainty-jobs");
    const auto local = run_cmd(nestvp(unc_args({"--csv", d + "/local.csv"})), d);
    ASSERT_EQ(local.code, 0) << local.err;
    const auto emit = run_cmd(nestvp(unc_args({"--emit-jobs", d + "/jobs"})), d);
    ASSERT_EQ(emit.code, 0) << emit.err;
    EXPECT_NE(emit.out.find("wrote 8 jobs"), std::string::npos) << emit.out;  // 4 x 2 policies
    const int rc = std::system(("cd / && parallel --will-cite --shuf -j 2 < '" + d +
                                "/jobs/jobs.txt' > '" + d + "/parallel.log' 2>&1")
                                   .c_str());
    ASSERT_EQ(rc, 0) << test::slurp(d + "/parallel.log");
    const auto merged = run_cmd(nestvp({"merge", d + "/jobs", "--csv", d + "/merged.csv"}), d);
    ASSERT_EQ(merged.code, 0) << merged.err;
    EXPECT_EQ(test::slurp(d + "/merged.csv"), test::slurp(d + "/local.csv"));
    EXPECT_NE(merged.out.find("samples: 4 of 4"), std::string::npos) << merged.out;
    // A point that a signal stopped is named and left out of the analysis: its sample is not
    // complete any more.
    const std::string p0 = d + "/jobs/point-0000.json";
    ASSERT_TRUE(test::mark_partial(p0));
    const auto stopped = run_cmd(nestvp({"merge", d + "/jobs"}), d);
    EXPECT_EQ(stopped.code, 1);
    EXPECT_NE(stopped.err.find(p0 + ": partial: the run was stopped at "), std::string::npos)
        << stopped.err;
    EXPECT_NE(stopped.err.find("left out of the analysis"), std::string::npos) << stopped.err;
    EXPECT_NE(stopped.out.find("samples: 3 of 4"), std::string::npos) << stopped.out;
}

// The runs an `--emit-jobs` left in DIR/jobs, run with GNU parallel, then `nestvp merge`:
// its JSON must be the local run's, `want`.
void expect_merge_of_emitted_jobs_equals(const std::string& d, const std::string& want) {
    const int rc = std::system(("cd / && parallel --will-cite -j 2 < '" + d +
                                "/jobs/jobs.txt' > '" + d + "/parallel.log' 2>&1")
                                   .c_str());
    ASSERT_EQ(rc, 0) << test::slurp(d + "/parallel.log");
    const auto merged = run_cmd(nestvp({"merge", d + "/jobs", "--json", d + "/merged.json"}), d);
    ASSERT_EQ(merged.code, 0) << merged.err;
    EXPECT_EQ(test::slurp(d + "/merged.json"), test::slurp(want));
}

// --short-runs: each run simulates the short time and every count is scaled to the platform's
// run.duration_s, and the summary says so: the same samples run at 0.05 s without scaling
// give a quarter of the counts, the same latencies and the same ratios. Through --emit-jobs and
// merge the same.
TEST(CliE2E, UncertaintyShortRunsScaleCounts) {
    const std::string d = test::fresh_dir("e2e-uncertainty-short");
    const auto args = [&](std::vector<std::string> extra) {
        std::vector<std::string> a = {"uncertainty", k_ref,      "--samples", "4",
                                      "--only",      "l2.vcpus", "--quiet"};
        a.insert(a.end(), extra.begin(), extra.end());
        return nestvp(a);
    };
    const std::vector<std::string> shortened = {"--set", "run.duration_s=0.2", "--short-runs",
                                                "0.05"};
    auto with = shortened;
    with.insert(with.end(), {"--json", d + "/short.json"});
    const auto r = run_cmd(args(with), d);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("runs of 0.05 s simulated; counts scaled x4 to 0.2 s"), std::string::npos)
        << r.out;
    const auto plain =
        run_cmd(args({"--set", "run.duration_s=0.05", "--json", d + "/plain.json"}), d);
    ASSERT_EQ(plain.code, 0) << plain.err;
    const json s = parse_json(test::slurp(d + "/short.json"), "short.json");
    const json p = parse_json(test::slurp(d + "/plain.json"), "plain.json");
    EXPECT_EQ(s["sim_seconds"], 0.05);
    EXPECT_EQ(s["count_scale"], 4);
    EXPECT_EQ(s["counts_scaled_to_s"], 0.2);
    EXPECT_EQ(p["count_scale"], 1);
    EXPECT_EQ(p["counts_scaled_to_s"], 0.05);
    EXPECT_EQ(s["hypercubes"], 2);
    ASSERT_EQ(s["targets"].size(), p["targets"].size());
    size_t counts = 0;
    for (size_t i = 0; i < s["targets"].size(); ++i) {
        const json &ts = s["targets"][i], &tp = p["targets"][i];
        const std::string name = ts["target"];
        ASSERT_EQ(name, tp["target"].get<std::string>());
        const bool count = name.find('.') == std::string::npos && name.rfind("ratio", 0) != 0;
        counts += count;
        for (const char* k : {"p5", "median", "p95"}) {
            const double want = tp[k].get<double>() * (count ? 4 : 1);
            EXPECT_NEAR(ts[k].get<double>(), want, 1e-9 * std::abs(want)) << name << " " << k;
        }
        EXPECT_EQ(ts["half"]["n"], 2) << name;
    }
    EXPECT_EQ(counts, 12u);  // six counts under two policies
    auto emit = shortened;
    emit.insert(emit.end(), {"--emit-jobs", d + "/jobs"});
    const auto e = run_cmd(args(emit), d);
    ASSERT_EQ(e.code, 0) << e.err;
    expect_merge_of_emitted_jobs_equals(d, d + "/short.json");
}

// --run-noise K: K replicates per policy at the platform's values, full length (0.2 s here),
// each with its own seed, then the platform's own point at the short length; the summary says
// so and every count target carries the replicates' scatter. Through --emit-jobs and merge the
// same.
TEST(CliE2E, UncertaintyRunNoiseReplicates) {
    const std::string d = test::fresh_dir("e2e-uncertainty-noise");
    const auto args = [&](std::vector<std::string> extra) {
        std::vector<std::string> a = {"uncertainty",
                                      k_ref,
                                      "--samples",
                                      "4",
                                      "--only",
                                      "l2.vcpus",
                                      "--quiet",
                                      "--set",
                                      "run.duration_s=0.2",
                                      "--short-runs",
                                      "0.05",
                                      "--run-noise",
                                      "2"};
        a.insert(a.end(), extra.begin(), extra.end());
        return nestvp(a);
    };
    const auto r = run_cmd(args({"--json", d + "/noise.json"}), d);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("run-to-run noise of 2 replicates of 0.2 s"), std::string::npos) << r.out;
    const json j = parse_json(test::slurp(d + "/noise.json"), "noise.json");
    EXPECT_EQ(j["replicates"], 2);
    EXPECT_EQ(j["replicate_seconds"], 0.2);
    bool exits = false;
    for (const auto& t : j["targets"])
        if (t["target"] == "kvm_guest_exit [no-cancel]") {
            exits = true;
            EXPECT_EQ(t["noise_n"], 2);
            EXPECT_GT(t["noise_sd"].get<double>(), 0);  // two seeds, two exit counts
        }
    EXPECT_TRUE(exits);
    const auto e = run_cmd(args({"--emit-jobs", d + "/jobs"}), d);
    ASSERT_EQ(e.code, 0) << e.err;
    expect_merge_of_emitted_jobs_equals(d, d + "/noise.json");
}

TEST(CliE2E, UncertaintyBadArgumentsExit2) {
    const std::string d = test::fresh_dir("e2e-uncertainty-bad");
    // Each line: the options after `uncertainty FILE`, and what the message says.
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        // Two hypercubes of N/2 each.
        {{"--samples", "2"}, "--samples: expected an even number of at least 4"},
        {{"--samples", "5"},
         "--samples: expected an even number of at least 4 (two Latin hypercubes of N/2), got '5'"},
        // Short runs are shorter than the platform's run, and a run length.
        {{"--short-runs", "20"},
         "--short-runs 20: longer than run.duration_s (10); runs are shortened, never lengthened"},
        {{"--short-runs", "x"}, "--short-runs: expected a time in seconds"},
        {{"--short-runs", "0"}, "--short-runs 0: run.duration_s: expected "},
        {{"--run-noise", "x"}, "--run-noise: expected 0 (none) or a whole number of replicates"},
        {{"--only", "l2.housekeeping_hz"}, "--only l2.housekeeping_hz: not an assumed number"},
        {{"--emit-jobs", d + "/j", "--csv", d + "/x.csv"}, "with --emit-jobs"},
        // A negative seed is not wrapped to 2^64 - 1; a pair needs two values, each given once.
        {{"--seed", "-1"}, "--seed: expected a whole number, got '-1'"},
        {{"--pair", "l1.dec_policy=cancel"}, "--pair l1.dec_policy: expected two or more values"},
        {{"--pair", "l1.dec_policy=cancel,cancel"},
         "--pair l1.dec_policy: value 'cancel' listed twice"}};
    for (const auto& [options, says] : cases) {
        std::vector<std::string> args = {"uncertainty", k_ref};
        args.insert(args.end(), options.begin(), options.end());
        const auto r = run_cmd(nestvp(args), d);
        EXPECT_EQ(r.code, 2) << options[0];
        EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    }
}

}  // namespace
}  // namespace nestvp

namespace nestvp {
namespace {

// A small decision map end to end: one CSV row per cell, three heatmaps.
TEST(CliE2E, PolicyMapWritesCellsAndHeatmaps) {
    const std::string d = test::fresh_dir("e2e-policy-map");
    const auto r =
        run_cmd(nestvp({"policy-map", k_ref, "--duration", "0.05", "--get-state", "1500",
                        "--run-output", "powervm", "--idle-vcpus", "1,3", "--wake-hz", "1000,3000",
                        "--csv", d + "/map.csv", "--plot", d + "/plots", "--quiet"}),
                d);
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string csv = test::slurp(d + "/map.csv");
    EXPECT_EQ(test::count_of(csv, "\n"), 5u);  // header + 2 x 2 cells
    EXPECT_NE(csv.find("best_throughput"), std::string::npos);
    for (const char* c : {"throughput", "timer_p99", "exits"}) {
        std::string why;
        EXPECT_TRUE(test::xml_well_formed(d + "/plots/policy-map-" + std::string(c) + ".svg", why))
            << why;
    }
    const auto bad = run_cmd(nestvp({"policy-map", k_ref, "--idle-vcpus", "0"}), d);
    EXPECT_EQ(bad.code, 2);
    const auto zero = run_cmd(nestvp({"policy-map", k_ref, "--duration", "0"}), d);
    EXPECT_EQ(zero.code, 2);
    EXPECT_EQ(zero.err.rfind("nestvp policy-map: --duration 0: run.duration_s: expected ", 0), 0u)
        << zero.err;
}

}  // namespace
}  // namespace nestvp
