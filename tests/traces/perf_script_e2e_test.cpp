// `nestvp run --perf-script` read back by `nestvp trace-stats`, and `compare --results`,
// through the built binary (docs/perf-script.md, docs/cmd-trace-stats.md).
#include <gtest/gtest.h>

#include <fstream>

#include "platforms/records/json.h"
#include "tests/cli/cli_test_util.h"

namespace {

using nestvp::json;
using nestvp::parse_json;
using namespace nestvp::test;

const std::string k_reference = std::string(NESTVP_SOURCE_DIR) + "/platforms/reference.yaml";

json load(const std::string& path) {
    return parse_json(slurp(path), path);
}

// The round trip: a 1 s reference run, no window; every count of the record comes back.
TEST(perf_script, a_run_read_back_gives_the_records_counts) {
    const std::string dir = fresh_dir("perf_round_trip");
    const auto run =
        run_cmd(nestvp::test::nestvp({"run", k_reference, "--set", "run.duration_s=1", "--json",
                                      dir + "/r.json", "--perf-script", dir + "/p.txt", "--quiet"}),
                dir);
    ASSERT_EQ(run.code, 0) << run.err;
    const auto st = run_cmd(
        nestvp::test::nestvp({"trace-stats", dir + "/p.txt", "--json", dir + "/s.json"}), dir);
    ASSERT_EQ(st.code, 0) << st.err;
    const json rec = load(dir + "/r.json"), s = load(dir + "/s.json");
    const json& m = rec["metrics"];
    ASSERT_GT(m["kvm_guest_exit"].get<uint64_t>(), 1000u);
    EXPECT_EQ(s["events"]["kvm_hv:kvm_guest_exit"], m["kvm_guest_exit"]);
    EXPECT_EQ(s["events"]["probe:kvmppc_gsb_recv"], m["gsb_recv"]);
    EXPECT_EQ(s["lines"]["malformed"], 0);
    EXPECT_EQ(s["hcalls_by_opcode"]["0x478"], m["h_guest_get_state"]);
    EXPECT_EQ(s["hcalls_by_opcode"]["0x480"], m["h_guest_run_vcpu"]);
    uint64_t traps = 0;
    for (const auto& [k, n] : s["exits_by_trap"].items()) traps += n.get<uint64_t>();
    EXPECT_EQ(traps, m["kvm_guest_exit"].get<uint64_t>());
    EXPECT_EQ(s["exits_by_trap"]["HV_DECREMENTER"], m["kvm_guest_exit_by_trap"]["0x980 HDEC"]);
    for (const auto& [v, counters] : m["vcpus"].items())
        EXPECT_EQ(s["exits_by_vcpu"][v], counters["l1.guest_exits"]) << "vCPU " << v;
    // The table names the seed's two rows.
    EXPECT_NE(st.out.find("kvm_hv:kvm_guest_exit"), std::string::npos);
    EXPECT_NE(st.out.find("probe:kvmppc_gsb_recv"), std::string::npos);
    // compare --results puts the record beside the trace: the same counts, per second.
    const auto cmp =
        run_cmd(nestvp::test::nestvp({"compare", "--results", dir + "/r.json", dir + "/s.json",
                                      "--names", "model,trace", "--json", dir + "/c.json"}),
                dir);
    ASSERT_EQ(cmp.code, 0) << cmp.err;
    EXPECT_NE(cmp.out.find("model: " + dir + "/r.json (run-record"), std::string::npos) << cmp.out;
    const json c = load(dir + "/c.json");
    EXPECT_EQ(c["a"]["events"]["kvm_hv:kvm_guest_exit"], c["b"]["events"]["kvm_hv:kvm_guest_exit"]);
    EXPECT_EQ(c["a"]["source"]["format"], "run-record");
}

// Tracing changes nothing the record says, and a window keeps only its events.
TEST(perf_script, tracing_leaves_the_record_alone_and_the_window_bounds_it) {
    const std::string dir = fresh_dir("perf_window");
    const std::vector<std::string> base = {
        "run",    k_reference, "--set", "run.duration_s=0.2", "--set", "l1.dec_policy=no-cancel",
        "--quiet"};
    auto with = base, without = base;
    with.insert(with.end(), {"--json", dir + "/a.json", "--perf-script", dir + "/p.txt",
                             "--perf-window", "0.05:0.1"});
    without.insert(without.end(), {"--json", dir + "/b.json"});
    ASSERT_EQ(run_cmd(nestvp::test::nestvp(with), dir).code, 0);
    ASSERT_EQ(run_cmd(nestvp::test::nestvp(without), dir).code, 0);
    EXPECT_EQ(without_wall(slurp(dir + "/a.json")), without_wall(slurp(dir + "/b.json")));
    std::ifstream in(dir + "/p.txt");
    std::string line;
    size_t events = 0;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        const auto colon = line.find(": ");
        const double t = std::stod(line.substr(line.rfind(' ', colon) + 1));
        EXPECT_GE(t, 0.05);
        EXPECT_LE(t, 0.1);
        ++events;
    }
    EXPECT_GT(events, 100u);
}

TEST(trace_stats_cli, malformed_lines_are_named_and_strict_exits_1) {
    const std::string dir = fresh_dir("trace_stats_bad");
    {
        std::ofstream f(dir + "/t.txt");
        f << "# header\n"
             "       CPU 0/KVM  1001 [000]     1.000000000: kvm_hv:kvm_guest_exit: VCPU 0: "
             "trap=HV_DECREMENTER pc=0x0 msr=0x0, ceded=0\n"
             "garbage here\n";
    }
    const auto lax = run_cmd(nestvp::test::nestvp({"trace-stats", dir + "/t.txt"}), dir);
    EXPECT_EQ(lax.code, 0) << lax.err;
    EXPECT_NE(lax.err.find("t.txt:3: malformed line skipped"), std::string::npos) << lax.err;
    EXPECT_NE(lax.err.find("1 malformed line skipped of 3"), std::string::npos) << lax.err;
    const auto strict =
        run_cmd(nestvp::test::nestvp({"trace-stats", dir + "/t.txt", "--strict"}), dir);
    EXPECT_EQ(strict.code, 1);
    EXPECT_NE(strict.err.find("t.txt:3:"), std::string::npos) << strict.err;
    {
        std::ofstream f(dir + "/none.txt");
        f << "# nothing\nnot a line\n";
    }
    const auto none = run_cmd(nestvp::test::nestvp({"trace-stats", dir + "/none.txt"}), dir);
    EXPECT_EQ(none.code, 1);
    EXPECT_NE(none.err.find("no event line"), std::string::npos) << none.err;
    EXPECT_EQ(run_cmd(nestvp::test::nestvp({"trace-stats", dir + "/missing.txt"}), dir).code, 1);
    EXPECT_EQ(
        run_cmd(nestvp::test::nestvp({"trace-stats", dir + "/t.txt", "--bin", "0"}), dir).code, 2);
    EXPECT_EQ(run_cmd(nestvp::test::nestvp({"trace-stats"}), dir).code, 2);
    EXPECT_EQ(run_cmd(nestvp::test::nestvp({"compare", "--results", dir + "/t.txt"}), dir).code, 2);
    EXPECT_EQ(run_cmd(nestvp::test::nestvp({"run", k_reference, "--perf-window", "0:1"}), dir).code,
              2);
}

}  // namespace
