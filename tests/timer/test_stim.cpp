// Stimulus files: the §8 vectors as files run through stim_runner (for every timer impl) and
// compared with their .expected JSON lines; malformed files, each with its file:line:column
// message and no output (loader and `nestvp stim`); a 1e9-tick stimulus with 400 steps.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "models/timer_unit_factory.h"
#include "platforms/config/stim_file.h"
#include "platforms/runner/stim_runner.h"
#include "sc_test_guard.h"
#include "tests/support/sanitizer_notes.h"

namespace nestvp {
namespace {

const std::string stim_dir = std::string(NESTVP_SOURCE_DIR) + "/tests/timer/stim/";

std::vector<std::string> read_lines(const std::string& path) {
    std::ifstream in(path);
    EXPECT_TRUE(in.good()) << "cannot open " << path;
    std::vector<std::string> out;
    for (std::string l; std::getline(in, l);)
        if (!l.empty()) out.push_back(l);
    return out;
}

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// ---- the vectors as files ---------------------------------------------------------------

const std::vector<std::string> vector_files = {
    "dec5",
    "v03_v04_tb",
    "v07_dec_basic",
    "v08_dec_zero",
    "v09_dec_negative_level",
    "v10_dec_negative_ee_on",
    "v11_dec_not_cleared",
    "v12_dec_positive_write",
    "v13_dec_wrap",
    "v14_v15_large_dec",
    "v16_small_dec",
    "v17_ld_toggle",
    "v18_hdec_edge",
    "v19_hdec_negative_write",
    "v20_hdec_neg_to_neg",
    "v21_hdec_zero",
    "v22_hdec_guest",
    "v23_hdice_zero",
    "v24_priority",
    "v25_dec_in_hv",
};

using file_impl = std::tuple<std::string, std::string>;
class StimVector : public ::testing::TestWithParam<file_impl> {};

TEST_P(StimVector, MatchesExpected) {
    NESTVP_SC_TEST_GUARD();
    const auto& [name, impl] = GetParam();
    const stim_file f = load_stim_file(stim_dir + name + ".yaml");
    stim_options o;
    o.impl = impl;
    const std::vector<std::string> got = run_stim(f, o);
    const std::vector<std::string> want = read_lines(stim_dir + name + ".expected");
    EXPECT_EQ(got, want);
}

INSTANTIATE_TEST_SUITE_P(Files, StimVector,
                         ::testing::Combine(::testing::ValuesIn(vector_files),
                                            ::testing::ValuesIn(timer_impls())),
                         [](const ::testing::TestParamInfo<file_impl>& i) {
                             return std::get<0>(i.param) + "_" + std::get<1>(i.param);
                         });

// The example, spelled out: mtspr DEC=5 at tick 0 with EE=1 -> interrupt at tick 6.
TEST(Stim, Dec5InterruptsAtTick6) {
    NESTVP_SC_TEST_GUARD();
    const stim_file f = parse_stim(
        "thread: {msr: {ee: 1, hv: 1}}\n"
        "steps:\n"
        "  - {at: 0, op: mtspr, spr: DEC, value: 5}\n"
        "  - {at: 10, op: end}\n",
        "inline");
    const auto lines = run_stim(f);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0].rfind("{\"tb\":6,\"event\":\"interrupt\",\"vector\":\"0x900\"", 0), 0u)
        << lines[0];
}

// ---- malformed files --------------------------------------------------------------------

struct bad_case {
    const char* file;
    const char* where;  // line:column
    const char* what;   // part of the message
};

