// `nestvp run --trace FILE.vcd`: a VCD with, per hardware thread, DEC and HDEC values, the
// interrupt lines, the context level and the ceded state; a window limits it in time.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace {

std::string run_trace(const std::string& extra) {
    // One file per test and settings: ctest -j runs tests side by side.
    const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    const std::string vcd = std::string(NESTVP_BINARY_DIR) + "/system-trace-" + test + "-" +
                            std::to_string(std::hash<std::string>{}(extra)) + ".vcd";
    const std::string cmd = "SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 " +
                            std::string(NESTVP_BINARY_DIR) + "/nestvp run " + NESTVP_SOURCE_DIR +
                            "/platforms/reference.yaml --quiet" +
                            " --set run.duration_s=0.02 --set l1.dec_policy=no-cancel --trace " +
                            vcd + " " + extra + " > /dev/null";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::ifstream in(vcd);
    std::stringstream ss;
    ss << in.rdbuf();
    std::remove(vcd.c_str());
    return ss.str();
}

}  // namespace

TEST(platform_trace, vcd_has_every_signal_per_thread) {
    const std::string vcd = run_trace("");
    ASSERT_NE(vcd.find("$enddefinitions $end"), std::string::npos);
    EXPECT_NE(vcd.find("$timescale 1 ps $end"), std::string::npos);
    for (const char* thread : {"thread0", "thread1", "thread2"})
        EXPECT_NE(vcd.find(std::string("$scope module ") + thread), std::string::npos) << thread;
    for (const char* sig : {" dec [63:0] $end", " hdec [63:0] $end", " dec_irq $end",
                            " hdec_irq $end", " level [1:0] $end", " ceded $end"})
        EXPECT_NE(vcd.find(sig), std::string::npos) << sig;
    // Level changes to L2 (b10) happen: entries are traced.
    EXPECT_NE(vcd.find("b10 "), std::string::npos);
}

TEST(platform_trace, window_limits_the_time_range) {
    const std::string vcd = run_trace("--trace-window 0.01:0.015");
    const size_t body = vcd.find("$enddefinitions $end");
    ASSERT_NE(body, std::string::npos);
    std::istringstream lines(vcd.substr(body));
    std::string line;
    unsigned stamps = 0;
    while (std::getline(lines, line)) {
        if (line.empty() || line[0] != '#') continue;
        const unsigned long long ps = std::stoull(line.substr(1));
        EXPECT_GE(ps, 10000000000ull);
        EXPECT_LE(ps, 15000000000ull);
        ++stamps;
    }
    EXPECT_GT(stamps, 10u);
}

// A windowed trace starts at the window's start with every value defined: $dumpvars holds each
// thread's state then, not x.
TEST(platform_trace, window_starts_defined_at_its_start) {
    const std::string vcd = run_trace("--trace-window 0.01:0.015");
    const size_t defs = vcd.find("$enddefinitions $end\n");
    ASSERT_NE(defs, std::string::npos);
    std::istringstream lines(vcd.substr(defs));
    std::string line;
    std::getline(lines, line);  // $enddefinitions
    std::getline(lines, line);
    EXPECT_EQ(line, "#10000000000");
    std::getline(lines, line);
    ASSERT_EQ(line, "$dumpvars");
    unsigned values = 0;
    while (std::getline(lines, line) && line != "$end") {
        EXPECT_EQ(line.find('x'), std::string::npos) << line;
        ++values;
    }
    EXPECT_EQ(values, 8u * 6u);  // six signals per thread, eight vCPU threads
}
