// End-to-end: the built `nestvp` binary, `run` and the command-line contract (docs/cli.md).
// Runs are short (run.duration_s=0.2); assertions are about the tool, not the model's numbers.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>
#include <poll.h>
#include <pty.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include "cli_test_util.h"
#include "platforms/records/run_record.h"
#include "platforms/records/text_files.h"

namespace nestvp {
namespace {

using test::nestvp;
using test::run_cmd;

const std::string k_ref = std::string(NESTVP_SOURCE_DIR) + "/platforms/reference.yaml";
const std::string k_short = "run.duration_s=0.2";

TEST(CliE2E, VersionAndHelp) {
    const std::string d = test::fresh_dir("e2e-help");
    const auto v = run_cmd(nestvp({"--version"}), d);
    EXPECT_EQ(v.code, 0);
    EXPECT_EQ(v.out.rfind("nestvp ", 0), 0u);
    EXPECT_NE(v.out.find("(commit "), std::string::npos) << v.out;  // the build's git commit
    for (const char* cmd : {"run", "compare", "sweep", "merge"}) {
        const auto h = run_cmd(nestvp({cmd, "--help"}), d);
        EXPECT_EQ(h.code, 0) << cmd;
        EXPECT_EQ(h.out.rfind(std::string("usage: nestvp ") + cmd, 0), 0u) << h.out;
        EXPECT_NE(h.out.find("Exit codes"), std::string::npos) << cmd;
    }
    const auto top = run_cmd(nestvp({"--help"}), d);
    for (const char* cmd : {"run", "compare", "sweep", "merge"})
        EXPECT_NE(top.out.find(std::string("  ") + cmd), std::string::npos) << cmd;
}

struct bad_case {
    std::vector<std::string> args;
    std::string message;  // must appear on stderr
};

TEST(CliE2E, BadCommandLinesExit2NamingTheProblem) {
    const std::string d = test::fresh_dir("e2e-bad");
    const std::vector<bad_case> cases = {
        {{"run"}, "no platform file given"},
        {{"run", k_ref, "--bogus"}, "unknown option '--bogus'"},
        {{"run", k_ref, "--json"}, "option '--json' needs a value"},
        {{"run", k_ref, "--set", "novalue"}, "--set: expected key=value, got 'novalue'"},
        {{"run", k_ref, "--set", "l2.no_such_key=1"}, "l2.no_such_key"},
        {{"run", k_ref, "--set", "l1.dec_policy=sometimes"}, "l1.dec_policy"},
        {{"run", k_ref, "--set", "run.duration_s=abc"}, "run.duration_s"},
        {{"run", k_ref, "--trace-window", "1:2"}, "--trace-window needs --trace"},
        {{"run", k_ref, "--trace", d + "/t.vcd", "--trace-window", "2:1"},
         "must be after the start"},
        {{"run", k_ref, "--set", "run.duration_s=1", "--trace", d + "/t.vcd", "--trace-window",
          "1:"},
         "--trace-window: the trace would be empty: it starts at 1 s, not before the run's end "
         "(run.duration_s = 1 s)"},
        {{"run", d + "/missing.yaml"}, "missing.yaml"},
        {{"run", k_ref, k_ref}, "expected one platform file"},
        {{"compare", k_ref}, "--vs"},
        {{"compare", k_ref, "--vs", "l1.dec_policy=cancel", "-j", "abc"},
         "nestvp compare: -j: expected a whole number"},
        {{"sweep", k_ref}, "--grid"},
        {{"sweep", k_ref, "--grid", "l2.hz"}, "--grid: expected key=v1,v2"},
        {{"sweep", k_ref, "--grid", "l2.hz=100", "-j", "0"},
         "nestvp sweep: -j: expected a whole number from 1"},
        {{"run", k_ref, "--quiet=yes"}, "nestvp run: option '--quiet' takes no value"},
        {{"sweep", k_ref, "--grid", "l2.hz=100,zero"}, "point 1 (l2.hz=zero)"},
        {{"merge", d}, "sweep.json"},
        {{"frobnicate"}, "unknown command 'frobnicate'"},
    };
    for (const auto& c : cases) {
        auto args = c.args;
        const auto r = run_cmd(nestvp(args), d);
        std::string joined;
        for (const auto& a : args) joined += a + " ";
        EXPECT_EQ(r.code, 2) << joined << "\nstderr: " << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << joined << "\nstderr: " << r.err;
        EXPECT_EQ(r.out, "") << joined;
    }
}

TEST(CliE2E, UnwritableOutputIsReportedBeforeSimulating) {
    const std::string d = test::fresh_dir("e2e-unwritable");
    // A long run: if the check came after simulating, this test would take minutes.
    // Missing parent folders are created, so the unwritable path lies under a regular file.
    test::run_cmd({"/bin/sh", "-c", "echo x > '" + d + "/a-file'"}, d);
    const std::string bad = d + "/a-file/out.json";
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = run_cmd(
        nestvp({"run", k_ref, "--set", "run.duration_s=100000", "--json", bad, "--quiet"}), d);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--json " + bad + ": cannot write"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 30.0);
    const auto c = run_cmd(nestvp({"run", k_ref, "--csv", d}), d);  // a directory
    EXPECT_EQ(c.code, 2);
    EXPECT_NE(c.err.find("is a directory"), std::string::npos) << c.err;
    // An output the platform file names is reported under its key, not a flag never given.
    write_text_file(d + "/outs.yaml",
                    "include: " + k_ref + "\nrun: {outputs: {json: " + d + "}}\n");
    const auto f = run_cmd(nestvp({"run", d + "/outs.yaml"}), d);
    EXPECT_EQ(f.code, 2);
    EXPECT_NE(f.err.find("nestvp run: run.outputs.json " + d + ": cannot write: is a directory"),
              std::string::npos)
        << f.err;
}

TEST(CliE2E, DumpConfigPrintsAndDoesNotRun) {
    const std::string d = test::fresh_dir("e2e-dump");
    const auto r = run_cmd(
        nestvp({"run", k_ref, "--set", "l2.hz=250", "--dump-config", "--json", d + "/x.json"}), d);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("hz: 250"), std::string::npos);
    EXPECT_FALSE(test::file_exists(d + "/x.json"));
}

TEST(CliE2E, RunWritesTableJsonCsvAndIsDeterministic) {
    const std::string d = test::fresh_dir("e2e-run");
    const auto r1 =
        run_cmd(nestvp({"run", k_ref, "--set", k_short, "--set", "l1.dec_policy=no-cancel",
                        "--json", d + "/a.json", "--csv", d + "/a.csv"}),
                d);
    ASSERT_EQ(r1.code, 0) << r1.err;
    for (const char* s : {"platform reference", "kvm_guest_exit", "simulated s per wall s",
                          "SystemC events per wall s", "counters L1"})
        EXPECT_NE(r1.out.find(s), std::string::npos) << s << "\n" << r1.out;
    const std::string j1 = test::slurp(d + "/a.json");
    const run_record rec = parse_run_record(j1, "a.json");
    EXPECT_EQ(rec.platform, "reference");
    ASSERT_EQ(rec.settings.size(), 2u);
    EXPECT_EQ(rec.settings[1].second, "no-cancel");
    EXPECT_NEAR(rec.result.sim_seconds, 0.2, 1e-9);
    EXPECT_FALSE(rec.result.partial);
    EXPECT_GT(rec.result.metrics.kvm_guest_exit, 0u);
    const std::string csv = test::slurp(d + "/a.csv");
    EXPECT_EQ(test::count_of(csv, "\n"), 2u);
    EXPECT_EQ(csv.rfind("run.duration_s,l1.dec_policy,sim_seconds,", 0), 0u) << csv;
    // Same file and seed: byte-identical JSON apart from the wall time.
    const auto r2 = run_cmd(nestvp({"run", k_ref, "--set", k_short, "--set",
                                    "l1.dec_policy=no-cancel", "--json", d + "/b.json", "--quiet"}),
                            d);
    ASSERT_EQ(r2.code, 0) << r2.err;
    EXPECT_EQ(test::without_wall(j1), test::without_wall(test::slurp(d + "/b.json")));
}

// L1 memory grows with the vCPUs' run buffers: past 48 vCPUs (4 MiB) every vCPU still enters
// L2 (its buffers used to lie outside memory, and set-up failed with SystemC's error text).
TEST(CliE2E, RunsMoreVcpusThanFourMebibytesHold) {
    const std::string d = test::fresh_dir("e2e-many-vcpus");
    const auto r =
        run_cmd(nestvp({"run", k_ref, "--set", "run.duration_s=0.01", "--set", "machine.cores=8",
                        "--set", "l2.vcpus=64", "--json", d + "/r.json", "--quiet"}),
                d);
    ASSERT_EQ(r.code, 0) << r.err;
    const json m = json::parse(test::slurp(d + "/r.json"))["metrics"];
    ASSERT_EQ(m["vcpus"].size(), 64u);
    for (const auto& [v, counters] : m["vcpus"].items())
        EXPECT_GT(counters.value("l0.l2_entries", 0), 0) << "vCPU " << v;
}

// Work longer than SystemC's time can hold never ends within the run, which stops on time: a
// 1e9-cycle cost at 50 Hz, or an SMT speed of 1e-15, used to wrap the time around and spin
// forever (`timeout` turns such a hang into a failure).
TEST(CliE2E, WorkLongerThanAnyRunNeverEnds) {
    const std::string d = test::fresh_dir("e2e-never-ends");
    const std::vector<std::vector<std::string>> sets = {
        {"machine.core.clock_hz=50", "l0.costs.guest_create=1000000000"},
        {"machine.core.smt_speed=[1e-15,1e-15,1e-15,1e-15,1e-15,1e-15,1e-15,1e-15]"}};
    for (const auto& s : sets) {
        std::vector<std::string> args = {"run",    k_ref,         "--set",  "run.duration_s=0.05",
                                         "--json", d + "/r.json", "--quiet"};
        for (const auto& kv : s) args.insert(args.end(), {"--set", kv});
        std::vector<std::string> cmd = {"/usr/bin/timeout", "60"};
        for (const auto& a : nestvp(args)) cmd.push_back(a);
        const auto r = run_cmd(cmd, d);
        ASSERT_EQ(r.code, 0) << s[0] << "\n" << r.err;
        const run_record rec = parse_run_record(test::slurp(d + "/r.json"), "r.json");
        EXPECT_EQ(rec.result.sim_seconds, 0.05) << s[0];
        EXPECT_EQ(rec.result.metrics.kvm_guest_exit, 0u) << s[0];
    }
}

// A record carries what re-runs it: `run --from` reproduces it, from the platform file while
// it is unchanged and from the embedded merged configuration once it changed.
TEST(CliE2E, RunFromARecordReproducesIt) {
    const std::string d = test::fresh_dir("e2e-from");
    ASSERT_EQ(std::system(("cp -r '" + std::string(NESTVP_SOURCE_DIR) + "/platforms/cores' '" +
                           k_ref + "' '" + d + "/'")
                              .c_str()),
              0);
    const auto r = run_cmd(nestvp({"run", d + "/reference.yaml", "--set", "run.duration_s=0.05",
                                   "--set", "l2.vcpus=2", "--json", d + "/a.json", "--quiet"}),
                           d);
    ASSERT_EQ(r.code, 0) << r.err;
    const run_record a = parse_run_record(test::slurp(d + "/a.json"), "a.json");
    EXPECT_EQ(a.schema_version, k_record_schema);
    EXPECT_EQ(a.seed, 1u);
    EXPECT_EQ(a.platform_sha256.size(), 64u);
    EXPECT_EQ(a.config["l2.vcpus"], 2);
    EXPECT_TRUE(a.config["l0.costs.hcall_entry"].contains("source")) << a.config.dump();
    // Each key's kind travels with the record: the file's stated ones, --set, defaults.
    ASSERT_TRUE(a.provenance.is_object());
    EXPECT_EQ(a.provenance["l2.housekeeping_hz"]["kind"], "calibrated");
    EXPECT_EQ(a.provenance["l2.housekeeping_hz"]["calibrated_on"],
              json::parse(R"({"metric": "kvm_guest_exit", "policy": "cancel"})"));
    EXPECT_EQ(a.provenance["workload.costs.arithoh_iteration"]["calibrated_on"]["metric"],
              "arithoh_count");
    EXPECT_EQ(a.provenance["l2.vcpus"]["kind"], "set");  // --set l2.vcpus=2 above
    EXPECT_EQ(a.provenance["machine.core.smt_low_priority_share"]["kind"], "assumed");
    EXPECT_EQ(a.provenance["machine.core.smt_low_priority_share"]["range"][1], 0.5);
    EXPECT_EQ(a.provenance["l0.costs.gsb_element"]["kind"], "assumed");
    EXPECT_EQ(a.provenance["l0.costs.hcall_entry"]["kind"], "sourced");
    EXPECT_EQ(a.provenance["run.run_ahead"]["kind"], "default");
    // Codes carry their names with their numbers.
    EXPECT_GT(a.result.metrics.exits_by_reason.count("0x980 HDEC"), 0u);
    EXPECT_GT(a.result.metrics.counters.count("l0.hcall.H_GUEST_RUN_VCPU (0x480)"), 0u);
    const auto same = run_cmd(nestvp({"run", "--from", d + "/a.json", "--quiet"}), d);
    EXPECT_EQ(same.code, 0) << same.err;
    EXPECT_NE(same.err.find("reproduced"), std::string::npos) << same.err;
    // An included file changed under the same top file: the merged configuration differs.
    ASSERT_EQ(
        std::system(
            ("sed -i 's/value: 3.0e9/value: 3.5e9/' '" + d + "/cores/power10-smt8.yaml'").c_str()),
        0);
    const auto included = run_cmd(nestvp({"run", "--from", d + "/a.json", "--quiet"}), d);
    EXPECT_EQ(included.code, 0) << included.err;
    EXPECT_NE(included.err.find("now merges to another configuration (machine.core.clock_hz: "
                                "3000000000 != 3500000000)"),
              std::string::npos)
        << included.err;
    // The file changed: the record's merged configuration runs, and says so.
    ASSERT_EQ(std::system(("echo '# edited' >> '" + d + "/reference.yaml'").c_str()), 0);
    const auto changed =
        run_cmd(nestvp({"run", "--from", d + "/a.json", "--json", d + "/b.json", "--quiet"}), d);
    EXPECT_EQ(changed.code, 0) << changed.err;
    EXPECT_NE(changed.err.find("SHA-256 differs"), std::string::npos) << changed.err;
    EXPECT_EQ(test::without_wall(test::slurp(d + "/b.json")),
              test::without_wall(test::slurp(d + "/a.json")));
    // A record that does not match its re-run: exit 1 naming the first differing field.
    std::string t = test::slurp(d + "/a.json");
    const size_t at = t.find("\"kvm_guest_exit\": ");
    ASSERT_NE(at, std::string::npos);
    t.insert(at + 18, "9");
    write_text_file(d + "/c.json", t);
    const auto differs = run_cmd(nestvp({"run", "--from", d + "/c.json", "--quiet"}), d);
    EXPECT_EQ(differs.code, 1);
    EXPECT_NE(differs.err.find("not reproduced: metrics.kvm_guest_exit: 9"), std::string::npos)
        << differs.err;
}

TEST(CliE2E, RunPlotsAreWellFormedSvg) {
    const std::string d = test::fresh_dir("e2e-plot");
    const auto r = run_cmd(nestvp({"run", k_ref, "--set", k_short, "--plot", d + "/plots"}), d);
    ASSERT_EQ(r.code, 0) << r.err;
    std::string why;
    EXPECT_TRUE(test::xml_well_formed(d + "/plots/exit-rate.svg", why)) << why;
    const std::string er = test::slurp(d + "/plots/exit-rate.svg");
    EXPECT_GE(test::count_of(er, "<g id=\"gnuplot_plot_"), 1u);
    EXPECT_NE(er.find(">vCPU 0 ("), std::string::npos);
    EXPECT_TRUE(test::file_exists(d + "/plots/exit-rate.gp"));  // the script that drew it
    // Latency figures exist only for kinds the run measured (entry and exit always are); each
    // one is well formed.
    EXPECT_TRUE(test::file_exists(d + "/plots/cdf-nested_entry_latency_ns.svg"));
    EXPECT_TRUE(test::file_exists(d + "/plots/breakdown-nested_exit_latency_ns.svg"));
    for (const auto& kind : latency_kinds())
        for (const std::string& f : {"cdf-" + kind + ".svg", "breakdown-" + kind + ".svg"})
            if (test::file_exists(d + "/plots/" + f)) {
                EXPECT_TRUE(test::xml_well_formed(d + "/plots/" + f, why)) << f << ": " << why;
            }
}

// --plot needs gnuplot. Without one on PATH it is refused before anything runs; when gnuplot
// fails after the run, the record is written and each figure not drawn is named.
TEST(CliE2E, RunPlotsNeedAWorkingGnuplot) {
    const std::string d = test::fresh_dir("e2e-plot-gnuplot");
    std::vector<std::string> argv =
        nestvp({"run", k_ref, "--set", k_short, "--json", d + "/r.json", "--plot", d + "/scripts"});
    argv.insert(argv.begin(), {"/usr/bin/env", "PATH=/nonexistent"});
    const auto expect_failure = [&](int code, const std::string& message) {
        const auto r = run_cmd(argv, d);
        EXPECT_EQ(r.code, code) << r.err;
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    };
    expect_failure(2, "nestvp run: --plot " + d +
                          "/scripts: gnuplot not found on PATH (Debian package gnuplot-nox)");
    EXPECT_FALSE(test::file_exists(d + "/r.json"));

    ::mkdir((d + "/bin").c_str(), 0755);
    write_text_file(d + "/bin/gnuplot", "#!/bin/sh\necho 'cannot draw' >&2\nexit 1\n");
    ASSERT_EQ(::chmod((d + "/bin/gnuplot").c_str(), 0755), 0);
    argv[1] = "PATH=" + d + "/bin:" + std::getenv("PATH");
    expect_failure(1, "nestvp run: figures not drawn:\n  " + d +
                          "/scripts/cdf-nested_entry_latency_ns.gp: gnuplot exited with 1: "
                          "cannot draw");
    EXPECT_TRUE(test::file_exists(d + "/r.json"));
    EXPECT_TRUE(test::file_exists(d + "/scripts/exit-rate.gp"));
    EXPECT_FALSE(test::file_exists(d + "/scripts/exit-rate.svg"));

    // A limit that is not a positive number of seconds is refused before anything runs.
    for (const char* bad : {"abc", "0", "-1", "1e999", "5s"}) {
        argv.insert(argv.begin() + 2, std::string("NESTVP_GNUPLOT_TIMEOUT_S=") + bad);
        std::remove((d + "/r.json").c_str());
        expect_failure(2, "nestvp run: --plot " + d + "/scripts: NESTVP_GNUPLOT_TIMEOUT_S='" + bad +
                              "': expected a positive number of seconds");
        EXPECT_FALSE(test::file_exists(d + "/r.json")) << bad;
        argv.erase(argv.begin() + 2);
    }

    // A gnuplot that hangs is stopped after NESTVP_GNUPLOT_TIMEOUT_S; the record is kept.
    write_text_file(d + "/bin/gnuplot", "#!/bin/sh\nexec sleep 30\n");
    argv.insert(argv.begin() + 2, "NESTVP_GNUPLOT_TIMEOUT_S=0.2");
    std::remove((d + "/r.json").c_str());
    expect_failure(1, "/scripts/exit-rate.gp: gnuplot did not finish within 0.2 s and was stopped");
    EXPECT_TRUE(test::file_exists(d + "/r.json"));
    EXPECT_FALSE(test::file_exists(d + "/scripts/exit-rate.svg"));
}

// The SIGINT that stops the run does not stop --plot: the partial run's figures are drawn.
TEST(CliE2E, SigintWritesPartialMetricsAndExits130) {
    const std::string d = test::fresh_dir("e2e-sigint");
    const std::string json = d + "/p.json";
    const auto r =
        test::run_until_signal(nestvp({"run", k_ref, "--set", "run.duration_s=100000", "--json",
                                       json, "--plot", d + "/plots", "--quiet"}),
                               d, 1500);
    EXPECT_EQ(r.code, 130) << r.err;
    const run_record rec = parse_run_record(test::slurp(json), json);
    EXPECT_TRUE(rec.result.partial);
    EXPECT_LT(rec.result.sim_seconds, 100000.0);
    EXPECT_NE(r.out.find("PARTIAL"), std::string::npos);
    EXPECT_TRUE(test::file_exists(d + "/plots/exit-rate.svg"));
    EXPECT_TRUE(test::file_exists(d + "/plots/cdf-nested_exit_latency_ns.svg"));
}

// SIGTERM (a batch system's stop) and SIGHUP (a closed terminal) stop a run as SIGINT does.
TEST(CliE2E, SigtermAndSighupWritePartialMetricsAndExit130) {
    for (const int sig : {SIGTERM, SIGHUP}) {
        const std::string d = test::fresh_dir("e2e-signal-" + std::to_string(sig));
        const std::string json = d + "/p.json";
        const auto r = test::run_until_signal(
            nestvp({"run", k_ref, "--set", "run.duration_s=100000", "--json", json, "--quiet"}), d,
            1000, sig);
        EXPECT_EQ(r.code, 130) << "signal " << sig << ": " << r.err;
        const run_record rec = parse_run_record(test::slurp(json), json);
        EXPECT_TRUE(rec.result.partial) << "signal " << sig;
        EXPECT_NE(r.out.find("PARTIAL"), std::string::npos) << "signal " << sig;
    }
}

// Under nohup a hang-up is ignored, and stays ignored: the run goes on to its end.
TEST(CliE2E, AnIgnoredSighupStaysIgnored) {
    const std::string d = test::fresh_dir("e2e-nohup");
    const std::string json = d + "/r.json";
    std::vector<bool> alive;
    // 20 s simulated take over a second here, and longer in sanitizer builds.
    const auto r = test::run_with_signals({"/usr/bin/nohup", nestvp({})[0], "run", k_ref, "--set",
                                           "run.duration_s=20", "--json", json, "--quiet"},
                                          d, {{300, SIGHUP}}, alive);
    ASSERT_EQ(alive, std::vector<bool>{true}) << "the run ended before the hang-up";
    EXPECT_EQ(r.code, 0) << r.err;
    const run_record rec = parse_run_record(test::slurp(json), json);
    EXPECT_FALSE(rec.result.partial);
    EXPECT_EQ(rec.result.sim_seconds, 20.0);
}

// A SIGINT partial run whose JSON could not be written says so, and exits 130; its CSV is kept.
TEST(CliE2E, SigintWithALostOutputNamesIt) {
    const std::string d = test::fresh_dir("e2e-sigint-lost");
    const auto r = test::run_until_signal(
        {"/usr/bin/env", "TMPDIR=" + d, nestvp({})[0], "run", k_ref, "--set",
         "run.duration_s=100000", "--json", "/dev/full", "--csv", d + "/r.csv", "--quiet"},
        d, 1000);
    EXPECT_EQ(r.code, 130) << r.err;
    EXPECT_NE(r.err.find("nestvp run: /dev/full: write failed: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("partial results written except as said above"), std::string::npos)
        << r.err;
    EXPECT_TRUE(test::file_exists(d + "/r.csv"));
}

// Runs `nestvp ARGS` with stderr on a pseudo-terminal for about wall_s seconds, then
// SIGINT; returns what appeared on the terminal.
std::string tty_stderr_of(std::vector<std::string> args, double wall_s) {
    const std::string exe = std::string(NESTVP_BINARY_DIR) + "/nestvp";
    args.insert(args.begin(), exe);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    int master = -1, slave = -1;
    if (::openpty(&master, &slave, nullptr, nullptr, nullptr) != 0) return "openpty failed";
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::signal(SIGINT, SIG_DFL);  // whatever the test runner was started with
        ::dup2(slave, 2);
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, 1);
        ::close(master);
        ::execv(exe.c_str(), argv.data());
        ::_exit(127);
    }
    ::close(slave);
    std::string seen;
    const auto t0 = std::chrono::steady_clock::now();
    bool signalled = false;
    for (;;) {
        const double t =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!signalled && t > wall_s) {
            ::kill(pid, SIGINT);
            signalled = true;
        }
        if (t > wall_s + 60) break;  // safety: the child ignored SIGINT
        pollfd p{master, POLLIN, 0};
        if (::poll(&p, 1, 100) > 0) {
            char buf[512];
            const ssize_t n = ::read(master, buf, sizeof buf);
            if (n <= 0) break;  // the child closed the terminal (exited)
            seen.append(buf, static_cast<size_t>(n));
        }
    }
    int status = 0;
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    ::close(master);
    return seen;
}

