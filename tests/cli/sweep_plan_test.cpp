// Sweep plans: grid order, the job file for clusters, the manifest, merging points.
#include <gtest/gtest.h>

#include <stdexcept>
#include "cli_test_util.h"
#include "platforms/analysis/sweep_plan.h"
#include "platforms/processes/child_procs.h"
#include "platforms/records/text_files.h"
#include "platforms/report/tables.h"

namespace nestvp {
namespace {

TEST(SweepPlan, GridParsingRejectsBadSpecs) {
    const grid_axis a = parse_grid("l2.hz=100,250,1000");
    EXPECT_EQ(a.key, "l2.hz");
    EXPECT_EQ(a.values, (std::vector<std::string>{"100", "250", "1000"}));
    for (const char* bad : {"l2.hz", "=1,2", "l2.hz=", "l2.hz=1,,2", "l2.hz=1,2,", "l2.hz=1,1"})
        EXPECT_THROW(parse_grid(bad), std::invalid_argument) << bad;
    EXPECT_THROW(make_sweep_plan("/f", {}, {parse_grid("a=1"), parse_grid("a=2")}),
                 std::invalid_argument);
}

TEST(SweepPlan, GridListValuesAreOnePoint) {
    // Commas inside brackets belong to the value: each list is one grid point.
    const grid_axis a = parse_grid("machine.core.smt_speed=[1,0.9,0.8,0.7],[1,1]");
    EXPECT_EQ(a.values, (std::vector<std::string>{"[1,0.9,0.8,0.7]", "[1,1]"}));
    EXPECT_EQ(parse_grid("k=[1,2]").values, (std::vector<std::string>{"[1,2]"}));
    EXPECT_THROW(parse_grid("k=[1,2"), std::invalid_argument);
}

TEST(SweepPlan, FirstAxisVariesSlowest) {
    const auto pts = expand_grid({parse_grid("a=1,2"), parse_grid("b=x,y,z")});
    ASSERT_EQ(pts.size(), 6u);
    EXPECT_EQ(pts[0], (std::vector<std::string>{"a=1", "b=x"}));
    EXPECT_EQ(pts[1], (std::vector<std::string>{"a=1", "b=y"}));
    EXPECT_EQ(pts[3], (std::vector<std::string>{"a=2", "b=x"}));
    EXPECT_EQ(pts[5], (std::vector<std::string>{"a=2", "b=z"}));
    EXPECT_EQ(expand_grid({}).size(), 1u);
}

TEST(SweepPlan, PointCommandsAndFileNames) {
    const sweep_plan p =
        make_sweep_plan("/abs/ref.yaml", {"run.duration_s=0.2"}, {parse_grid("l2.hz=100,250")});
    EXPECT_EQ(p.grid_keys(), (std::vector<std::string>{"l2.hz"}));
    EXPECT_EQ(p.point_sets(1), (std::vector<std::string>{"run.duration_s=0.2", "l2.hz=250"}));
    EXPECT_EQ(p.point_argv("/bin/nestvp", 0, "/d/point-0000.json"),
              (std::vector<std::string>{"/bin/nestvp", "run", "/abs/ref.yaml", "--set",
                                        "run.duration_s=0.2", "--set", "l2.hz=100", "--json",
                                        "/d/point-0000.json", "--quiet", "--no-file-outputs"}));
    EXPECT_EQ(point_file_name(0), "point-0000.json");
    EXPECT_EQ(point_file_name(12345), "point-12345.json");
}

TEST(SweepPlan, ManifestRoundTrips) {
    const sweep_plan p =
        make_sweep_plan("/abs/my file.yaml", {"a=\"q\""}, {parse_grid("x=1,2"), parse_grid("y=a")});
    const sweep_plan q = parse_sweep_manifest(sweep_manifest_json(p), "sweep.json");
    EXPECT_EQ(q.platform_file, p.platform_file);
    EXPECT_EQ(q.base_sets, p.base_sets);
    EXPECT_EQ(q.points, p.points);
    EXPECT_EQ(sweep_manifest_json(q), sweep_manifest_json(p));
    std::string bad = sweep_manifest_json(p);
    bad.replace(bad.find("\"points\": 2"), 11, "\"points\": 3");
    EXPECT_THROW(parse_sweep_manifest(bad, "sweep.json"), std::runtime_error);
    EXPECT_THROW(parse_sweep_manifest("{}", "sweep.json"), std::runtime_error);
}

TEST(SweepPlan, ShellQuoting) {
    EXPECT_EQ(shell_quote("/usr/bin/nestvp"), "/usr/bin/nestvp");
    EXPECT_EQ(shell_quote("l2.hz=100"), "l2.hz=100");
    EXPECT_EQ(shell_quote("a b"), "'a b'");
    EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
    EXPECT_EQ(shell_quote(""), "''");
    EXPECT_EQ(shell_quote("$(x)"), "'$(x)'");
}

TEST(SweepPlan, EmittedJobsRunInAShellAndMergeInOrder) {
    const std::string dir = test::fresh_dir("emit");
    // A stand-in executable: the job lines must run as written, in any order.
    const std::string fake = dir + "/fake nestvp.sh";
    std::string empty_latencies;
    for (const auto& kind : latency_kinds())
        empty_latencies += (empty_latencies.empty() ? "\"" : ",\"") + kind +
                           "\":{\"all\":{\"count\":0,\"mean\":0,\"p50\":0,\"p90\":0,\"p99\":0,"
                           "\"max\":0},\"by_reason\":{},\"by_vcpu\":[],\"breakdown\":[],"
                           "\"histogram\":[]}";
    write_text_file(
        fake,
        "#!/bin/sh\n# args: run FILE --set A --set B --json OUT --quiet\n"
        "out=\"$6\"\nv=\"${4#*=}\"\n"
        "printf "
        "'{\"platform\":\"p\",\"settings\":{\"k\":\"%s\"},\"sim_seconds\":1,\"wall_seconds\":0,"
        "\"sc_events\":1,\"partial\":false,\"metrics\":{\"kvm_guest_exit\":%s,\"gsb_recv\":0,\"h_"
        "guest_get_state\":0,\"gsb_"
        "send\":0,"
        "\"h_guest_run_vcpu\":0,\"h_enter_nested\":0,\"exits_by_reason\":{},\"arithoh_count\":0,"
        "\"latencies\":{" +
            empty_latencies +
            "},\"counters\":{}}}' "
            "\"$v\" \"$v\" > \"$out\"\n");
    ASSERT_EQ(std::system(("chmod +x '" + fake + "'").c_str()), 0);
    const sweep_plan p = make_sweep_plan("/abs/ref.yaml", {}, {parse_grid("k=3,1,2")});
    emit_jobs(p, fake, dir);
    const std::string jobs = test::slurp(dir + "/jobs.txt");
    EXPECT_EQ(test::count_of(jobs, "\n"), 3u);
    EXPECT_NE(jobs.find("'" + fake + "' run /abs/ref.yaml --set k=3 --json " + dir +
                        "/point-0000.json --quiet --no-file-outputs\n"),
              std::string::npos)
        << jobs;
    // Run the lines in reverse order; merge still gives grid order.
    ASSERT_EQ(std::system(("tac '" + dir + "/jobs.txt' | sh").c_str()), 0);
    std::vector<std::string> problems, stale;
    const sweep_plan q = parse_sweep_manifest(test::slurp(dir + "/sweep.json"), "sweep.json");
    const auto pts = load_points(q, dir, problems, stale);
    EXPECT_TRUE(problems.empty());
    EXPECT_TRUE(stale.empty());
    const std::string csv = sweep_csv(q, pts);
    EXPECT_EQ(csv.substr(0, csv.find('\n')).rfind("k,sim_seconds,", 0), 0u);
    EXPECT_NE(csv.find("\n3,1,1,false,3,"), std::string::npos) << csv;
    EXPECT_LT(csv.find("\n3,"), csv.find("\n1,"));
    EXPECT_LT(csv.find("\n1,"), csv.find("\n2,"));
    // A missing point is named and left out.
    std::remove((dir + "/point-0001.json").c_str());
    problems.clear();
    const auto some = load_points(q, dir, problems, stale);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("point-0001.json"), std::string::npos);
    EXPECT_FALSE(some[1].has_value());
    EXPECT_EQ(test::count_of(sweep_csv(q, some), "\n"), 3u);
    // A later sweep emitted into the same folder: its plan does not match the points left.
    EXPECT_EQ(existing_point_files(dir),
              (std::vector<std::string>{"point-0000.json", "point-0002.json"}));
    const sweep_plan later = make_sweep_plan("/abs/ref.yaml", {}, {parse_grid("k=5,6,7")});
    problems.clear();
    const auto none = load_points(later, dir, problems, stale);
    ASSERT_EQ(stale.size(), 2u);
    EXPECT_NE(stale[0].find("point-0000.json: settings differ from sweep.json: k: '3', "
                            "sweep.json has '5'"),
              std::string::npos)
        << stale[0];
    EXPECT_FALSE(none[0].has_value());
}

}  // namespace
}  // namespace nestvp
