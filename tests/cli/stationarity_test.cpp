// Slow (ctest label "slow", about 10 s on two cores): are the reference platform's per-second
// rates and latency quantiles stationary, 1 s against 10 s, under both DEC policies of
// platforms/reference.yaml? `make run` samples a row with short runs, counts scaled to 10 s
// (nestvp uncertainty --short-runs), only if every metric of that row is stationary within 2 %
// here (docs/cmd-uncertainty.md, "Short runs"). The others run the full 10 s.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <set>

#include "cli_test_util.h"
#include "platforms/records/json.h"
#include "platforms/records/run_record.h"
#include "platforms/report/tables.h"

namespace nestvp {
namespace {

using test::nestvp;
using test::run_cmd;

const std::string k_ref = std::string(NESTVP_SOURCE_DIR) + "/platforms/reference.yaml";
constexpr double k_tolerance = 0.02;

// The metrics of the rows scripts/reference_bands.py takes from short runs (SHORT_RUN_METRICS
// there): both policies' exits, arithoh and GET_STATE, so also their ratios.
const std::set<std::string> k_shortened = {"kvm_guest_exit", "arithoh_count", "gsb_recv"};

struct stationarity {
    std::string metric;  // "kvm_guest_exit per s", "wake_latency_ns.p99"
    double one_s = 0, ten_s = 0;
    double deviation() const { return ten_s != 0 ? one_s / ten_s - 1 : (one_s == 0 ? 0 : 1); }
};

// Each count as a rate (count / simulated seconds), and p50 and p99 of every latency with a
// sample in the 10 s run: the 1 s value beside the 10 s one.
std::vector<stationarity> measure(const run_record& one, const run_record& ten) {
    std::vector<stationarity> out;
    const auto rate = [](const run_record& r, const std::string& m) {
        double v = 0;
        if (!metric_value(r, m, v)) {
            const auto& c = r.result.metrics.counters;
            const auto it = c.find(m);
            v = it == c.end() ? 0.0 : double(it->second);
        }
        return v / r.result.sim_seconds;
    };
    // H_GUEST_GET_STATE is gsb_recv's hcall; listed as well while the record counts it.
    std::vector<std::string> counts = {"kvm_guest_exit", "gsb_recv", "h_guest_run_vcpu",
                                       "arithoh_count"};
    for (const auto& c : ten.result.metrics.counters)
        if (c.first.find("H_GUEST_GET_STATE") != std::string::npos) counts.push_back(c.first);
    for (const auto& m : counts) out.push_back({m, rate(one, m), rate(ten, m)});
    for (const auto& kind : latency_kinds()) {
        if (latency_of(ten.result.metrics, kind).all.count == 0) continue;
        for (const char* q : {".p50", ".p99"}) {
            double a = 0, b = 0;
            metric_value(one, kind + q, a);
            metric_value(ten, kind + q, b);
            out.push_back({kind + q, a, b});
        }
    }
    return out;
}

TEST(SlowStationarity, OneSecondAgainstTenSecondsUnderBothPolicies) {
    const std::string d = test::fresh_dir("slow-stationarity");
    for (const char* policy : {"no-cancel", "cancel"}) {
        const std::string out = d + "/" + policy + ".json";
        const auto r =
            run_cmd(nestvp({"compare", k_ref, "--set", std::string("l1.dec_policy=") + policy,
                            "--set", "run.duration_s=10", "--vs", "run.duration_s=1", "--json", out,
                            "-j", "2", "--quiet"}),
                    d);
        ASSERT_EQ(r.code, 0) << r.err;
        const json j = parse_json(test::slurp(out), out);
        const run_record ten = parse_run_record(json_text(j["a"]), "a");
        const run_record one = parse_run_record(json_text(j["b"]), "b");
        ASSERT_DOUBLE_EQ(ten.result.sim_seconds, 10.0);
        ASSERT_DOUBLE_EQ(one.result.sim_seconds, 1.0);
        std::set<std::string> seen;
        for (const auto& s : measure(one, ten)) {
            const bool ok = std::abs(s.deviation()) <= k_tolerance;
            std::printf("%-10s %-36s 1 s %14.1f  10 s %14.1f  %+7.2f %%  %s\n", policy,
                        s.metric.c_str(), s.one_s, s.ten_s, 100 * s.deviation(),
                        ok ? "stationary" : "NOT stationary");
            if (k_shortened.count(s.metric)) {
                seen.insert(s.metric);
                EXPECT_TRUE(ok) << policy << " " << s.metric << ": 1 s " << s.one_s << ", 10 s "
                                << s.ten_s << " per s: shortened runs need within 2 %";
            }
        }
        EXPECT_EQ(seen, k_shortened) << policy;
    }
}

}  // namespace
}  // namespace nestvp