// A long `nestvp run` on a terminal (tty_stderr_of).
std::string stderr_on_tty(const std::vector<std::string>& extra, double wall_s) {
    std::vector<std::string> args = {"run", k_ref, "--set", "run.duration_s=100000"};
    args.insert(args.end(), extra.begin(), extra.end());
    return tty_stderr_of(args, wall_s);
}

TEST(CliE2E, ProgressOnATerminalAfterTwoSeconds) {
    // Simulated time done, rate and ETA, on stderr, only on a TTY.
    const std::string tty = stderr_on_tty({}, 3.5);
    EXPECT_NE(tty.find("simulated "), std::string::npos) << tty;
    EXPECT_NE(tty.find(" of 100000.00 s"), std::string::npos) << tty;
    EXPECT_NE(tty.find("sim s/wall s, ETA "), std::string::npos) << tty;
    EXPECT_NE(tty.find("interrupted at"), std::string::npos) << tty;
    // --quiet silences it.
    const std::string quiet = stderr_on_tty({"--quiet"}, 3.5);
    EXPECT_EQ(quiet.find("ETA"), std::string::npos) << quiet;
    // Not a terminal: no progress (stderr to a file).
    const std::string d = test::fresh_dir("e2e-progress-file");
    const auto r = run_cmd(nestvp({"run", k_ref, "--set", k_short}), d);
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.err.find("ETA"), std::string::npos) << r.err;
}