const bad_case bad_cases[] = {
    {"empty", "1:1", "empty stimulus file"},
    {"only_comment", "1:1", "empty stimulus file"},
    {"unknown_top_key", "3:1", "unknown key 'thred'"},
    {"unknown_step_key", "5:5", "unknown key 'valu' in an mtspr step"},
    {"bad_spr_mtspr", "4:10", "bad SPR 'TB' for mtspr"},
    {"bad_spr_mfspr", "2:29", "bad SPR 'TBL' for mfspr"},
    {"decreasing_at", "3:10", "must not decrease"},
    {"missing_value", "3:5", "missing 'value'"},
    {"missing_at", "2:5", "missing 'at'"},
    {"at_not_integer", "2:10", "'at' must be an integer"},
    {"dec_bits_range", "2:13", "'dec_bits' = 65 is out of range 32..64"},
    {"msr_bit_not_01", "2:13", "'ee' must be 0 or 1"},
    {"unknown_op", "2:17", "unknown op 'mtmsr'"},
    {"syntax_error", "3:5", "YAML syntax error"},
    {"step_after_end", "3:5", "step after 'end'"},
    {"value_too_big", "2:41", "does not fit in 64 bits"},
    {"steps_not_list", "2:3", "'steps' must be a list"},
    {"msr_step_empty", "2:5", "at least one of ee, hv, pr"},
    {"tb_hz_zero", "1:17", "'tb_hz' = 0 is out of range"},
    {"duplicate_key", "2:44", "duplicate key 'value'"},
    {"quoted_value", "2:41", "quoted string"},
    {"tagged_value", "2:41", "'5' tagged !!str"},
    {"no_steps", "1:1", "missing 'steps'"},
    {"at_beyond_range", "4:5", "beyond the simulated time range"},  // found at run time
};

void PrintTo(const bad_case& c, std::ostream* os) {
    *os << c.file;
}

class StimBad : public ::testing::TestWithParam<bad_case> {};

// The loader (and, for run-time problems, the runner) throws stim_error "file:line:col: what".
TEST_P(StimBad, LoaderNamesThePlace) {
    NESTVP_SC_TEST_GUARD();
    const bad_case& c = GetParam();
    const std::string path = stim_dir + "bad/" + c.file + ".yaml";
    std::vector<std::string> out;
    try {
        const stim_file f = load_stim_file(path);
        out = run_stim(f);
        FAIL() << "accepted " << path;
    } catch (const stim_error& e) {
        const std::string msg = e.what();
        EXPECT_EQ(msg.rfind(path + ":" + c.where + ": ", 0), 0u) << msg;
        EXPECT_NE(msg.find(c.what), std::string::npos) << msg;
    }
    EXPECT_TRUE(out.empty());
}

// `nestvp stim` on the same file: exit 2, the message on stderr, nothing on stdout.
TEST_P(StimBad, CommandExits2WithNoOutput) {
    const bad_case& c = GetParam();
    const std::string path = stim_dir + "bad/" + c.file + ".yaml";
    const std::string tmp = std::string(NESTVP_BINARY_DIR) + "/tests/timer/stimbad_" + c.file;
    const std::string cmd = "SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 '" +
                            std::string(NESTVP_BINARY_DIR) + "/nestvp' stim '" + path + "' >'" +
                            tmp + ".out' 2>'" + tmp + ".err'";
    const int st = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(st));
    EXPECT_EQ(WEXITSTATUS(st), 2);
    EXPECT_EQ(slurp(tmp + ".out"), "");
    const std::string err = test::without_sanitizer_notes(slurp(tmp + ".err"));
    EXPECT_NE(err.find(path + ":" + c.where + ": "), std::string::npos) << err;
    EXPECT_EQ(err.rfind("nestvp stim: ", 0), 0u) << err;  // every message names the command
}

INSTANTIATE_TEST_SUITE_P(Files, StimBad, ::testing::ValuesIn(bad_cases),
                         [](const ::testing::TestParamInfo<bad_case>& i) {
                             return std::string(i.param.file);
                         });

// ---- the command line -------------------------------------------------------------------

