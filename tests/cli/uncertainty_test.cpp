// Latin hypercube sampling and the uncertainty statistics (platforms/analysis/latin_hypercube.h,
// uncertainty.h).
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "platforms/analysis/latin_hypercube.h"
#include "platforms/analysis/uncertainty.h"
#include "platforms/config/platform_loader.h"

namespace nestvp {
namespace {

// The target called `name` in a report (a failure, and the first target, if there is none).
const uncertainty_target& target_named(const uncertainty_report& rep, const std::string& name) {
    for (const auto& t : rep.targets)
        if (t.name == name) return t;
    ADD_FAILURE() << "no target " << name;
    return rep.targets.front();
}

double value_of(const std::string& kv) {
    return std::stod(kv.substr(kv.find('=') + 1));
}

// Each key uses each of the n strata exactly once; integers stay whole and inside the range.
TEST(LatinHypercube, EveryStratumOncePerKey) {
    const std::vector<sampled_param> ps = {{"a", 0, 1, false}, {"b", 10, 20, true}};
    const unsigned n = 10;
    const auto s = latin_hypercube(ps, n, 42);
    ASSERT_EQ(s.size(), n);
    for (size_t k = 0; k < ps.size(); ++k) {
        std::set<unsigned> strata;
        for (const auto& sample : s) {
            ASSERT_EQ(sample.size(), ps.size());
            EXPECT_EQ(sample[k].rfind(ps[k].key + "=", 0), 0u);
            const double v = value_of(sample[k]);
            EXPECT_GE(v, ps[k].lo);
            EXPECT_LE(v, ps[k].hi);
            if (!ps[k].integer)
                strata.insert(static_cast<unsigned>((v - ps[k].lo) / (ps[k].hi - ps[k].lo) * n));
            else
                EXPECT_EQ(v, static_cast<double>(static_cast<long>(v)));
        }
        if (!ps[k].integer) {
            EXPECT_EQ(strata.size(), n);
        }
    }
    EXPECT_EQ(latin_hypercube(ps, n, 42), s);
    EXPECT_NE(latin_hypercube(ps, n, 43), s);
}

// Two hypercubes: each is a Latin hypercube of its own (every stratum once per key), the first
// is the single hypercube of the same seed, the second another.
TEST(LatinHypercube, TwoIndependentHypercubes) {
    const std::vector<sampled_param> ps = {{"a", 0, 1, false}, {"b", 0, 1, false}};
    const unsigned n = 8;
    const auto s = latin_hypercubes(ps, n, 2, 7);
    ASSERT_EQ(s.size(), 2 * n);
    EXPECT_EQ(std::vector<std::vector<std::string>>(s.begin(), s.begin() + n),
              latin_hypercube(ps, n, 7));
    EXPECT_NE(std::vector<std::vector<std::string>>(s.begin(), s.begin() + n),
              std::vector<std::vector<std::string>>(s.begin() + n, s.end()));
    for (unsigned c = 0; c < 2; ++c)
        for (size_t k = 0; k < ps.size(); ++k) {
            std::set<unsigned> strata;
            for (unsigned i = c * n; i < (c + 1) * n; ++i)
                strata.insert(static_cast<unsigned>(value_of(s[i][k]) * n));
            EXPECT_EQ(strata.size(), n) << "cube " << c << " key " << ps[k].key;
        }
}

// The reference file's assumed numbers with ranges are the axes; sourced and calibrated values
// are not.
TEST(LatinHypercube, AssumedRangesOfTheReference) {
    const platform_config c = load_platform(NESTVP_SOURCE_DIR "/platforms/reference.yaml");
    std::set<std::string> keys;
    for (const auto& p : assumed_ranges(c)) {
        keys.insert(p.key);
        EXPECT_LT(p.lo, p.hi) << p.key;
    }
    EXPECT_TRUE(keys.count("l2.vcpus"));
    EXPECT_TRUE(keys.count("machine.core.smt_low_priority_share"));
    EXPECT_TRUE(keys.count("l0.costs.partition_switch"));
    EXPECT_FALSE(keys.count("l2.housekeeping_hz"));           // calibrated
    EXPECT_FALSE(keys.count("l0.costs.hcall_entry"));         // sourced
    EXPECT_FALSE(keys.count("l2.cede_target_residency_us"));  // sourced
}

TEST(UncertaintyStats, QuantilesRanksAndRankCorrelation) {
    EXPECT_DOUBLE_EQ(quantile({3, 1, 2, 4, 5}, 0.5), 3);
    EXPECT_DOUBLE_EQ(quantile({1, 2}, 0.5), 1.5);
    EXPECT_DOUBLE_EQ(quantile({0, 10}, 0.05), 0.5);
    EXPECT_EQ(ranks({10, 30, 20, 20}), (std::vector<double>{1, 4, 2.5, 2.5}));
    EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {1, 8, 27, 64}), 1.0);  // monotone, not linear
    EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {4, 3, 2, 1}), -1.0);
    EXPECT_DOUBLE_EQ(spearman({1, 2, 3}, {5, 5, 5}), 0.0);
}

