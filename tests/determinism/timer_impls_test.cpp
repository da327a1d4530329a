// The three timer-unit implementations (machine.timer.impl = tlm, rtl, lockstep; models/
// timer_unit_if.h) must give the same run record of the reference platform: the RTL unit and
// the lockstep pair implement the same DEC/HDEC rules (timer-facilities.md §2, §3) as the
// native models, so nothing the platform reports may change. Each run is its own `nestvp`
// process (SystemC elaborates once per process). The fields that do not compare are
// wall_seconds, the one host-dependent field (docs/cli.md, "Determinism"), sc_events, the
// kernel's work, and the setting that selects the implementation.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "platforms/records/json.h"
#include "tests/cli/cli_test_util.h"
#include "tests/support/record_fields.h"

namespace nestvp {
namespace {

using test::comparable_fields;
using test::differences;
using test::field_list;

const std::string k_ref = std::string(NESTVP_SOURCE_DIR) + "/platforms/reference.yaml";
const std::string k_impl_key = "machine.timer.impl";

const std::vector<std::string> k_host_fields = {"wall_seconds", "settings." + k_impl_key,
                                                "config." + k_impl_key};

// Runs the reference platform for 0.5 s simulated under one implementation; returns the JSON.
std::string run_impl(const std::string& impl, const std::string& dir) {
    const std::string json = dir + "/" + impl + ".json";
    const test::cmd_result r =
        test::run_cmd(test::nestvp({"run", k_ref, "--quiet", "--json", json, "--set",
                                    k_impl_key + "=" + impl, "--set", "run.duration_s=0.5"}),
                      dir);
    EXPECT_EQ(r.code, 0) << impl << ": " << r.err;
    return test::slurp(json);
}

struct three_runs {
    std::string tlm, rtl, lockstep;
};

three_runs run_all(const std::string& name) {
    const std::string d = test::fresh_dir(name);
    return {run_impl("tlm", d), run_impl("rtl", d), run_impl("lockstep", d)};
}

void expect_same(const three_runs& r, const std::vector<std::string>& skip) {
    const field_list tlm = comparable_fields(r.tlm, "tlm.json", skip);
    // The run must have done something, or equality would prove nothing.
    const json j = parse_json(r.tlm, "tlm.json");
    ASSERT_TRUE(j.contains("metrics"));
    EXPECT_GT(j["metrics"]["kvm_guest_exit"].get<double>(), 1000.0) << r.tlm;
    EXPECT_GT(j["metrics"]["exits_by_reason"].value("0x980 HDEC", 0.0), 10.0) << r.tlm;
    const std::string rtl =
        differences(tlm, "tlm", comparable_fields(r.rtl, "rtl.json", skip), "rtl");
    EXPECT_EQ(rtl, "") << "tlm vs rtl";
    const std::string lockstep =
        differences(tlm, "tlm", comparable_fields(r.lockstep, "lockstep.json", skip), "lockstep");
    EXPECT_EQ(lockstep, "") << "tlm vs lockstep";
}

TEST(TimerImpls, ComparisonNamesTheFirstDifferingField) {
    const std::string a = R"({"platform": "p", "wall_seconds": 1, "sc_events": 5,
                             "metrics": {"x": 1, "y": 2.5, "z": 3}})";
    const std::string b = R"({"platform": "p", "wall_seconds": 2, "sc_events": 5,
                             "metrics": {"x": 1, "y": 2.75, "z": 4}})";
    EXPECT_EQ(differences(comparable_fields(a, "a", k_host_fields), "a",
                          comparable_fields(a, "a", k_host_fields), "b"),
              "");
    EXPECT_EQ(differences(comparable_fields(a, "a", k_host_fields), "a",
                          comparable_fields(b, "b", k_host_fields), "b"),
              "first differing field metrics.y: a=2.5 b=2.75\nother differences:\n"
              "  field metrics.z: a=3 b=4");
}

// The whole record but the host's and the kernel's share of it: wall_seconds, the setting,
// and sc_events (SystemC delta cycles), which counts the kernel's work and which each
// implementation organises differently (docs/rtl-decrementer.md, "Co-verification"), as
// tests/determinism/run_ahead_test.cpp leaves it out too. Every simulated result compares.
TEST(TimerImpls, ReferencePlatformGivesIdenticalRunRecords) {
    std::vector<std::string> skip = k_host_fields;
    skip.push_back("sc_events");
    expect_same(run_all("timer-impls-record"), skip);
}

}  // namespace
}  // namespace nestvp