int run_cli(const std::string& args, std::string* out, std::string* err) {
    static int n = 0;
    const std::string tmp = std::string(NESTVP_BINARY_DIR) + "/tests/timer/stimcli_" +
                            ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" +
                            std::to_string(n++);
    const std::string cmd = "SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 '" +
                            std::string(NESTVP_BINARY_DIR) + "/nestvp' stim " + args + " >'" + tmp +
                            ".out' 2>'" + tmp + ".err'";
    const int st = std::system(cmd.c_str());
    *out = slurp(tmp + ".out");
    *err = test::without_sanitizer_notes(slurp(tmp + ".err"));
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST(StimCli, RunsAVectorFile) {
    std::string out, err;
    EXPECT_EQ(run_cli("'" + stim_dir + "v24_priority.yaml'", &out, &err), 0) << err;
    std::string want;
    for (const auto& l : read_lines(stim_dir + "v24_priority.expected")) want += l + "\n";
    EXPECT_EQ(out, want);
}

TEST(StimCli, HelpExits0) {
    std::string out, err;
    EXPECT_EQ(run_cli("--help", &out, &err), 0);
    EXPECT_NE(out.find("usage: nestvp stim FILE"), std::string::npos);
}

TEST(StimCli, BadFlagsExit2) {
    std::string out, err;
    EXPECT_EQ(run_cli("", &out, &err), 2);
    EXPECT_NE(err.find("missing FILE"), std::string::npos);
    EXPECT_EQ(run_cli("'" + stim_dir + "dec5.yaml' --impl bogus", &out, &err), 2);
    EXPECT_NE(err.find("unknown --impl 'bogus'"), std::string::npos);
    EXPECT_EQ(out, "");
    EXPECT_EQ(run_cli("'" + stim_dir + "dec5.yaml' --frobnicate", &out, &err), 2);
    EXPECT_EQ(run_cli("'" + stim_dir + "dec5.yaml' --impl", &out, &err), 2);
}

TEST(StimCli, MissingFileExits2) {
    std::string out, err;
    EXPECT_EQ(run_cli("/nonexistent/x.yaml", &out, &err), 2);
    EXPECT_NE(err.find("/nonexistent/x.yaml:1:1: cannot open"), std::string::npos) << err;
    EXPECT_EQ(out, "");
}

// ---- a long stimulus --------------------------------------------------------------------

// 1e9 ticks, 400 steps: 100 rounds of mtDEC(v), mfDEC half-way, interrupt at the 0 -> -1 tick,
// a positive mtDEC and EE re-enabled. Checks the output, not the speed (bench/ measures that).
TEST(Stim, LongStimulus1e9Ticks) {
    NESTVP_SC_TEST_GUARD();
    std::ostringstream y;
    y << "thread: {msr: {ee: 1, hv: 1}, lpcr: {ld: 1, hdice: 1}}\nsteps:\n";
    std::vector<std::string> want;
    char buf[256];
    for (uint64_t i = 0; i < 100; ++i) {
        const uint64_t t = i * 10000000, v = 1000000 + i;
        y << "  - {at: " << t << ", op: mtspr, spr: DEC, value: " << v << "}\n"
          << "  - {at: " << t + 500000 << ", op: mfspr, spr: DEC}\n"
          << "  - {at: " << t + 2000000 << ", op: mtspr, spr: DEC, value: 0x7FFFFFFF}\n"
          << "  - {at: " << t + 2000000 << ", op: msr, ee: 1}\n";
        std::snprintf(buf, sizeof buf,
                      "{\"tb\":%llu,\"op\":\"mfspr\",\"spr\":\"DEC\",\"value\":\"0x%016llx\"}",
                      (unsigned long long)(t + 500000), (unsigned long long)(v - 500000));
        want.push_back(buf);
        std::snprintf(buf, sizeof buf,
                      "{\"tb\":%llu,\"event\":\"interrupt\",\"vector\":\"0x900\",\"srr0\":"
                      "\"0x%016llx\",\"srr1\":\"0x9000000000009000\",\"msr\":"
                      "\"0x9000000000001000\",\"ee\":0,\"hv\":1,\"pr\":0}",
                      (unsigned long long)(t + v + 1), (unsigned long long)stim_nia(4 * i + 2));
        want.push_back(buf);
    }
    y << "  - {at: 1000000000, op: mfspr, spr: TB}\n";
    std::snprintf(buf, sizeof buf,
                  "{\"tb\":1000000000,\"op\":\"mfspr\",\"spr\":\"TB\",\"value\":"
                  "\"0x%016llx\"}",
                  1000000000ull);
    want.push_back(buf);
    const auto got = run_stim(parse_stim(y.str(), "long"));
    EXPECT_EQ(got, want);
}

}  // namespace
}  // namespace nestvp