// The bootstrap standard error of a quantile: none without spread, the same for the same
// values, and near the textbook value for a uniform sample (sqrt(q(1-q)/n) / density: 5 for
// the median of 0..99), halving with four times the values.
TEST(UncertaintyStats, BootstrapStandardErrorOfAQuantile) {
    EXPECT_EQ(bootstrap_se({4, 4, 4, 4}, {0.05, 0.95}), (std::vector<double>{0, 0}));
    EXPECT_EQ(bootstrap_se({1}, {0.5}), (std::vector<double>{0}));
    std::vector<double> xs, many;
    for (int i = 0; i < 100; ++i) xs.push_back(i);
    for (int i = 0; i < 400; ++i) many.push_back(i / 4.0);
    const double se = bootstrap_se(xs, {0.5})[0];
    EXPECT_EQ(bootstrap_se(xs, {0.5})[0], se);
    EXPECT_GT(se, 3.5);
    EXPECT_LT(se, 6.5);
    const double se_many = bootstrap_se(many, {0.5})[0];
    EXPECT_GT(se_many, 0.35 * se);
    EXPECT_LT(se_many, 0.65 * se);
    // A tail point of a sample with one far value: its error is that value's reach.
    std::vector<double> tail(40, 1.0);
    tail.back() = 100;
    EXPECT_GT(bootstrap_se(tail, {0.95})[0], 10);
    EXPECT_EQ(bootstrap_se(tail, {0.05})[0], 0);
}

// A plan whose exits follow one input: that input takes nearly all the variance, with the
// sign of the effect; the ratio target is the last paired value over the first.
TEST(UncertaintyStats, TheInputThatDrivesTheOutputTakesTheShare) {
    const std::vector<sampled_param> ps = {{"x", 0, 1, false}, {"y", 0, 1, false}};
    const unsigned n = 40;
    const auto samples = latin_hypercube(ps, n, 1);
    const sweep_plan plan =
        make_sample_plan("/p.yaml", {}, {"x", "y"}, samples, {"pol", {"a", "b"}}, 1);
    ASSERT_EQ(plan.points.size(), 2u * n);
    std::vector<std::optional<run_record>> pts(plan.points.size());
    for (unsigned s = 0; s < n; ++s) {
        const double x = value_of(samples[s][0]);
        for (unsigned p = 0; p < 2; ++p) {
            run_record r;
            r.result.metrics.kvm_guest_exit = static_cast<uint64_t>(1000 - 500 * x) * (p + 1);
            r.result.metrics.arithoh_count = 100;
            pts[s * 2 + p] = r;
        }
    }
    const uncertainty_report rep = analyse_samples(plan, pts);
    EXPECT_EQ(rep.samples_complete, n);
    const uncertainty_target* exits = nullptr;
    const uncertainty_target* ratio = nullptr;
    for (const auto& t : rep.targets) {
        if (t.name == "kvm_guest_exit [a]") exits = &t;
        if (t.name == "ratio kvm_guest_exit b/a") ratio = &t;
    }
    ASSERT_TRUE(exits && ratio);
    EXPECT_EQ(exits->shares.front().key, "x");
    EXPECT_GT(exits->shares.front().share, 0.9);
    EXPECT_LT(exits->shares.front().rho, -0.99);
    EXPECT_NEAR(ratio->median, 2.0, 0.01);
    EXPECT_GT(exits->p95, exits->median);
    EXPECT_LT(exits->p5, exits->median);
    // A missing run drops its sample from the targets that need it.
    pts[3].reset();
    EXPECT_EQ(analyse_samples(plan, pts).samples_complete, n - 1);
}

