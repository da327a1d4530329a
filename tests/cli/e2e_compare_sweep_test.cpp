// End-to-end: compare, sweep (local and --emit-jobs + GNU parallel + merge).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "cli_test_util.h"
#include "platforms/records/json.h"
#include "platforms/records/run_record.h"

namespace nestvp {
namespace {

using test::nestvp;
using test::run_cmd;

const std::string k_ref = std::string(NESTVP_SOURCE_DIR) + "/platforms/reference.yaml";
const std::string k_short = "run.duration_s=0.2";

TEST(CliE2E, CompareOneFileUnderTwoSettings) {
    const std::string d = test::fresh_dir("e2e-compare");
    const auto r = run_cmd(
        nestvp({"compare", k_ref, "--set", k_short, "--set", "l1.dec_policy=no-cancel", "--vs",
                "l1.dec_policy=cancel", "--json", d + "/c.json", "--plot", d + "/plots"}),
        d);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("| A: l1.dec_policy=no-cancel | B: l1.dec_policy=cancel |"),
              std::string::npos)
        << r.out;
    for (const char* row :
         {"| arithoh count", "| kvm_guest_exit", "| gsb_recv", "| h_guest_run_vcpu",
          "| nested entry latency p50 (ns)", "| nested exit latency p99 (ns)",
          "| l1 handling latency p50 (ns)", "| round trip latency p99 (ns)",
          "| timer interrupt latency p50 (ns)", "| wake latency p99 (ns)", "| exits 0x"})
        EXPECT_NE(r.out.find(row), std::string::npos) << row << "\n" << r.out;
    const json j = parse_json(test::slurp(d + "/c.json"), "c.json");
    ASSERT_TRUE(j.contains("a"));
    ASSERT_TRUE(j.contains("b"));
    ASSERT_TRUE(j.contains("difference_pct"));
    EXPECT_TRUE(j["difference_pct"].contains("kvm_guest_exit"));
    // The two sides really ran under different settings.
    EXPECT_EQ(j["a"]["settings"]["l1.dec_policy"], "no-cancel");
    EXPECT_EQ(j["b"]["settings"]["l1.dec_policy"], "cancel");
    // The latencies travel inside the embedded run records, all six kinds on each side, and
    // each side carries what reproduces it.
    for (const char* side : {"a", "b"}) {
        const json& lat = j[side]["metrics"]["latencies"];
        ASSERT_TRUE(lat.is_object()) << side;
        for (const auto& kind : latency_kinds()) EXPECT_TRUE(lat.contains(kind)) << kind;
        EXPECT_EQ(j[side]["config"]["l1.dec_policy"], side[0] == 'a' ? "no-cancel" : "cancel");
        EXPECT_EQ(j[side]["platform_file"]["sha256"].get<std::string>().size(), 64u);
    }
    for (const char* f : {"exit-rate-a.svg", "exit-rate-b.svg"}) {
        std::string why;
        EXPECT_TRUE(test::xml_well_formed(d + "/plots/" + f, why)) << f << ": " << why;
    }
    // Each side's exit rate names the side.
    EXPECT_NE(test::slurp(d + "/plots/exit-rate-b.svg").find("B: l1.dec_policy=cancel"),
              std::string::npos);
}

// The child processes of `parent` whose command line contains `word` (from /proc/PID/stat's
// ppid and /proc/PID/cmdline).
std::vector<pid_t> children_with(pid_t parent, const std::string& word) {
    std::vector<pid_t> out;
    for (const auto& e : std::filesystem::directory_iterator("/proc")) {
        const std::string name = e.path().filename();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        const std::string stat = test::slurp(e.path() / "stat");
        const auto close = stat.rfind(')');
        if (close == std::string::npos) continue;
        std::istringstream rest(stat.substr(close + 2));
        char state = 0;
        pid_t ppid = 0;
        rest >> state >> ppid;
        if (ppid == parent && test::slurp(e.path() / "cmdline").find(word) != std::string::npos)
            out.push_back(static_cast<pid_t>(std::stol(name)));
    }
    return out;
}

// A side that fails does not lose the other: its summary is printed and --json holds its
// record, with null for the failed side (docs/cmd-compare.md).
TEST(CliE2E, CompareKeepsTheSideThatFinished) {
    const std::string d = test::fresh_dir("e2e-compare-one-side");
    const std::string exe = std::string(NESTVP_BINARY_DIR) + "/nestvp";
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        const int fd = ::open((d + "/out").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ::dup2(fd, 1);
        const int efd = ::open((d + "/err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ::dup2(efd, 2);
        ::execl(exe.c_str(), exe.c_str(), "compare", k_ref.c_str(), "--set", "run.duration_s=0.05",
                "--vs", "run.duration_s=100000", "-j", "2", "--json", (d + "/c.json").c_str(),
                "--quiet", static_cast<char*>(nullptr));
        ::_exit(127);
    }
    // Kill the B side once it runs and A had time to finish (A takes a fraction of a second).
    std::vector<pid_t> b;
    for (int i = 0; i < 100 && b.empty(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        b = children_with(pid, "/b.json");
    }
    ASSERT_EQ(b.size(), 1u);
    std::this_thread::sleep_for(std::chrono::milliseconds(2000));
    ::kill(b[0], SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 1);
    const std::string out = test::slurp(d + "/out");
    EXPECT_NE(out.find("A: run.duration_s=0.05 finished (the other run failed):"),
              std::string::npos)
        << out;
    EXPECT_NE(test::slurp(d + "/err").find("the B run failed (killed by signal 9 (Killed))"),
              std::string::npos)
        << test::slurp(d + "/err");
    const json c = json::parse(test::slurp(d + "/c.json"));
    EXPECT_TRUE(c["b"].is_null());
    EXPECT_TRUE(c["difference_pct"].is_null());
    EXPECT_EQ(parse_run_record(c["a"].dump(), "a").result.sim_seconds, 0.05);
}

TEST(CliE2E, CompareTwoFiles) {
    const std::string d = test::fresh_dir("e2e-compare2");
    const std::string v1 = std::string(NESTVP_SOURCE_DIR) + "/platforms/nestedv1.yaml";
    const auto r = run_cmd(nestvp({"compare", k_ref, v1, "--set", k_short}), d);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("| h_enter_nested"), std::string::npos)
        << r.out;  // v1 uses H_ENTER_NESTED
}

const std::vector<std::string> k_grid = {"--grid", "l1.dec_policy=no-cancel,cancel", "--grid",
                                         "l2.hz=100,250"};

std::vector<std::string> sweep_args(const std::vector<std::string>& extra) {
    std::vector<std::string> a = {"sweep", k_ref, "--set", k_short};
    a.insert(a.end(), k_grid.begin(), k_grid.end());
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
}

TEST(CliE2E, SweepRowsInGridOrderWhateverJ) {
    const std::string d = test::fresh_dir("e2e-sweep-j");
    const auto r1 = run_cmd(nestvp(sweep_args({"-j", "1", "--csv", d + "/j1.csv"})), d);
    ASSERT_EQ(r1.code, 0) << r1.err;
    const auto r2 =
        run_cmd(nestvp(sweep_args({"-j", "2", "--csv", d + "/j2.csv", "--plot", d + "/plots"})), d);
    ASSERT_EQ(r2.code, 0) << r2.err;
    const std::string c1 = test::slurp(d + "/j1.csv");
    EXPECT_EQ(c1, test::slurp(d + "/j2.csv"));
    EXPECT_EQ(test::count_of(c1, "\n"), 5u);  // header + 4 points
    EXPECT_EQ(c1.rfind("l1.dec_policy,l2.hz,sim_seconds,", 0), 0u) << c1;
    const size_t a = c1.find("\nno-cancel,100,"), b = c1.find("\nno-cancel,250,"),
                 c = c1.find("\ncancel,100,"), e = c1.find("\ncancel,250,");
    ASSERT_NE(a, std::string::npos) << c1;
    EXPECT_LT(a, b);
    EXPECT_LT(b, c);
    EXPECT_LT(c, e);
    std::string why;
    ASSERT_TRUE(test::xml_well_formed(d + "/plots/sweep-kvm_guest_exit.svg", why)) << why;
    const std::string svg = test::slurp(d + "/plots/sweep-kvm_guest_exit.svg");
    EXPECT_EQ(test::count_of(svg, "<g id=\"gnuplot_plot_"), 2u);  // one line per l2.hz
    EXPECT_NE(svg.find(">l2.hz=250<"), std::string::npos);
    // Without --csv the CSV goes to stdout.
    const auto r3 = run_cmd(nestvp(sweep_args({"-j", "2"})), d);
    ASSERT_EQ(r3.code, 0) << r3.err;
    EXPECT_EQ(r3.out, c1);
}

TEST(CliE2E, EmitJobsParallelMergeEqualsLocalSweep) {
    const std::string d = test::fresh_dir("e2e-emit");
    const auto local = run_cmd(nestvp(sweep_args({"-j", "2", "--csv", d + "/local.csv"})), d);
    ASSERT_EQ(local.code, 0) << local.err;
    const auto emit = run_cmd(nestvp(sweep_args({"--emit-jobs", d + "/jobs"})), d);
    ASSERT_EQ(emit.code, 0) << emit.err;
    EXPECT_NE(emit.out.find("wrote 4 jobs"), std::string::npos);
    const std::string jobs = test::slurp(d + "/jobs/jobs.txt");
    EXPECT_EQ(test::count_of(jobs, "\n"), 4u);
    EXPECT_EQ(jobs.front(), '/');  // absolute paths: runs from any directory
    // GNU parallel, from another working directory, in any order (--shuf).
    const int rc = std::system(("cd / && parallel --will-cite --shuf -j 2 < '" + d +
                                "/jobs/jobs.txt' > '" + d + "/parallel.log' 2>&1")
                                   .c_str());
    ASSERT_EQ(rc, 0) << test::slurp(d + "/parallel.log");
    const auto merged = run_cmd(
        nestvp({"merge", d + "/jobs", "--csv", d + "/merged.csv", "--plot", d + "/plots"}), d);
    ASSERT_EQ(merged.code, 0) << merged.err;
    EXPECT_EQ(test::slurp(d + "/merged.csv"), test::slurp(d + "/local.csv"));
    std::string why;
    EXPECT_TRUE(test::xml_well_formed(d + "/plots/sweep-arithoh_count.svg", why)) << why;
    // A missing point: named, the other rows still written, exit 1.
    const std::string p2 = d + "/jobs/point-0002.json", kept = test::slurp(p2);
    std::remove(p2.c_str());
    const auto partial = run_cmd(nestvp({"merge", d + "/jobs"}), d);
    EXPECT_EQ(partial.code, 1);
    EXPECT_NE(partial.err.find("point-0002.json"), std::string::npos) << partial.err;
    EXPECT_EQ(test::count_of(partial.out, "\n"), 4u);
    std::ofstream(p2) << kept;
    // A point that a signal stopped (a time limit's SIGTERM): named, its row kept and marked.
    const std::string p1 = d + "/jobs/point-0001.json";
    ASSERT_TRUE(test::mark_partial(p1));
    const auto stopped = run_cmd(nestvp({"merge", d + "/jobs"}), d);
    EXPECT_EQ(stopped.code, 1);
    EXPECT_NE(stopped.err.find(p1 + ": partial: the run was stopped at "), std::string::npos)
        << stopped.err;
    EXPECT_NE(stopped.err.find("1 of 4 points missing, unreadable or partial"), std::string::npos)
        << stopped.err;
    EXPECT_EQ(test::count_of(stopped.out, "\n"), 5u);
    EXPECT_EQ(test::count_of(stopped.out, ",true,"), 1u) << stopped.out;
}

// A second sweep emitted into the folder of a first: the first's points must not be merged
// as the second's results.
TEST(CliE2E, MergeRefusesPointsOfAnotherSweep) {
    const std::string d = test::fresh_dir("e2e-stale");
    const auto emit = [&](const std::string& values) {
        return run_cmd(nestvp({"sweep", k_ref, "--set", "run.duration_s=0.05", "--grid",
                               "l2.vcpus=" + values, "--emit-jobs", d + "/e"}),
                       d);
    };
    ASSERT_EQ(emit("2,3").code, 0);
    ASSERT_EQ(std::system(("sh '" + d + "/e/jobs.txt' > /dev/null 2>&1").c_str()), 0);
    ASSERT_EQ(run_cmd(nestvp({"merge", d + "/e"}), d).code, 0);
    const auto again = emit("5,6");
    ASSERT_EQ(again.code, 0) << again.err;
    EXPECT_NE(again.err.find("warning: " + d + "/e already holds 2 point-*.json"),
              std::string::npos)
        << again.err;
    const auto merged = run_cmd(nestvp({"merge", d + "/e"}), d);
    EXPECT_EQ(merged.code, 2);
    EXPECT_EQ(merged.out, "");
    EXPECT_NE(merged.err.find(d + "/e/point-0000.json: settings differ from sweep.json: "
                                  "l2.vcpus: '2', sweep.json has '5'"),
              std::string::npos)
        << merged.err;
}

TEST(CliE2E, SlurmArrayScriptRunsEachLine) {
    const std::string d = test::fresh_dir("e2e-slurm");
    const std::vector<std::string> grid = {"sweep", k_ref,    "--set",
                                           k_short, "--grid", "l2.hz=100,250"};
    auto local_args = grid;
    local_args.insert(local_args.end(), {"--csv", d + "/local.csv"});
    ASSERT_EQ(run_cmd(nestvp(local_args), d).code, 0);
    auto emit_args = grid;
    emit_args.insert(emit_args.end(), {"--emit-jobs", d + "/jobs"});
    ASSERT_EQ(run_cmd(nestvp(emit_args), d).code, 0);
    const std::string script = std::string(NESTVP_SOURCE_DIR) + "/scripts/sweep-slurm.sbatch";
    // As Slurm runs an array: one task per id, in reverse here.
    for (int task : {1, 0}) {
        const auto r = run_cmd({"/usr/bin/env", "SLURM_ARRAY_TASK_ID=" + std::to_string(task),
                                "bash", script, d + "/jobs"},
                               d);
        ASSERT_EQ(r.code, 0) << r.err;
    }
    const auto bad =
        run_cmd({"/usr/bin/env", "SLURM_ARRAY_TASK_ID=2", "bash", script, d + "/jobs"}, d);
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("has no line 3"), std::string::npos) << bad.err;
    const auto merged = run_cmd(nestvp({"merge", d + "/jobs", "--csv", d + "/merged.csv"}), d);
    ASSERT_EQ(merged.code, 0) << merged.err;
    EXPECT_EQ(test::slurp(d + "/merged.csv"), test::slurp(d + "/local.csv"));
}

// A signal that reaches a point alone (not the sweep) keeps its partial row and fails the sweep.
TEST(CliE2E, SweepPointStoppedAloneFailsTheSweep) {
    const std::string d = test::fresh_dir("e2e-sweep-alone");
    const std::string csv = d + "/s.csv";
    std::vector<bool> alive;
    const auto r = test::run_with_signals(nestvp({"sweep", k_ref, "--set", "run.duration_s=100000",
                                                  "--grid", "l2.hz=100", "--csv", csv, "--quiet"}),
                                          d, {{1000, SIGTERM, true}}, alive);
    ASSERT_EQ(alive, std::vector<bool>{true});
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find("point 0 (l2.hz=100) was stopped by a signal (its record is partial)"),
              std::string::npos)
        << r.err;
    const std::string out = test::slurp(csv);
    EXPECT_EQ(test::count_of(out, "\n"), 2u) << out;
    EXPECT_NE(out.find(",true,"), std::string::npos) << out;  // partial
}

// The same for a side of compare: the table is written, marked partial, and the exit code is 1.
TEST(CliE2E, CompareSideStoppedAloneFailsTheComparison) {
    const std::string d = test::fresh_dir("e2e-compare-alone");
    std::vector<bool> alive;
    const auto r =
        test::run_with_signals(nestvp({"compare", k_ref, "--set", "run.duration_s=100000", "--vs",
                                       "l2.hz=250", "-j", "2"}),
                               d, {{1000, SIGTERM, true}}, alive);
    ASSERT_EQ(alive, std::vector<bool>{true});
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find("the A run was stopped by a signal (its record is partial)"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("the B run was stopped by a signal"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("(PARTIAL: interrupted)"), std::string::npos) << r.out;
}

TEST(CliE2E, SweepSigintWritesFinishedAndPartialRows) {
    const std::string d = test::fresh_dir("e2e-sweep-sigint");
    const std::string csv = d + "/s.csv";
    // Only the sweep gets the signal (not a terminal's whole process group): it stops its points
    // with SIGTERM.
    const auto r =
        test::run_until_signal(nestvp({"sweep", k_ref, "--set", "run.duration_s=100000", "--grid",
                                       "l2.hz=100,250", "-j", "1", "--csv", csv, "--quiet"}),
                               d, 2000);
    EXPECT_EQ(r.code, 130) << r.err;
    const std::string out = test::slurp(csv);
    EXPECT_EQ(test::count_of(out, "\n"), 2u) << out;  // header + the interrupted first point
    EXPECT_NE(out.find("\n100,"), std::string::npos) << out;
    EXPECT_NE(out.find(",true,"), std::string::npos) << out;  // partial
    EXPECT_EQ(out.find("\n250,"), std::string::npos) << out;  // never started
}

}  // namespace
}  // namespace nestvp
