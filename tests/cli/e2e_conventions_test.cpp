// End-to-end: the conventions every command follows (docs/cli.md): help, suggestions,
// `-` for stdout, created parent folders, checked stdout, no SystemC banner.
#include <gtest/gtest.h>

#include <cstdlib>

#include "cli_test_util.h"

namespace nestvp {
namespace {

using test::nestvp;
using test::run_cmd;

const std::string k_ref = std::string(NESTVP_SOURCE_DIR) + "/platforms/reference.yaml";
const std::string k_short = "run.duration_s=0.1";

// `nestvp ARGS > /dev/full` through the shell.
test::cmd_result to_dev_full(const std::vector<std::string>& args, const std::string& dir) {
    std::string line;
    for (const auto& a : nestvp(args)) line += "'" + a + "' ";
    return run_cmd({"/bin/sh", "-c", line + "> /dev/full"}, dir);
}

TEST(CliConventions, NoSystemCBannerEvenWithoutTheVariable) {
    const std::string d = test::fresh_dir("conv-banner");
    const char* old = std::getenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE");
    const std::string saved = old ? old : "";
    ::unsetenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE");
    const std::vector<std::vector<std::string>> cmds = {
        {"--version"},
        {"params", "run.d"},
        {"run", k_ref, "--bogus"},
        {"run", k_ref, "--set", k_short, "--quiet"},
        {"sweep", k_ref, "--grid", k_short, "-j", "1", "--quiet"}};
    for (const auto& c : cmds) {
        const auto r = run_cmd(nestvp(c), d);
        EXPECT_EQ(r.out.find("Copyright"), std::string::npos) << c[0] << "\n" << r.out;
        EXPECT_EQ(r.err.find("Copyright"), std::string::npos) << c[0] << "\n" << r.err;
        EXPECT_EQ(r.err.find("SystemC 2."), std::string::npos) << c[0] << "\n" << r.err;
    }
    if (old) ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", saved.c_str(), 1);
}

TEST(CliConventions, HelpCommandAndSuggestions) {
    const std::string d = test::fresh_dir("conv-help");
    const auto h = run_cmd(nestvp({"help", "run"}), d);
    EXPECT_EQ(h.code, 0);
    EXPECT_EQ(h.out.rfind("usage: nestvp run FILE.yaml", 0), 0u) << h.out;
    const auto nope = run_cmd(nestvp({"help", "nope"}), d);
    EXPECT_EQ(nope.code, 2);
    EXPECT_EQ(nope.err.rfind("nestvp help: unknown command 'nope'", 0), 0u) << nope.err;
    const auto rn = run_cmd(nestvp({"rn"}), d);
    EXPECT_EQ(rn.code, 2);
    EXPECT_NE(rn.err.find("did you mean 'run'?"), std::string::npos) << rn.err;
    const auto opt = run_cmd(nestvp({"--bogus"}), d);
    EXPECT_EQ(opt.code, 2);
    EXPECT_EQ(opt.err.rfind("nestvp: unknown option '--bogus'", 0), 0u) << opt.err;
}

TEST(CliConventions, DashIsStdoutAndParentFoldersAreCreated) {
    const std::string d = test::fresh_dir("conv-outputs");
    const auto j = run_cmd(nestvp({"run", k_ref, "--set", k_short, "--quiet", "--json", "-"}), d);
    EXPECT_EQ(j.code, 0) << j.err;
    EXPECT_EQ(j.out.rfind("{", 0), 0u) << j.out;  // only the JSON
    EXPECT_FALSE(test::file_exists("-"));
    const auto r = run_cmd(nestvp({"run", k_ref, "--set", k_short, "--quiet", "--json",
                                   d + "/a/b/run.json", "--csv", d + "/c/run.csv"}),
                           d);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(test::file_exists(d + "/a/b/run.json"));
    EXPECT_TRUE(test::file_exists(d + "/c/run.csv"));
    // The README tour: a sweep's --csv into a folder that does not exist yet.
    const auto s = run_cmd(nestvp({"sweep", k_ref, "--set", k_short, "--grid", "l2.vcpus=1,2",
                                   "--csv", d + "/out/vcpus.csv", "--quiet"}),
                           d);
    EXPECT_EQ(s.code, 0) << s.err;
    EXPECT_EQ(test::count_of(test::slurp(d + "/out/vcpus.csv"), "\n"), 3u);
}

TEST(CliConventions, FlagsAreNamedAndPointOutputsRefused) {
    const std::string d = test::fresh_dir("conv-flags");
    const auto vs = run_cmd(nestvp({"compare", k_ref, "--vs", "l2.no_such_key=1"}), d);
    EXPECT_EQ(vs.code, 2);
    EXPECT_EQ(vs.err.rfind("nestvp compare: --vs: ", 0), 0u) << vs.err;
    const auto vs2 = run_cmd(nestvp({"compare", k_ref, "--vs", "novalue"}), d);
    EXPECT_EQ(vs2.err.rfind("nestvp compare: --vs: expected key=value", 0), 0u) << vs2.err;
    const auto so = run_cmd(nestvp({"sweep", k_ref, "--grid", "l2.hz=100,250", "--set",
                                    "run.outputs.json=" + d + "/x.json"}),
                            d);
    EXPECT_EQ(so.code, 2);
    EXPECT_EQ(so.err.rfind("nestvp sweep: --set run.outputs.json: ", 0), 0u) << so.err;
}

TEST(CliConventions, GridListValueIsOnePoint) {
    const std::string d = test::fresh_dir("conv-grid-list");
    const auto s = run_cmd(
        nestvp({"sweep", k_ref, "--set", k_short, "--quiet", "--grid",
                "machine.core.smt_speed=[1,0.9,0.8,0.7,0.6,0.5,0.4,0.3],[1,1,1,1,1,1,1,1]"}),
        d);
    EXPECT_EQ(s.code, 0) << s.err;
    EXPECT_EQ(test::count_of(s.out, "\n"), 3u) << s.out;  // header + 2 points
    EXPECT_NE(s.out.find("\"[1,0.9,0.8,0.7,0.6,0.5,0.4,0.3]\","), std::string::npos) << s.out;
}

TEST(CliConventions, CompareOfDifferentDurationsShowsRates) {
    const std::string d = test::fresh_dir("conv-per-s");
    const auto r = run_cmd(nestvp({"compare", k_ref, "--set", "run.duration_s=0.1", "--vs",
                                   "run.duration_s=0.2", "--quiet"}),
                           d);
    EXPECT_EQ(r.code, 0) << r.err;
    const auto note = r.out.find("counts are per simulated second");
    const auto table = r.out.find("| metric");
    EXPECT_NE(note, std::string::npos) << r.out;
    EXPECT_LT(note, table) << r.out;
    EXPECT_NE(r.out.find("| kvm_guest_exit per s "), std::string::npos) << r.out;
}

TEST(CliConventions, LostStdoutIsAnError) {
    const std::string d = test::fresh_dir("conv-dev-full");
    const std::vector<std::vector<std::string>> cmds = {
        {"params"},
        {"help", "run"},
        {"stim", "--help"},
        {"run", k_ref, "--set", k_short, "--quiet"},
        {"sweep", k_ref, "--grid", k_short, "--quiet"},
        {"compare", k_ref, "--set", k_short, "--vs", "l1.dec_policy=cancel", "--quiet"},
        {"policy-map", k_ref, "--duration", "0.01", "--idle-vcpus", "1", "--get-state", "1500",
         "--run-output", "powervm", "--wake-hz", "100", "--policies", "cancel,no-cancel",
         "--quiet"}};
    for (const auto& c : cmds) {
        const auto r = to_dev_full(c, d);
        const std::string& cmd = c[0] == "help" ? c[1] : c[0];  // `help run` is `run --help`
        EXPECT_EQ(r.code, 1) << cmd;
        EXPECT_NE(r.err.find("nestvp " + cmd + ": "), std::string::npos) << cmd << r.err;
        EXPECT_EQ(test::count_of(r.err, "standard output"), 1u) << cmd << r.err;  // said once
    }
}

// A directory given where a file belongs is named as such (it used to read as an empty file),
// and each message names the path once.
TEST(CliConventions, DirectoriesAreNotFiles) {
    const std::string d = test::fresh_dir("conv-dirs");
    const auto from = run_cmd(nestvp({"run", "--from", d}), d);
    EXPECT_EQ(from.code, 2);
    EXPECT_EQ(from.err,
              "nestvp run: " + d + ": cannot read: not a file (a directory, FIFO or device)\n");
    const auto stim = run_cmd(nestvp({"stim", d}), d);
    EXPECT_EQ(stim.code, 2);
    EXPECT_NE(
        stim.err.find(d + ":1:1: expected a stimulus file, found something that is not a file"),
        std::string::npos)
        << stim.err;
}

// A VCD that cannot be written (a full disk shows when the file closes) fails the command after
// its other outputs are written.
TEST(CliConventions, LostTraceIsAnError) {
    const std::string d = test::fresh_dir("conv-trace-full");
    const auto r = run_cmd(nestvp({"run", k_ref, "--set", k_short, "--trace", "/dev/full", "--json",
                                   d + "/r.json", "--quiet"}),
                           d);
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find("nestvp run: cannot write VCD file '/dev/full': "), std::string::npos)
        << r.err;
    EXPECT_TRUE(test::file_exists(d + "/r.json"));
    const auto s =
        run_cmd(nestvp({"stim", std::string(NESTVP_SOURCE_DIR) + "/platforms/stim/demo.yaml",
                        "--impl", "rtl", "--trace", "/dev/full"}),
                d);
    EXPECT_EQ(s.code, 1) << s.err;
    EXPECT_NE(s.err.find("nestvp stim: cannot write VCD file '/dev/full': "), std::string::npos)
        << s.err;
}

// An output that fails after the run (here a full disk) does not lose the record: it is saved
// under $TMPDIR, the error names that file, and the other outputs are still written.
TEST(CliConventions, LostOutputIsSavedElsewhere) {
    const std::string d = test::fresh_dir("conv-json-full");
    const auto r = run_cmd({"/usr/bin/env", "TMPDIR=" + d, nestvp({})[0], "run", k_ref, "--set",
                            k_short, "--json", "/dev/full", "--csv", d + "/r.csv", "--quiet"},
                           d);
    EXPECT_EQ(r.code, 1) << r.err;
    const std::string said = "nestvp run: /dev/full: write failed: ";
    ASSERT_NE(r.err.find(said), std::string::npos) << r.err;
    const std::string lead = "; it was saved to ";
    const auto at = r.err.find(lead);
    ASSERT_NE(at, std::string::npos) << r.err;
    const std::string kept =
        r.err.substr(at + lead.size(), r.err.find(' ', at + lead.size()) - at - lead.size());
    EXPECT_EQ(kept.rfind(d + "/nestvp-", 0), 0u) << kept;
    EXPECT_EQ(kept.substr(kept.size() - 5), "-full") << kept;
    const std::string text = test::slurp(kept);
    EXPECT_NE(text.find("\"kvm_guest_exit\""), std::string::npos) << "the whole record";
    EXPECT_TRUE(test::file_exists(d + "/r.csv"));
}

// sweep writes its figures although its CSV failed, and keeps the CSV under $TMPDIR.
TEST(CliConventions, SweepWritesEachOutput) {
    const std::string d = test::fresh_dir("conv-sweep-full");
    const auto r = run_cmd({"/usr/bin/env", "TMPDIR=" + d, nestvp({})[0], "sweep", k_ref, "--grid",
                            "run.seed=1,2", "--set", "run.duration_s=0.01", "--csv", "/dev/full",
                            "--plot", d + "/plots", "-j", "2", "--quiet"},
                           d);
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find("nestvp sweep: /dev/full: write failed: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("; it was saved to " + d + "/nestvp-"), std::string::npos) << r.err;
    EXPECT_TRUE(test::file_exists(d + "/plots/sweep-kvm_guest_exit.svg")) << r.err;
}

}  // namespace
}  // namespace nestvp