TEST(CliE2E, SweepAndCompareProgressWhilePointsRun) {
    // The line moves while points run (before any finishes), with a percentage and an ETA;
    // points stopped by SIGINT are not counted as done.
    const std::string sweep = tty_stderr_of(
        {"sweep", k_ref, "--set", "run.duration_s=100000", "--grid", "l2.hz=100,250", "-j", "2"},
        3.5);
    EXPECT_NE(sweep.find("sweep: 0 of 2 points done, 2 running, "), std::string::npos) << sweep;
    EXPECT_NE(sweep.find("%, ETA "), std::string::npos) << sweep;
    EXPECT_EQ(sweep.find("2 of 2 points done"), std::string::npos) << sweep;
    EXPECT_EQ(sweep.find("1 of 2 points done"), std::string::npos) << sweep;
    const std::string cmp = tty_stderr_of(
        {"compare", k_ref, "--set", "run.duration_s=100000", "--vs", "l1.dec_policy=cancel"}, 3.5);
    EXPECT_NE(cmp.find("compare: 0 of 2 sides done, 2 running, "), std::string::npos) << cmp;
    EXPECT_NE(cmp.find("%, ETA "), std::string::npos) << cmp;
}

// --log l1=debug: one line per L1 run-loop pass on stderr, stdout untouched; none by default.
TEST(CliE2E, LogL1DebugPrintsOneLinePerExit) {
    const std::string d = test::fresh_dir("log");
    const auto lines_of = [](const std::string& s, const std::string& prefix) {
        size_t n = 0, at = 0;
        while ((at = s.find(prefix, at)) != std::string::npos) ++n, at += prefix.size();
        return n;
    };
    const test::cmd_result on =
        run_cmd(nestvp({"run", k_ref, "--quiet", "--set", "run.duration_s=0.01", "--log",
                        "l1=debug", "--json", d + "/on.json"}),
                d);
    ASSERT_EQ(on.code, 0) << on.err;
    const run_record rec = parse_run_record(test::slurp(d + "/on.json"), "on.json");
    EXPECT_GT(rec.result.metrics.kvm_guest_exit, 50u);
    EXPECT_EQ(lines_of(on.err, "nestvp/l1: "), rec.result.metrics.kvm_guest_exit);
    EXPECT_EQ(lines_of(on.out, "nestvp/l1: "), 0u);
    const test::cmd_result off =
        run_cmd(nestvp({"run", k_ref, "--quiet", "--set", "run.duration_s=0.01"}), d);
    ASSERT_EQ(off.code, 0);
    EXPECT_EQ(lines_of(off.err, "nestvp/"), 0u);
    const test::cmd_result bad = run_cmd(nestvp({"run", k_ref, "--log", "l1=loud"}), d);
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("nestvp run: --log l1=loud: level 'loud'"), std::string::npos);
}

}  // namespace
}  // namespace nestvp

