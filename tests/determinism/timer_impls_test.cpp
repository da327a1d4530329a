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

#include "platforms/report/json.h"
#include "tests/cli/cli_test_util.h"

namespace nestvp {
namespace {

const std::string k_ref = std::string(NESTVP_SOURCE_DIR) + "/platforms/reference.yaml";
const std::string k_impl_key = "machine.timer.impl";

using field_list = std::vector<std::pair<std::string, std::string>>;  // path, value as text

// Every leaf of a JSON document as (dotted path, value), in document order.
void flatten(const json& v, const std::string& path, field_list& out) {
    const std::string prefix = path.empty() ? path : path + ".";
    if (v.is_object()) {
        for (const auto& m : v.items()) flatten(m.value(), prefix + m.key(), out);
    } else if (v.is_array()) {
        for (size_t i = 0; i < v.size(); ++i) flatten(v[i], prefix + std::to_string(i), out);
    } else {
        out.emplace_back(path, v.dump());
    }
}

// The fields of a run record that must not depend on the implementation.
field_list comparable_fields(const std::string& json, const std::string& what,
                             const std::vector<std::string>& skip) {
    field_list all, kept;
    flatten(parse_json(json, what), "", all);
    for (auto& f : all) {
        bool drop = false;
        for (const auto& s : skip) drop = drop || f.first == s;
        if (!drop) kept.push_back(std::move(f));
    }
    return kept;
}

const std::vector<std::string> k_host_fields = {"wall_seconds", "settings." + k_impl_key,
                                                "config." + k_impl_key};

// "" if equal; otherwise names the first differing field with both values, then the others.
std::string differences(const field_list& a, const std::string& an, const field_list& b,
                        const std::string& bn) {
    std::vector<std::string> diffs;
    for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
        if (i >= a.size()) {
            diffs.push_back("field " + b[i].first + " only in " + bn);
        } else if (i >= b.size()) {
            diffs.push_back("field " + a[i].first + " only in " + an);
        } else if (a[i].first != b[i].first) {
            diffs.push_back("field " + a[i].first + " in " + an + " where " + bn + " has " +
                            b[i].first);
            break;  // the layouts diverge: every later pair would differ
        } else if (a[i].second != b[i].second) {
            diffs.push_back("field " + a[i].first + ": " + an + "=" + a[i].second + " " + bn + "=" +
                            b[i].second);
        }
    }
    if (diffs.empty()) return "";
    std::string out = "first differing " + diffs[0];
    for (size_t i = 1; i < diffs.size(); ++i)
        out += (i == 1 ? "\nother differences:\n  " : "\n  ") + diffs[i];
    return out;
}

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
