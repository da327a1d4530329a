// Exact run-ahead (models/local_time.h, docs/local-time.md): retiring compute segments without
// SystemC waits must change no result. Each case runs the same point with run.run_ahead on and
// off and compares the run records, less the fields that describe the host (wall time) and the
// kernel's work (sc_events) and the setting itself. Run-ahead must also have saved kernel work,
// or the comparison would prove nothing.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "platforms/records/json.h"
#include "tests/cli/cli_test_util.h"

namespace nestvp {
namespace {

const std::string k_src = NESTVP_SOURCE_DIR;
const std::string k_ref = k_src + "/platforms/reference.yaml";
const std::string k_idle = k_src + "/platforms/idle-heavy.yaml";
const std::string k_v1 = k_src + "/platforms/nestedv1.yaml";

struct run_pair {
    std::string with, without;  // run records with the host and kernel fields masked
    double events_with = 0, events_without = 0;
};

std::string masked(const std::string& json) {
    std::string s = test::without_wall(json);
    s = std::regex_replace(s, std::regex("\"sc_events\": [^,\\n]*"), "\"sc_events\": X");
    // The setting, and the same key of the merged configuration (a JSON boolean there).
    return std::regex_replace(s, std::regex("\"run.run_ahead\": \"?[a-z]*\"?,? ?"), "");
}

run_pair run_both(const std::string& file, std::vector<std::string> sets, const std::string& name) {
    const std::string d = test::fresh_dir("run-ahead-" + name);
    run_pair p;
    for (const bool on : {true, false}) {
        const std::string out = d + (on ? "/with.json" : "/without.json");
        std::vector<std::string> args = {"run",
                                         file,
                                         "--quiet",
                                         "--json",
                                         out,
                                         "--set",
                                         std::string("run.run_ahead=") + (on ? "true" : "false")};
        for (const auto& s : sets) args.insert(args.end(), {"--set", s});
        const test::cmd_result r = test::run_cmd(test::nestvp(args), d);
        EXPECT_EQ(r.code, 0) << r.err;
        const std::string json = test::slurp(out);
        const double events = parse_json(json, out)["sc_events"].get<double>();
        (on ? p.with : p.without) = masked(json);
        (on ? p.events_with : p.events_without) = events;
    }
    return p;
}

void expect_exact_and_cheaper(const run_pair& p) {
    ASSERT_FALSE(p.with.empty());
    EXPECT_NE(p.with.find("\"kvm_guest_exit\""), std::string::npos);
    EXPECT_EQ(p.with, p.without);
    EXPECT_LT(p.events_with, 0.8 * p.events_without)
        << "run-ahead retired too few segments without a wait";
}

// Exact only: under no-cancel the stuck vCPUs snooze, and each snooze lowers and restores the
// thread's SMT priority, a re-rate of the siblings that run-ahead must first catch up to
// (core::set_low_priority). Run-ahead then saves no events here (bench/README.md).
TEST(RunAhead, ReferenceNoCancelIsExact) {
    const run_pair p =
        run_both(k_ref, {"l1.dec_policy=no-cancel", "run.duration_s=0.3"}, "ref-no-cancel");
    ASSERT_FALSE(p.with.empty());
    EXPECT_NE(p.with.find("\"kvm_guest_exit\""), std::string::npos);
    EXPECT_EQ(p.with, p.without);
}

TEST(RunAhead, ReferenceCancelIsExact) {
    expect_exact_and_cheaper(
        run_both(k_ref, {"l1.dec_policy=cancel", "run.duration_s=0.3"}, "ref-cancel"));
}

TEST(RunAhead, NestedV1IsExact) {
    expect_exact_and_cheaper(run_both(k_v1, {"run.duration_s=0.3"}, "v1"));
}

TEST(RunAhead, SixteenVcpusSharingCoresAreExact) {
    // Many threads per core: siblings bound each other (SMT re-rating on every cede). Here
    // the saving is in timed waits, which delta cycles do not show (docs/local-time.md).
    const run_pair p = run_both(
        k_idle, {"l1.dec_policy=cancel", "run.duration_s=0.1", "run.seed=3"}, "idle-heavy");
    ASSERT_FALSE(p.with.empty());
    EXPECT_NE(p.with.find("\"kvm_guest_exit\""), std::string::npos);
    EXPECT_EQ(p.with, p.without);
}

TEST(RunAhead, LockstepTimerUnitsAreExact) {
    // The RTL unit and the checker read local time; a mismatch would fail the run.
    const run_pair p =
        run_both(k_ref, {"machine.timer.impl=lockstep", "run.duration_s=0.1"}, "lockstep");
    ASSERT_FALSE(p.with.empty());
    EXPECT_EQ(p.with, p.without);
}

TEST(RunAhead, TracedRunIsExactWithTheGlobalBound) {
    // With a trace the bound is the kernel's next event (a VCD is written in time order); the
    // trace itself must be identical too.
    const std::string d = test::fresh_dir("run-ahead-trace");
    std::string vcd[2], json[2];
    for (const int on : {1, 0}) {
        const std::string tag = on ? "with" : "without";
        const std::vector<std::string> args = {
            "run",
            k_ref,
            "--quiet",
            "--json",
            d + "/" + tag + ".json",
            "--trace",
            d + "/" + tag + ".vcd",
            "--set",
            "run.duration_s=0.02",
            "--set",
            std::string("run.run_ahead=") + (on ? "true" : "false")};
        const test::cmd_result r = test::run_cmd(test::nestvp(args), d);
        ASSERT_EQ(r.code, 0) << r.err;
        vcd[on] = test::slurp(d + "/" + tag + ".vcd");
        json[on] = masked(test::slurp(d + "/" + tag + ".json"));
    }
    EXPECT_GT(vcd[1].size(), 1000u);
    EXPECT_EQ(vcd[1], vcd[0]);
    EXPECT_EQ(json[1], json[0]);
}

}  // namespace
}  // namespace nestvp