// Short runs: counts are scaled, latencies and ratios are not. Every bound is also taken from
// the first half of the samples (the first hypercube), with its bootstrap standard error.
TEST(UncertaintyStats, ScaledCountsAndTheFirstHalfsBounds) {
    const unsigned n = 20;
    const auto samples = latin_hypercubes({{"x", 0, 1, false}}, n / 2, 2, 3);
    sweep_plan plan = make_sample_plan("/p.yaml", {}, {"x"}, samples, {"pol", {"a", "b"}}, 3);
    plan.hypercubes = 2;
    plan.run_seconds = 1;
    plan.count_scale = 10;
    std::vector<std::optional<run_record>> pts(plan.points.size());
    std::vector<double> first_half_exits;
    for (unsigned s = 0; s < n; ++s) {
        const double x = value_of(samples[s][0]);
        for (unsigned p = 0; p < 2; ++p) {
            run_record r;
            r.result.sim_seconds = 1;
            r.result.metrics.kvm_guest_exit = static_cast<uint64_t>(1000 + 1000 * x) * (p + 1);
            r.result.metrics.arithoh_count = 100;
            r.result.metrics.latencies["wake_latency_ns"].all = {5, 1000, 1000, 1000, 1000, 1000};
            pts[s * 2 + p] = r;
            if (p == 0 && s < n / 2)
                first_half_exits.push_back(10.0 * double(r.result.metrics.kvm_guest_exit));
        }
    }
    const uncertainty_report rep = analyse_samples(plan, pts);
    EXPECT_EQ(rep.half_samples, n / 2);
    EXPECT_EQ(rep.count_scale, 10);
    EXPECT_EQ(rep.sim_seconds, 1);
    const auto target = [&](const std::string& name) -> const uncertainty_target& {
        return target_named(rep, name);
    };
    const uncertainty_target& exits = target("kvm_guest_exit [a]");
    EXPECT_GE(exits.p5, 10000);  // scaled x10
    EXPECT_LE(exits.p95, 20000);
    EXPECT_EQ(exits.half.n, n / 2);
    EXPECT_DOUBLE_EQ(exits.half.p5, quantile(first_half_exits, 0.05));
    EXPECT_DOUBLE_EQ(exits.half.p95, quantile(first_half_exits, 0.95));
    EXPECT_GT(exits.p5_se, 0);
    EXPECT_GT(exits.half.p95_se, 0);
    EXPECT_DOUBLE_EQ(target("wake_latency_ns.p50 [a]").median, 1000);  // not scaled
    EXPECT_NEAR(target("ratio kvm_guest_exit b/a").median, 2.0, 0.01);
    const json j = uncertainty_json(rep);
    EXPECT_EQ(j["hypercubes"], 2);
    EXPECT_EQ(j["half_samples"], n / 2);
    EXPECT_EQ(j["sim_seconds"], 1);
    EXPECT_EQ(j["count_scale"], 10);
    EXPECT_EQ(j["counts_scaled_to_s"], 10);
    EXPECT_EQ(j["targets"][0]["half"]["n"], n / 2);
    EXPECT_TRUE(j["targets"][0].contains("p5_se"));
    EXPECT_NE(uncertainty_text(rep).find("runs of 1 s simulated; counts scaled x10 to 10 s"),
              std::string::npos);
}

