// Determinism: the same platform file and seed produce byte-identical
// JSON, the wall-time field aside, across runs and across `-j` values of a sweep. Each run is
// a separate `nestvp` process (fresh address-space layout), so any dependence on pointer order,
// hash order, the host clock or uninitialised memory shows up as a byte difference.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "platforms/records/json.h"
#include "tests/cli/cli_test_util.h"

namespace nestvp {
namespace {

const std::string k_src = NESTVP_SOURCE_DIR;
const std::string k_bin = std::string(NESTVP_BINARY_DIR) + "/nestvp";
const std::string k_ref = k_src + "/platforms/reference.yaml";
const std::string k_idle = k_src + "/platforms/idle-heavy.yaml";

using test::fresh_dir;
using test::slurp;
using test::without_wall;

// Runs `nestvp args...` with stdout/stderr captured in dir; returns the exit code and, on
// failure, what it printed on stderr.
test::cmd_result nestvp(const std::vector<std::string>& args, const std::string& dir) {
    return test::run_cmd(test::nestvp(args), dir);
}

// Runs one point and returns its JSON text; fails the test if the run fails.
std::string run_json(const std::string& file, const std::vector<std::string>& sets,
                     const std::string& dir, const std::string& name) {
    std::vector<std::string> args = {"run", file, "--quiet", "--json", dir + "/" + name};
    for (const auto& s : sets) {
        args.push_back("--set");
        args.push_back(s);
    }
    const test::cmd_result r = nestvp(args, dir);
    EXPECT_EQ(r.code, 0) << r.err;
    return slurp(dir + "/" + name);
}

const std::vector<std::string> k_nc = {"l1.dec_policy=no-cancel", "run.duration_s=0.2"};

// The run must have activity, or equality would prove nothing.
void expect_activity(const std::string& json) {
    const nestvp::json j = parse_json(json, "run record");
    ASSERT_TRUE(j.contains("metrics"));
    const nestvp::json& m = j["metrics"];
    ASSERT_TRUE(m.contains("kvm_guest_exit"));
    EXPECT_GT(m["kvm_guest_exit"].get<double>(), 100.0) << json;
    EXPECT_GT(m["arithoh_count"].get<double>(), 0.0) << json;
    EXPECT_GT(j["sc_events"].get<double>(), 1000.0) << json;
}

TEST(Determinism, SameFileAndSeedGiveIdenticalJsonAcrossRuns) {
    const std::string d = fresh_dir("two-runs");
    const std::string a = run_json(k_ref, k_nc, d, "a.json");
    const std::string b = run_json(k_ref, k_nc, d, "b.json");
    expect_activity(a);
    EXPECT_NE(a.find("\"wall_seconds\""), std::string::npos);
    EXPECT_EQ(without_wall(a), without_wall(b));
}

TEST(Determinism, SixteenVcpuPlatformIdenticalAcrossRuns) {
    // Many vCPUs whose events fall at the same simulated instants: order must not depend on
    // the host (pointer values, container hashing).
    const std::string d = fresh_dir("idle-heavy");
    const std::vector<std::string> sets = {"l1.dec_policy=no-cancel", "run.duration_s=0.1",
                                           "run.seed=7"};
    const std::string a = run_json(k_idle, sets, d, "a.json");
    const std::string b = run_json(k_idle, sets, d, "b.json");
    expect_activity(a);
    EXPECT_EQ(without_wall(a), without_wall(b));
}

TEST(Determinism, EveryPolicyAndApiIdenticalAcrossRuns) {
    const std::string d = fresh_dir("policies");
    for (const std::vector<std::string>& extra : std::vector<std::vector<std::string>>{
             {"l1.dec_policy=cancel"},
             {"l1.dec_policy=clear-on-entry"},
             {"l0.api=v1"},
             {"l0.run_output=powervm", "l1.dec_policy=cancel"},
         }) {
        std::vector<std::string> sets = {"run.duration_s=0.1"};
        sets.insert(sets.end(), extra.begin(), extra.end());
        const std::string a = run_json(k_ref, sets, d, "a.json");
        const std::string b = run_json(k_ref, sets, d, "b.json");
        ASSERT_FALSE(a.empty()) << extra[0];
        EXPECT_EQ(without_wall(a), without_wall(b)) << extra[0];
    }
}

// IPIs wake threads of other cores (run-ahead off, docs/local-time.md): the order of those
// wakes must not depend on the host either, nestedv1 included.
TEST(Determinism, IpiRunsIdenticalAcrossRuns) {
    const std::string d = fresh_dir("ipi");
    for (const std::vector<std::string>& extra : std::vector<std::vector<std::string>>{
             {"l1.dec_policy=no-cancel"}, {"l1.dec_policy=cancel"}, {"l0.api=v1"}}) {
        std::vector<std::string> sets = {"run.duration_s=0.1", "l2.devices.ipi_hz=2000"};
        sets.insert(sets.end(), extra.begin(), extra.end());
        const std::string a = run_json(k_ref, sets, d, "a.json");
        const std::string b = run_json(k_ref, sets, d, "b.json");
        ASSERT_NE(a.find("\"l2.ipis_received\""), std::string::npos) << extra[0];
        EXPECT_EQ(without_wall(a), without_wall(b)) << extra[0];
    }
}

TEST(Determinism, ComparisonSeesADifferentSeed) {
    // The check above is not vacuous: a different seed changes the record.
    const std::string d = fresh_dir("seed");
    const std::string a = run_json(
        k_ref, {"l1.dec_policy=no-cancel", "run.duration_s=0.2", "run.seed=1"}, d, "a.json");
    const std::string b = run_json(
        k_ref, {"l1.dec_policy=no-cancel", "run.duration_s=0.2", "run.seed=2"}, d, "b.json");
    EXPECT_NE(without_wall(a), without_wall(b));
}

// The CSV row of `run --csv` without its last column, wall_seconds (docs/cli.md, CSV layout).
std::string csv_row_without_wall(const std::string& csv) {
    const size_t nl = csv.find('\n');
    std::string row = csv.substr(nl + 1);
    while (!row.empty() && row.back() == '\n') row.pop_back();
    return row.substr(0, row.rfind(','));
}

TEST(Determinism, SweepJ1AndJ2GiveIdenticalResultsEqualToSingleRuns) {
    const std::string d = fresh_dir("sweep");
    const std::vector<std::string> base = {"sweep",
                                           k_ref,
                                           "--quiet",
                                           "--set",
                                           "l1.dec_policy=no-cancel",
                                           "--set",
                                           "run.duration_s=0.2",
                                           "--grid",
                                           "run.seed=1,2",
                                           "--grid",
                                           "l2.vcpus=3,4"};
    auto j1 = base;
    j1.insert(j1.end(), {"-j", "1", "--csv", d + "/j1.csv"});
    const test::cmd_result r1 = nestvp(j1, d);
    ASSERT_EQ(r1.code, 0) << r1.err;
    auto j2 = base;
    j2.insert(j2.end(), {"-j", "2", "--csv", d + "/j2.csv"});
    const test::cmd_result r2 = nestvp(j2, d);
    ASSERT_EQ(r2.code, 0) << r2.err;
    const std::string c1 = slurp(d + "/j1.csv"), c2 = slurp(d + "/j2.csv");
    ASSERT_FALSE(c1.empty());
    EXPECT_EQ(c1, c2);

    // Every sweep row equals a standalone run of that point (same record, same CSV writer),
    // and the standalone run's JSON equals a repeat of it.
    std::istringstream rows(c1);
    std::string header, line;
    std::getline(rows, header);
    int point = 0;
    for (const char* seed : {"1", "2"})
        for (const char* vcpus : {"3", "4"}) {
            ASSERT_TRUE(std::getline(rows, line)) << "point " << point;
            const std::vector<std::string> sets = {"l1.dec_policy=no-cancel", "run.duration_s=0.2",
                                                   std::string("run.seed=") + seed,
                                                   std::string("l2.vcpus=") + vcpus};
            std::vector<std::string> args = {"run",        k_ref,    "--quiet",    "--csv",
                                             d + "/p.csv", "--json", d + "/p.json"};
            for (const auto& s : sets) args.insert(args.end(), {"--set", s});
            const test::cmd_result r = nestvp(args, d);
            ASSERT_EQ(r.code, 0) << r.err;
            const std::string run_csv = slurp(d + "/p.csv");
            // The run CSV's setting columns are every --set key; the sweep's are the grid
            // keys. Compare the metric columns: the sweep row after its two grid columns,
            // the run row after its four --set columns.
            auto after = [](const std::string& row, int n) {
                size_t p = 0;
                for (int i = 0; i < n; ++i) p = row.find(',', p) + 1;
                return row.substr(p);
            };
            EXPECT_EQ(after(line, 2), after(csv_row_without_wall(run_csv), 4))
                << "point " << point << "\nsweep: " << line << "\nrun:   " << run_csv;
            EXPECT_EQ(line.substr(0, line.find(',', line.find(',') + 1)),
                      std::string(seed) + "," + vcpus);
            ++point;
        }
    EXPECT_FALSE(std::getline(rows, line)) << "extra row: " << line;
}

}  // namespace
}  // namespace nestvp
