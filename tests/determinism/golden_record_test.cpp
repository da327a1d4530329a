// Golden run records: each case of tests/golden/cases.txt, run now, gives the record committed
// beside it, field for field, apart from the host's fields (tests/support/record_fields.h) and
// the source tree's location. A change to the hot path must leave every simulated result as
// it was; a change meant to move results regenerates the records (tests/golden/update.sh) and
// says why in its commit. Each run is its own `nestvp` process.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_test_util.h"
#include "tests/support/record_fields.h"

namespace nestvp {
namespace {

const std::string k_src = NESTVP_SOURCE_DIR;

// The case's platform file and arguments, from cases.txt.
std::vector<std::string> case_args(const std::string& name) {
    std::ifstream in(k_src + "/tests/golden/cases.txt");
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string first;
        if (!(words >> first) || first[0] == '#' || first != name) continue;
        std::vector<std::string> args;
        for (std::string w; words >> w;) args.push_back(w);
        if (!args.empty()) args[0] = k_src + "/" + args[0];
        return args;
    }
    return {};
}

void expect_golden(const std::string& name) {
    std::vector<std::string> args = case_args(name);
    ASSERT_FALSE(args.empty()) << name << " is not in tests/golden/cases.txt";
    const std::string dir = test::fresh_dir("golden-" + name);
    const std::string out = dir + "/" + name + ".json";
    args.insert(args.begin(), "run");
    for (const char* a : {"--quiet", "--json"}) args.emplace_back(a);
    args.push_back(out);
    const test::cmd_result r = test::run_cmd(test::nestvp(args), dir);
    ASSERT_EQ(r.code, 0) << r.err;
    // The source tree's location shows where the record names the platform file.
    std::string now = test::slurp(out);
    for (size_t p = now.find(k_src + "/"); p != std::string::npos; p = now.find(k_src + "/", p))
        now.erase(p, k_src.size() + 1);
    const std::vector<std::string>& skip = test::host_fields();
    const std::string golden = k_src + "/tests/golden/" + name + ".json";
    ASSERT_TRUE(test::file_exists(golden)) << golden << ": run tests/golden/update.sh";
    const test::field_list want = test::comparable_fields(test::slurp(golden), golden, skip);
    // A record that reports nothing would compare equal to anything as empty.
    ASSERT_GT(want.size(), 100u) << golden;
    EXPECT_EQ(test::differences(want, "golden", test::comparable_fields(now, out, skip), "now"), "")
        << name << " (if the change is meant to move results: tests/golden/update.sh)";
}

TEST(GoldenRecord, ReferenceNoCancel) {
    expect_golden("reference-no-cancel");
}
TEST(GoldenRecord, ReferenceCancel) {
    expect_golden("reference-cancel");
}
TEST(GoldenRecord, ReferenceCancelPollPowervm) {
    expect_golden("reference-cancel-poll-powervm");
}
TEST(GoldenRecord, ReferenceLockstepXive) {
    expect_golden("reference-lockstep-xive");
}
TEST(GoldenRecord, NestedV1) {
    expect_golden("nestedv1");
}
TEST(GoldenRecord, IdleHeavy) {
    expect_golden("idle-heavy");
}
TEST(GoldenRecord, ReferenceIpi) {
    expect_golden("reference-ipi");
}

// The comparison names a changed field and ignores only the host's.
TEST(GoldenRecord, ReferenceXicsIpi) {
    expect_golden("reference-xics-ipi");
}
TEST(GoldenRecord, ComparisonIgnoresOnlyHostFields) {
    const std::string a = R"({"wall_seconds": 1, "sc_events": 5, "tool": {"commit": "a"},
                             "metrics": {"x": 1}})";
    const std::string b = R"({"wall_seconds": 2, "sc_events": 9, "tool": {"commit": "b"},
                             "metrics": {"x": 2}})";
    const auto& skip = test::host_fields();
    EXPECT_EQ(test::differences(test::comparable_fields(a, "a", skip), "a",
                                test::comparable_fields(a, "a", skip), "b"),
              "");
    EXPECT_EQ(test::differences(test::comparable_fields(a, "a", skip), "a",
                                test::comparable_fields(b, "b", skip), "b"),
              "first differing field metrics.x: a=1 b=2");
}

}  // namespace
}  // namespace nestvp
