// The child-process pool behind compare and sweep.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "cli_test_util.h"
#include "platforms/processes/child_procs.h"
#include "platforms/processes/termination_signals.h"
#include "platforms/records/text_files.h"

namespace nestvp {
namespace {

TEST(ChildProcs, ExitCodesByIndexAndOutputCaptured) {
    const std::string dir = test::fresh_dir("children");
    std::vector<child_job> jobs;
    for (int i = 0; i < 5; ++i)
        jobs.push_back(
            {{"/bin/sh", "-c",
              "echo out" + std::to_string(i) + "; echo err >&2; exit " + std::to_string(i)},
             dir + "/o" + std::to_string(i),
             dir + "/e" + std::to_string(i)});
    jobs.push_back({{dir + "/does-not-exist"}, "", dir + "/e5"});
    std::vector<size_t> done;
    const auto codes = run_children(jobs, 3, {}, [&](size_t i, int) { done.push_back(i); });
    EXPECT_EQ(codes, (std::vector<int>{0, 1, 2, 3, 4, 127}));
    EXPECT_EQ(done.size(), 6u);
    EXPECT_EQ(test::slurp(dir + "/o3"), "out3\n");
    EXPECT_EQ(test::slurp(dir + "/e3"), "err\n");
    EXPECT_EQ(tail_of_file(dir + "/e3"), "err\n");
}

// A job past its timeout is killed and reported as such; the others are not touched.
TEST(ChildProcs, TimeoutKillsOnlyTheJobThatHangs) {
    const std::string dir = test::fresh_dir("children-timeout");
    std::vector<child_job> jobs = {{{"/bin/sleep", "30"}, "", "", 0.2},
                                   {{"/bin/sh", "-c", "sleep 0.4; exit 3"}, "", "", 5},
                                   {{"/bin/true"}, "", "", 0.2}};
    const auto t0 = std::chrono::steady_clock::now();
    const auto codes = run_children(jobs, 3);
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(codes, (std::vector<int>{k_child_timed_out, 3, 0}));
    EXPECT_LT(took, 10.0) << "the hung job was stopped, not waited for";

    // What the job started goes with it: its process group is killed.
    const std::string late = dir + "/late";
    const auto c = run_children(
        {{{"/bin/sh", "-c", "(sleep 1; touch '" + late + "') & wait"}, "", "", 0.2}}, 1);
    EXPECT_EQ(c, (std::vector<int>{k_child_timed_out}));
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    EXPECT_FALSE(test::file_exists(late)) << "a grandchild outlived the timeout";
}

TEST(ChildProcs, NeverMoreThanNAtOnce) {
    const std::string dir = test::fresh_dir("children-limit");
    std::system(("mkdir -p '" + dir + "/running'").c_str());
    std::vector<child_job> jobs;
    // Each job records how many others are running when it starts, then holds its slot a while.
    for (int i = 0; i < 8; ++i)
        jobs.push_back({{"/bin/sh", "-c",
                         "ls '" + dir + "/running' | wc -l >> '" + dir + "/seen'; touch '" + dir +
                             "/running/" + std::to_string(i) + "'; sleep 0.05; rm '" + dir +
                             "/running/" + std::to_string(i) + "'"},
                        "",
                        ""});
    const auto codes = run_children(jobs, 2);
    EXPECT_TRUE(std::all_of(codes.begin(), codes.end(), [](int c) { return c == 0; }));
    const std::string seen = test::slurp(dir + "/seen");
    EXPECT_EQ(test::count_of(seen, "\n"), 8u);
    for (char c : seen) EXPECT_TRUE(c == '\n' || c == ' ' || c == '0' || c == '1') << seen;
}

TEST(ChildProcs, StopStartsNoMoreJobs) {
    std::vector<child_job> jobs(4, child_job{{"/bin/sh", "-c", "exit 0"}, "", ""});
    size_t finished = 0;
    const auto codes = run_children(
        jobs, 1, [&] { return finished >= 1; }, [&](size_t, int) { ++finished; });
    EXPECT_EQ(codes, (std::vector<int>{0, -1, -1, -1}));
}

TEST(ChildProcs, AStopSignalStopsRunningJobsWithSigterm) {
    const std::string dir = test::fresh_dir("children-sigint");
    ::signal(SIGINT, SIG_DFL);  // a runner started in the background ignores it
    install_stop_signals();
    // Job 1 traps TERM like `nestvp run` (records it, exits 130); job 0 sends SIGINT to this
    // process once job 1 is running; job 2 must never start.
    std::vector<child_job> jobs = {
        {{"/bin/sh", "-c",
          "while [ ! -e '" + dir + "/started' ]; do sleep 0.01; done; kill -INT $PPID"},
         "",
         ""},
        {{"/bin/sh", "-c",
          "trap 'echo got-term > \"" + dir + "/flag\"; exit 130' TERM; touch '" + dir +
              "/started'; i=0; while [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done; exit 7"},
         "",
         ""},
        {{"/bin/sh", "-c", "touch '" + dir + "/third'"}, "", ""}};
    const auto codes = run_children(jobs, 2, [] { return stop_requested(); });
    EXPECT_TRUE(stop_requested());
    // Job 0 may still be running (between its kill and its exit) when the jobs are stopped.
    EXPECT_TRUE(codes[0] == 0 || codes[0] == 128 + SIGTERM) << codes[0];
    EXPECT_EQ(codes[1], 130);
    EXPECT_EQ(codes[2], -1);
    EXPECT_EQ(test::slurp(dir + "/flag"), "got-term\n");
    EXPECT_FALSE(test::file_exists(dir + "/third"));
}

// A job gets SIGTERM's default action back (the pool stops jobs with it) and keeps SIGINT as
// this process has it: a background job's ignored SIGINT stays ignored in its children.
TEST(ChildProcs, JobsGetDefaultSigtermAndInheritSigint) {
    struct sigaction ign = {}, old_int = {}, old_term = {};
    ign.sa_handler = SIG_IGN;
    sigaction(SIGINT, &ign, &old_int);
    sigaction(SIGTERM, &ign, &old_term);
    const auto codes =
        run_children({{{"/bin/sh", "-c", "kill -INT $$; kill -TERM $$; exit 0"}, "", ""}}, 1);
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
    EXPECT_EQ(codes, std::vector<int>{128 + SIGTERM});
}

TEST(ChildProcs, OtherChildrenAreNotReaped) {
    // A child this process started itself, which ends while the pool runs: the pool must
    // leave its exit status for us (waitpid(-1) would take it).
    const pid_t other = ::fork();
    if (other == 0) ::_exit(42);
    ASSERT_GT(other, 0);
    size_t ticks = 0;
    const auto codes =
        run_children({{{"/bin/sh", "-c", "sleep 0.3"}, "", ""}}, 1, {}, {}, [&] { ++ticks; });
    EXPECT_EQ(codes, (std::vector<int>{0}));
    EXPECT_GT(ticks, 2u);  // on_tick runs while the job does, not only when it ends
    int status = 0;
    EXPECT_EQ(::waitpid(other, &status, 0), other);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 42);
}

TEST(ChildProcs, PathsAndTempDirs) {
    EXPECT_EQ(self_exe_path().front(), '/');
    EXPECT_EQ(absolute_path("/x/y"), "/x/y");
    EXPECT_EQ(absolute_path("rel-nonexistent").front(), '/');
    const std::string t = make_temp_dir("nestvp-test");
    EXPECT_TRUE(test::file_exists(t));
    write_text_file(t + "/f", "x");
    remove_temp_dir(t);
    EXPECT_FALSE(test::file_exists(t));
}

}  // namespace
}  // namespace nestvp
