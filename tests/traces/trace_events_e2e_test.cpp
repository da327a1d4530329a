// `nestvp run --trace-events`: the file is JSON, every slice nests on its track, and one
// exit's path-step slices add up to the latencies the record reports (docs/trace-events.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "platforms/records/json.h"
#include "tests/cli/cli_test_util.h"

namespace {

using nestvp::json;
using nestvp::parse_json;
using namespace nestvp::test;

const std::string k_reference = std::string(NESTVP_SOURCE_DIR) + "/platforms/reference.yaml";

struct slice {
    double ts, dur;
    std::string name;
    const json* ev;
};

class trace_events : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        dir = fresh_dir("trace_events");
        const auto r = run_cmd(
            nestvp::test::nestvp({"run", k_reference, "--set", "run.duration_s=0.1", "--set",
                                  "l1.dec_policy=no-cancel", "--json", dir + "/r.json",
                                  "--trace-events", dir + "/t.json", "--quiet"}),
            dir);
        ASSERT_EQ(r.code, 0) << r.err;
        doc = parse_json(slurp(dir + "/t.json"), "t.json");
        rec = parse_json(slurp(dir + "/r.json"), "r.json");
        for (const auto& e : doc["traceEvents"])
            if (e["ph"] == "X")
                tracks[{e["pid"].get<int>(), e["tid"].get<int>()}].push_back(
                    {e["ts"].get<double>(), e["dur"].get<double>(), e["name"], &e});
        for (auto& [k, v] : tracks)
            std::stable_sort(v.begin(), v.end(), [](const slice& a, const slice& b) {
                return a.ts != b.ts ? a.ts < b.ts : a.dur > b.dur;
            });
    }
    static inline std::string dir;
    static inline json doc, rec;
    static inline std::map<std::pair<int, int>, std::vector<slice>> tracks;
};

constexpr double eps_us = 1e-5;

TEST_F(trace_events, every_slice_nests_on_its_track) {
    ASSERT_GT(tracks.size(), 8u);
    for (const auto& [key, v] : tracks) {
        std::vector<double> ends;  // the open slices' ends
        for (const slice& s : v) {
            while (!ends.empty() && s.ts >= ends.back() - eps_us) ends.pop_back();
            if (!ends.empty()) {
                ASSERT_LE(s.ts + s.dur, ends.back() + eps_us)
                    << "track " << key.first << "/" << key.second << ": " << s.name << " at "
                    << s.ts << " crosses its parent's end";
            }
            ends.push_back(s.ts + s.dur);
        }
    }
}

TEST_F(trace_events, latency_slices_are_the_records_samples) {
    for (const char* kind : {"nested_exit", "nested_entry", "round_trip", "l1_handling"}) {
        size_t n = 0;
        double sum = 0;
        for (const auto& [key, v] : tracks)
            for (const slice& s : v)
                if (s.name == kind) ++n, sum += (*s.ev)["args"]["ns"].get<double>();
        const json& all = rec["metrics"]["latencies"][std::string(kind) + "_latency_ns"]["all"];
        ASSERT_EQ(n, all["count"].get<size_t>()) << kind;
        ASSERT_GT(n, 0u);
        EXPECT_NEAR(sum / n, all["mean"].get<double>(), 0.01) << kind;
    }
}

// An exit's slices add up: the path steps on its hardware thread inside a nested_exit or
// nested_entry slice (no time left out of those) last exactly as long as its value.
TEST_F(trace_events, one_exits_step_slices_add_up_to_its_latencies) {
    size_t checked = 0;
    for (const auto& [key, v] : tracks) {
        if (key.first < 100) continue;  // the vCPU processes
        const auto& steps = tracks.at({1, 8 * (key.first - 100) + 1});
        for (const slice& s : v) {
            if (s.name != "nested_exit" && s.name != "nested_entry") continue;
            if (checked % 7 == 0 || checked < 20) {
                double us = 0;
                for (const slice& st : steps) {
                    if (st.name == "GET_STATE") continue;  // nested in a step, not beside it
                    const double a = std::max(st.ts, s.ts),
                                 b = std::min(st.ts + st.dur, s.ts + s.dur);
                    if (b > a) us += b - a;
                }
                EXPECT_NEAR(us * 1e3, (*s.ev)["args"]["ns"].get<double>(), 0.01)
                    << s.name << " at " << s.ts;
            }
            ++checked;
        }
    }
    EXPECT_GT(checked, 100u);
}

TEST_F(trace_events, it_has_the_tracks_instants_flows_and_counters) {
    std::map<std::string, size_t> ph;
    size_t get_state = 0, hcalls_with_gsb = 0;
    for (const auto& e : doc["traceEvents"]) {
        ++ph[e["ph"].get<std::string>()];
        if (e["name"] == "GET_STATE") ++get_state;
        if (e["ph"] == "X" && e["name"] == "H_GUEST_RUN_VCPU (0x480)" &&
            e["args"]["gsb_elements_in"].get<uint64_t>() > 0 &&
            e["args"]["gsb_elements_out"].get<uint64_t>() > 0 && e["args"].contains("reason"))
            ++hcalls_with_gsb;
    }
    EXPECT_GT(ph["i"], 0u);
    EXPECT_GT(ph["s"], 0u);
    EXPECT_GT(ph["f"], 0u);
    EXPECT_GT(ph["C"], 0u);
    EXPECT_GT(ph["M"], 16u);  // process and thread names
    EXPECT_GT(get_state, 0u);
    EXPECT_GT(hcalls_with_gsb, 0u);
}

}  // namespace