// Run-to-run noise: replicates at the platform's values, full length, each with its own seed,
// then the platform's own point as the samples run it. Each sample's value becomes one run's:
// plus replicate (i mod K)'s step from that point (a ratio: times its factor), which also
// removes a short run's offset. Shares stay those of the samples alone.
TEST(UncertaintyStats, RunNoiseGivesOneRunsIntervalFromThePlatformsPoint) {
    const unsigned n = 40, k = 4;
    const auto samples = latin_hypercubes({{"x", 0, 1, false}}, n / 2, 2, 9);
    sweep_plan plan =
        make_sample_plan("/p.yaml", {"run.duration_s=1"}, {"x"}, samples, {"pol", {"a", "b"}}, 9);
    plan.hypercubes = 2;
    plan.count_scale = 10;
    add_noise_replicates(plan, k, 1, 10);
    ASSERT_EQ(plan.replicates, k);
    ASSERT_EQ(plan.points.size(), 2u * (n + k + 1));
    EXPECT_EQ(plan.points[2 * n],
              (std::vector<std::string>{"run.duration_s=10", "run.seed=2", "pol=a"}));
    EXPECT_EQ(plan.points[2 * n + 1].at(1), "run.seed=3");  // no two runs share a seed
    EXPECT_EQ(plan.points[2 * (n + k)], (std::vector<std::string>{"pol=a"}));
    EXPECT_EQ(plan.point_sets(2 * (n + k)).front(), "run.duration_s=1");
    const auto record = [](uint64_t exits, uint64_t gets) {
        run_record r;
        r.result.metrics.kvm_guest_exit = exits;
        r.result.metrics.gsb_recv = gets;
        r.result.metrics.arithoh_count = 100;
        return std::optional<run_record>(r);
    };
    // Samples (1 s, scaled x10): exits 1000 + 100 x under a, twice that under b. The
    // platform's point at 1 s: 1000 (10,000 scaled), 10 % short of its 10 s replicates, which
    // scatter by -30, -10, +10, +30 around 11,000 (b: 22,000, ratios around 2).
    std::vector<std::optional<run_record>> pts(plan.points.size());
    for (unsigned s = 0; s < n; ++s) {
        const auto x = static_cast<uint64_t>(100 * value_of(samples[s][0]));
        pts[2 * s] = record(1000 + x, 500);
        pts[2 * s + 1] = record(2 * (1000 + x), 500);
    }
    const int step[k] = {-30, -10, 10, 30};
    for (unsigned r = 0; r < k; ++r) {
        pts[2 * (n + r)] = record(11000 + step[r], 5000 + step[r]);
        pts[2 * (n + r) + 1] = record(22000, 5000);
    }
    pts[2 * (n + k)] = record(1000, 500);
    pts[2 * (n + k) + 1] = record(2000, 500);
    const uncertainty_report rep = analyse_samples(plan, pts);
    const auto target = [&](const std::string& name) -> const uncertainty_target& {
        return target_named(rep, name);
    };
    const uncertainty_target& exits = target("kvm_guest_exit [a]");
    // Without noise the samples span 10,000 .. 11,000; one run's values sit 1,000 higher
    // (the short runs' offset) and 30 wider.
    EXPECT_GT(exits.p5, 11000 - 30);
    EXPECT_LT(exits.p5, 11000 + 100);
    EXPECT_GT(exits.p95, 11900);
    EXPECT_LE(exits.p95, 12000 + 30);
    EXPECT_EQ(exits.noise_n, k);
    EXPECT_NEAR(exits.noise_sd, std::sqrt((900 + 100 + 100 + 900) / 3.0), 1e-9);
    EXPECT_EQ(exits.shares.front().key, "x");
    EXPECT_GT(exits.shares.front().rho, 0.99);  // from the samples alone
    // GET_STATE: every sample alike, so the interval is the replicates' scatter alone.
    const uncertainty_target& gets = target("gsb_recv [a]");
    EXPECT_GE(gets.p5, 5000 - 30);
    EXPECT_LT(gets.p5, 5000 - 10);
    EXPECT_GT(gets.p95, 5000 + 10);
    // Ratios: b/a factors 22000 / (11000 + step) over the platform's point's 2.
    const uncertainty_target& ratio = target("ratio kvm_guest_exit b/a");
    EXPECT_LT(ratio.p5, 2.0);
    EXPECT_GT(ratio.p95, 2.0);
    EXPECT_NEAR(ratio.median, 2.0, 0.01);
    EXPECT_GT(ratio.noise_sd, 0);
    const json j = uncertainty_json(rep);
    EXPECT_EQ(j["replicates"], k);
    EXPECT_EQ(j["targets"][0]["noise_n"], k);
    EXPECT_NE(uncertainty_text(rep).find("run-to-run noise of 4 replicates"), std::string::npos);
    // Without replicates nothing is added: the same samples give the samples' own interval.
    sweep_plan bare = plan;
    bare.replicates = 0;
    bare.points.resize(2 * n);
    std::vector<std::optional<run_record>> bare_pts(pts.begin(), pts.begin() + 2 * n);
    for (const auto& t : analyse_samples(bare, bare_pts).targets)
        if (t.name == "kvm_guest_exit [a]") {
            EXPECT_LE(t.p95, 11000);
            EXPECT_EQ(t.noise_n, 0u);
        }
    // The manifest keeps the replicates; a count that does not match the points is named.
    const sweep_plan back = parse_sweep_manifest(sweep_manifest_json(plan), "sweep.json");
    EXPECT_EQ(back.replicates, k);
    EXPECT_EQ(back.points, plan.points);
    json bad = parse_json(sweep_manifest_json(plan), "sweep.json");
    bad["sampled"]["replicates"] = k + 1;
    try {
        parse_sweep_manifest(json_text(bad), "sweep.json");
        ADD_FAILURE() << "replicates that do not match the points were accepted";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("replicates"), std::string::npos) << e.what();
    }
}