namespace nestvp {
namespace {

// `params --platform FILE` shows that platform's values, not the schema's defaults.
TEST(CliE2E, ParamsShowAPlatformsValues) {
    const std::string d = test::fresh_dir("params-platform");
    const test::cmd_result def = run_cmd(nestvp({"params", "l2.vcpus"}), d);
    ASSERT_EQ(def.code, 0) << def.err;
    EXPECT_NE(def.out.find("DEFAULT"), std::string::npos);
    EXPECT_NE(def.out.find("integer   4 "), std::string::npos) << def.out;
    const test::cmd_result ref = run_cmd(nestvp({"params", "l2.vcpus", "--platform", k_ref}), d);
    ASSERT_EQ(ref.code, 0) << ref.err;
    EXPECT_NE(ref.out.find("VALUE"), std::string::npos);
    EXPECT_NE(ref.out.find("integer   8 "), std::string::npos) << ref.out;  // reference.yaml
    const test::cmd_result set =
        run_cmd(nestvp({"params", "l2.vcpus", "--platform", k_ref, "--set", "l2.vcpus=5"}), d);
    EXPECT_NE(set.out.find("integer   5 "), std::string::npos) << set.out;
    EXPECT_EQ(run_cmd(nestvp({"params", "--set", "l2.vcpus=5"}), d).code, 2);
    // A calibrated value shows the figure it was set from.
    const test::cmd_result cal = run_cmd(nestvp({"params", "--platform", k_ref}), d);
    EXPECT_NE(cal.out.find("[calibrated on kvm_guest_exit, cancel: "), std::string::npos)
        << cal.out;
    EXPECT_NE(cal.out.find("[calibrated on arithoh_count, cancel]"), std::string::npos) << cal.out;
}

// Every module logs with the simulated time and its name; compare's and sweep's children name
// their side or point. A line "nestvp/MOD: [prefix]T ms ..." with T a number.
bool has_timed_line(const std::string& err, const std::string& module, const std::string& prefix) {
    const std::string head = "nestvp/" + module + ": " + prefix;
    for (size_t at = err.find(head); at != std::string::npos; at = err.find(head, at + 1)) {
        const size_t t = at + head.size();
        char* end = nullptr;
        std::strtod(err.c_str() + t, &end);
        if (end != err.c_str() + t && std::string(end).rfind(" ms ", 0) == 0) return true;
    }
    return false;
}

TEST(CliE2E, LogEveryModuleWithSimulatedTimeAndChildPrefixes) {
    const std::string d = test::fresh_dir("log_modules");
    const test::cmd_result run =
        run_cmd(nestvp({"run", k_ref, "--quiet", "--set", "run.duration_s=0.002", "--log",
                        "l0=debug", "--log", "timer=debug", "--log", "l2=debug", "--log",
                        "thread=debug", "--log", "l1=trace"}),
                d);
    ASSERT_EQ(run.code, 0) << run.err;
    for (const char* m : {"l0", "timer", "l2", "thread", "l1"})
        EXPECT_TRUE(has_timed_line(run.err, m, "")) << m << "\n" << run.err.substr(0, 2000);
    EXPECT_NE(run.err.find("GET_STATE"), std::string::npos);  // l1=trace: each GET_STATE
    EXPECT_NE(run.err.find(": idle, "), std::string::npos);   // l2: the idle choice
    const test::cmd_result cmp =
        run_cmd(nestvp({"compare", k_ref, "--quiet", "--set", "run.duration_s=0.002", "--vs",
                        "l1.dec_policy=no-cancel", "--log", "l1=debug"}),
                d);
    ASSERT_EQ(cmp.code, 0) << cmp.err;
    EXPECT_TRUE(has_timed_line(cmp.err, "l1", "a: "));
    EXPECT_TRUE(has_timed_line(cmp.err, "l1", "b: "));
    const test::cmd_result sw =
        run_cmd(nestvp({"sweep", k_ref, "--quiet", "--set", "run.duration_s=0.002", "--grid",
                        "l1.hz=100,250", "--log", "l0=debug"}),
                d);
    ASSERT_EQ(sw.code, 0) << sw.err;
    EXPECT_TRUE(has_timed_line(sw.err, "l0", "point 0: "));
    EXPECT_TRUE(has_timed_line(sw.err, "l0", "point 1: "));
    const test::cmd_result bad =
        run_cmd(nestvp({"sweep", k_ref, "--grid", "l1.hz=100", "--log", "l7=debug"}), d);
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("nestvp sweep: --log l7=debug: module 'l7'"), std::string::npos);
}

}  // namespace
}  // namespace nestvp
