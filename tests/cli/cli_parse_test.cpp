// Command-line parsing (CLI11 underneath): clear messages that name the flag (docs/cli.md, exit
// code 2).
#include <gtest/gtest.h>

#include "platforms/cli/cli_parse.h"
#include "platforms/processes/progress.h"

namespace nestvp {
namespace {

struct parsed {
    std::vector<std::string> files, sets;
    std::string json, jobs;
    bool quiet = false;
};

// The options of a small command, as run declares them.
bool parse_into(parsed& p, const std::vector<std::string>& args) {
    cli_parser cli("run", "usage: nestvp run\n");
    cli.positionals(p.files);
    cli.list("--set", p.sets);
    cli.value("--json", p.json);
    cli.value("-j,--jobs", p.jobs);
    cli.flag("-q,--quiet", p.quiet);
    return cli.parse(args);
}

std::string usage_message(const std::vector<std::string>& args) {
    parsed p;
    try {
        parse_into(p, args);
    } catch (const usage_error& e) {
        return e.what();
    }
    return "";
}

TEST(CliArgs, ParsesValuesFlagsAndPositionals) {
    parsed a;
    ASSERT_TRUE(parse_into(a, {"f.yaml", "--set", "a=1", "--set=b=2", "--json", "o.json", "-q",
                               "--jobs", "3", "--", "--odd"}));
    EXPECT_EQ(a.files, (std::vector<std::string>{"f.yaml", "--odd"}));
    EXPECT_EQ(a.sets, (std::vector<std::string>{"a=1", "b=2"}));
    EXPECT_EQ(a.json, "o.json");
    EXPECT_EQ(a.jobs, "3");
    EXPECT_TRUE(a.quiet);
    parsed b;
    ASSERT_TRUE(parse_into(b, {"--set", "a=1", "f.yaml", "--json", "-"}));  // one value each
    EXPECT_EQ(b.files, (std::vector<std::string>{"f.yaml"}));
    EXPECT_EQ(b.json, "-");
    parsed h;
    EXPECT_FALSE(parse_into(h, {"f.yaml", "--help", "--bogus"}));  // help wins
}

TEST(CliArgs, ErrorsNameTheFlag) {
    EXPECT_EQ(usage_message({"--bogus"}),
              "nestvp run: unknown option '--bogus' (see 'nestvp run --help')");
    EXPECT_EQ(usage_message({"--bogus=3"}),
              "nestvp run: unknown option '--bogus' (see 'nestvp run --help')");
    EXPECT_EQ(usage_message({"f", "--json"}),
              "nestvp run: option '--json' needs a value (see 'nestvp run --help')");
    EXPECT_EQ(usage_message({"--json", "--quiet"}),
              "nestvp run: option '--json' needs a value (see 'nestvp run --help')");
    EXPECT_EQ(usage_message({"--json", "a", "--json", "b"}),
              "nestvp run: option '--json' given more than once");
    EXPECT_EQ(usage_message({"f", "--set", "a=1", "--set", "b=2"}), "");  // repeatable
}

TEST(CliArgs, OutputKeysAreRefusedForPoints) {
    EXPECT_NO_THROW(refuse_output_keys("sweep", "--set", {"l2.hz=100"}));
    try {
        refuse_output_keys("sweep", "--set", {"l2.hz=100", "run.outputs.json=x.json"});
        FAIL();
    } catch (const usage_error& e) {
        EXPECT_EQ(std::string(e.what()).rfind("nestvp sweep: --set run.outputs.json: ", 0), 0u)
            << e.what();
    }
}

TEST(CliArgs, NumbersAreChecked) {
    EXPECT_EQ(parse_positive_int("-j", "4"), 4u);
    for (const char* bad : {"", "0", "-1", "abc", "2x", "1.5", "99999"}) {
        try {
            parse_positive_int("-j", bad);
            FAIL() << bad;
        } catch (const usage_error& e) {
            EXPECT_EQ(std::string(e.what()).rfind("-j: expected a whole number", 0), 0u)
                << e.what();
            EXPECT_NE(std::string(e.what()).find(std::string("'") + bad + "'"), std::string::npos);
        }
    }
    EXPECT_DOUBLE_EQ(parse_seconds("--x", "0.25"), 0.25);
    EXPECT_THROW(parse_seconds("--x", "-1"), usage_error);
    EXPECT_THROW(parse_seconds("--x", "inf"), usage_error);
    EXPECT_THROW(parse_seconds("--x", "1s"), usage_error);
}

TEST(CliArgs, TraceWindow) {
    EXPECT_EQ(parse_window("--trace-window", "0.5:1.5"), (std::pair<double, double>(0.5, 1.5)));
    EXPECT_EQ(parse_window("--trace-window", "2:"), (std::pair<double, double>(2, -1)));
    EXPECT_EQ(parse_window("--trace-window", ":1"), (std::pair<double, double>(0, 1)));
    EXPECT_THROW(parse_window("--trace-window", "1.5"), usage_error);
    EXPECT_THROW(parse_window("--trace-window", "2:1"), usage_error);
    EXPECT_THROW(parse_window("--trace-window", "1:1"), usage_error);
    EXPECT_THROW(parse_window("--trace-window", "a:b"), usage_error);
    try {
        parse_window("--trace-window", "3:2");
    } catch (const usage_error& e) {
        EXPECT_EQ(std::string(e.what()),
                  "--trace-window: the end (2 s) must be after the start (3 s)");
    }
}

TEST(Progress, ShownOnlyAfterTheDelayWithRateAndEta) {
    progress_meter m(10.0, 2.0);
    EXPECT_EQ(m.update(1.0, 0.5), "");
    EXPECT_FALSE(m.shown());
    const std::string line = m.update(4.0, 2.0);  // 2 sim s per wall s, 6 s left -> ETA 3 s
    EXPECT_TRUE(m.shown());
    EXPECT_EQ(line, "simulated 4.00 s of 10.00 s (40%), 2.00 sim s/wall s, ETA 3.0 s");
    EXPECT_EQ(m.update(4.1, 2.1), "");  // redrawn at most every 0.25 s of wall time
    EXPECT_EQ(m.update(0.0, 3.0), "simulated 0.00 s of 10.00 s (0%), ETA ?");
}

TEST(Progress, DurationsReadWell) {
    EXPECT_EQ(format_duration(0.84), "0.8 s");
    EXPECT_EQ(format_duration(42), "42 s");
    EXPECT_EQ(format_duration(185), "3m05s");
    EXPECT_EQ(format_duration(3720), "1h02m");
    EXPECT_EQ(format_duration(-1), "?");
}

}  // namespace
}  // namespace nestvp