// A sampled plan round-trips through its manifest (what merge reads).
TEST(UncertaintyStats, SampledManifestRoundTrips) {
    const auto samples = latin_hypercubes({{"l2.vcpus", 2, 16, true}}, 2, 2, 5);
    sweep_plan plan = make_sample_plan("/p.yaml", {"run.duration_s=1"}, {"l2.vcpus"}, samples,
                                       {"l1.dec_policy", {"no-cancel", "cancel"}}, 5);
    plan.hypercubes = 2;
    plan.run_seconds = 1;
    plan.count_scale = 10;
    const std::string text = sweep_manifest_json(plan);
    const sweep_plan back = parse_sweep_manifest(text, "sweep.json");
    EXPECT_TRUE(back.sampled);
    EXPECT_EQ(back.samples, 4u);
    EXPECT_EQ(back.hypercubes, 2u);
    EXPECT_EQ(back.run_seconds, 1);
    EXPECT_EQ(back.count_scale, 10);
    EXPECT_EQ(back.points, plan.points);
    EXPECT_EQ(back.point_sets(1), plan.point_sets(1));
    EXPECT_EQ(back.grid_keys(), plan.grid_keys());
    // A manifest from before the two hypercubes: one, not scaled.
    json old = parse_json(text, "sweep.json");
    for (const char* k : {"hypercubes", "run_seconds", "count_scale"}) old["sampled"].erase(k);
    const sweep_plan one = parse_sweep_manifest(json_text(old), "sweep.json");
    EXPECT_EQ(one.hypercubes, 1u);
    EXPECT_EQ(one.count_scale, 1);
    // Values that cannot be: named.
    for (const auto& [key, bad] : std::vector<std::pair<std::string, json>>{
             {"hypercubes", 3}, {"hypercubes", 0}, {"count_scale", 0}, {"run_seconds", -1}}) {
        json j = parse_json(text, "sweep.json");
        j["sampled"][key] = bad;
        try {
            parse_sweep_manifest(json_text(j), "sweep.json");
            ADD_FAILURE() << key << " " << bad.dump() << " accepted";
        } catch (const std::runtime_error& e) {
            EXPECT_NE(std::string(e.what()).find("sampled." + key), std::string::npos) << e.what();
        }
    }
}

}  // namespace
}  // namespace nestvp
