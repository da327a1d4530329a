// Tables for people (run summary, reference-style comparison) and CSV layout.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "platforms/report/tables.h"

namespace nestvp {
namespace {

run_record rec(uint64_t exits, uint64_t gsb, uint64_t arith,
               std::map<std::string, uint64_t> reasons) {
    run_record r;
    r.platform = "reference";
    r.result.sim_seconds = 10;
    r.result.wall_seconds = 0.5;
    r.result.sc_events = 1000000;
    r.result.metrics.kvm_guest_exit = exits;
    r.result.metrics.h_guest_run_vcpu = exits;
    r.result.metrics.gsb_recv = gsb;
    r.result.metrics.arithoh_count = arith;
    r.result.metrics.exits_by_reason = std::move(reasons);
    latency_report& e = r.result.metrics.latencies["nested_entry_latency_ns"];
    e.all = {10, 900, 800, 1100, 1200.5, 1500};
    e.breakdown = {{"L1 hcall", 300}, {"L0 switch", 600}};
    r.result.metrics.counters = {{"l0.hcalls", 9}, {"l1.blocks", 4}, {"l2.cedes", 3}};
    return r;
}

TEST(ReportFormat, NumbersAreGroupedLikeTheReference) {
    EXPECT_EQ(group_thousands(0), "0");
    EXPECT_EQ(group_thousands(999), "999");
    EXPECT_EQ(group_thousands(1000), "1,000");
    EXPECT_EQ(group_thousands(3403089673ull), "3,403,089,673");
    EXPECT_EQ(format_fixed(1234.56, 1), "1,234.6");
    EXPECT_EQ(format_fixed(-1234567.5, 2), "-1,234,567.50");
    EXPECT_EQ(format_fixed(-0.001, 2), "0.00");
    EXPECT_EQ(format_fixed(std::nan(""), 2), "n/a");
}

TEST(ReportFormat, DifferenceMatchesTheReferenceTable) {
    // reference-result.md: the three published rows.
    EXPECT_EQ(format_diff_pct(3244831634.0, 3403089673.0), "+4.88 %");
    EXPECT_EQ(format_diff_pct(513558, 152441), "-70.32 %");
    EXPECT_EQ(format_diff_pct(28060, 28110), "+0.18 %");
    EXPECT_EQ(format_diff_pct(0, 0), "0.00 %");
    EXPECT_EQ(format_diff_pct(0, 5), "n/a");
    // From ten times A on, a factor: the last percentage is +899.99 %.
    EXPECT_EQ(format_diff_pct(1, 9.9999), "+899.99 %");
    EXPECT_EQ(format_diff_pct(1, 10), "10.0x");
    EXPECT_EQ(format_diff_pct(0.5, 8096), "16,192.0x");
    EXPECT_EQ(format_diff_pct(8096, 0.5), "-99.99 %");
}

// Below a 1 ns base a latency's difference is absolute: a ratio to a near-zero base is a huge
// factor (0.5 ns to 8,096 ns would read 16,192.0x). From 1 ns on it is relative, as for counts.
TEST(ReportFormat, LatencyDifferenceBelowOneNsIsAbsolute) {
    EXPECT_EQ(format_diff_ns(0, 8096), "+8,096.0 ns");
    EXPECT_EQ(format_diff_ns(0.5, 8096), "+8,095.5 ns");
    EXPECT_EQ(format_diff_ns(0.9, 0), "-0.9 ns");
    EXPECT_EQ(format_diff_ns(0, 0), "0.0 ns");
    EXPECT_EQ(format_diff_ns(0.5, 0.52), "0.0 ns");
    EXPECT_EQ(format_diff_ns(1, 10), "10.0x");
    EXPECT_EQ(format_diff_ns(812.5, 850.5), "+4.68 %");
    // In the table: the latency row with a 0.5 ns base, not the count rows.
    run_record a = rec(10, 10, 10, {}), b = rec(10, 10, 100, {});
    a.result.metrics.latencies["nested_entry_latency_ns"].all.p50 = 0.5;
    b.result.metrics.latencies["nested_entry_latency_ns"].all.p50 = 8096;
    const std::string t = compare_table(compare_rows(a, b), "A", "B");
    EXPECT_NE(t.find("| nested entry latency p50 (ns)    |     0.5 | 8,096.0 | +8,095.5 ns |"),
              std::string::npos)
        << t;
    EXPECT_EQ(t.find("16,192.0x"), std::string::npos) << t;
    EXPECT_NE(t.find("10.0x"), std::string::npos) << t;  // arithoh count 10 -> 100: a count
}

TEST(ReportFormat, CompareTableHasReferenceShape) {
    const run_record a = rec(513558, 28060, 3244831634ull, {{"0x980", 10}, {"0xc00", 500000}});
    const run_record b = rec(152441, 28110, 3403089673ull, {{"0x980", 12}, {"0x500", 1}});
    const auto rows = compare_rows(a, b);
    const std::string t = compare_table(rows, "no-cancel", "cancel");
    EXPECT_NE(t.find("| metric"), std::string::npos);
    EXPECT_NE(t.find("no-cancel |"), std::string::npos);
    EXPECT_NE(t.find("difference |"), std::string::npos);
    EXPECT_NE(t.find("3,244,831,634 | 3,403,089,673 |    +4.88 % |"), std::string::npos) << t;
    EXPECT_NE(t.find("-70.32 %"), std::string::npos);
    // Reasons: the union of both sides, absent = 0.
    EXPECT_NE(t.find("exits 0x500"), std::string::npos);
    EXPECT_NE(t.find("exits 0xc00"), std::string::npos);
    EXPECT_EQ(t.find("h_enter_nested"), std::string::npos);  // both zero: left out
    EXPECT_NE(t.find("1,200.5"), std::string::npos);         // latency p99 with one decimal
    for (const char* row : {"| nested entry latency p50 (ns)", "| nested exit latency p99 (ns)",
                            "| l1 handling latency p50 (ns)", "| round trip latency p99 (ns)",
                            "| timer interrupt latency p50 (ns)", "| wake latency p99 (ns)"})
        EXPECT_NE(t.find(row), std::string::npos) << row;
    // Every line has the same width (aligned columns).
    size_t width = t.find('\n');
    for (size_t p = 0; p < t.size(); p = t.find('\n', p) + 1) EXPECT_EQ(t.find('\n', p) - p, width);
}

// Rows: the union of both sides' steps in path order; kinds without samples are left out.
TEST(ReportFormat, CompareBreakdownHasTheUnionOfStepsInPathOrder) {
    run_record a = rec(1, 1, 1, {}), b = rec(1, 1, 1, {});
    latency_report& la = a.result.metrics.latencies["l1_handling_latency_ns"];
    latency_report& lb = b.result.metrics.latencies["l1_handling_latency_ns"];
    la.all = {5, 300, 0, 0, 0, 0};
    la.breakdown = {{"exit decode", 100}, {"dec reprogram", 150}, {"resume", 50}};
    lb.all = {7, 200, 0, 0, 0, 0};
    lb.breakdown = {{"exit decode", 100}, {"hdec cancel", 40}, {"resume", 60}};
    b.result.metrics.latencies["nested_entry_latency_ns"] = {};  // count 0 on B, 10 on A
    const std::string t = compare_breakdown_tables(a, b, "no-cancel", "cancel");
    EXPECT_NE(t.find("l1 handling latency breakdown"), std::string::npos) << t;
    EXPECT_NE(t.find("nested entry latency breakdown"), std::string::npos) << t;
    EXPECT_EQ(t.find("wake latency"), std::string::npos) << t;  // no samples on either side
    const size_t decode = t.find("| exit decode"), reprogram = t.find("| dec reprogram"),
                 cancel = t.find("| hdec cancel"), resume = t.find("| resume");
    ASSERT_NE(cancel, std::string::npos) << t;
    // A step only B has follows the step B has before it.
    EXPECT_LT(decode, cancel);
    EXPECT_LT(cancel, reprogram);
    EXPECT_LT(reprogram, resume);
    // A step one side lacks has a 0 ns base: its difference is absolute.
    EXPECT_NE(t.find("| hdec cancel    |       0.0 |   40.0 |   +40.0 ns |"), std::string::npos)
        << t;
    EXPECT_NE(t.find("| total (mean)   |     300.0 |  200.0 |   -33.33 % |"), std::string::npos)
        << t;
}

TEST(ReportFormat, SummaryShowsSpeedAndCountersPerLevel) {
    run_record r = rec(1000, 20, 5000, {{"0x980", 7}});
    r.settings = {{"l1.dec_policy", "cancel"}};
    const std::string s = summary_table(r);
    EXPECT_NE(s.find("platform reference"), std::string::npos);
    EXPECT_NE(s.find("--set l1.dec_policy=cancel"), std::string::npos);
    EXPECT_NE(s.find("simulated s per wall s"), std::string::npos);
    EXPECT_NE(s.find("20.00"), std::string::npos);  // 10 s / 0.5 s
    EXPECT_NE(s.find("SystemC events per wall s"), std::string::npos);
    EXPECT_NE(s.find("2,000,000"), std::string::npos);
    EXPECT_NE(s.find("host ns per nested exit"), std::string::npos);
    EXPECT_NE(s.find("counters L0"), std::string::npos);
    EXPECT_NE(s.find("counters L1"), std::string::npos);
    EXPECT_NE(s.find("counters L2"), std::string::npos);
    EXPECT_NE(s.find("exits 0x980"), std::string::npos);
    // Every latency kind with count / mean / p50 / p90 / p99 / max, then the measured breakdowns.
    EXPECT_NE(s.find("| latency (ns)"), std::string::npos) << s;
    EXPECT_NE(s.find("| nested entry latency "), std::string::npos) << s;
    EXPECT_NE(s.find("|    10 | 900.0 | 800.0 | 1,100.0 | 1,200.5 | 1,500.0 |"), std::string::npos)
        << s;
    EXPECT_NE(s.find("| wake latency "), std::string::npos) << s;
    EXPECT_NE(s.find("nested entry latency breakdown"), std::string::npos) << s;
    EXPECT_NE(s.find("| L1 hcall  |   300.0 |  33.3 % |"), std::string::npos) << s;
    EXPECT_NE(s.find("| L0 switch |   600.0 |  66.7 % |"), std::string::npos) << s;
    EXPECT_EQ(s.find("wake latency breakdown"), std::string::npos);  // no breakdown measured
    EXPECT_EQ(s.find("PARTIAL"), std::string::npos);
    r.result.partial = true;
    r.result.wall_seconds = 0;
    const std::string p = summary_table(r);
    EXPECT_NE(p.find("PARTIAL"), std::string::npos);
    EXPECT_NE(p.find("n/a"), std::string::npos);  // no division by zero wall time
}

std::string row_of(const std::string& csv, size_t n) {
    size_t p = 0;
    for (size_t i = 0; i < n; ++i) p = csv.find('\n', p) + 1;
    return csv.substr(p, csv.find('\n', p) - p);
}

TEST(ReportFormat, CsvHasSettingColumnsThenMetricsWithUnionOfKeys) {
    run_record a = rec(10, 1, 100, {{"0x980", 4}});
    a.settings = {{"l2.hz", "100"}, {"l1.dec_policy", "no-cancel"}};
    run_record b = rec(20, 2, 200, {{"0xc00", 5}});
    b.settings = {{"l2.hz", "250"}, {"l1.dec_policy", "a,\"b\""}};
    b.result.metrics.counters["l0.extra"] = 1;
    const std::string csv = records_csv({a, b}, {"l2.hz", "l1.dec_policy"}, false);
    const auto nl = csv.find('\n');
    const std::string header = csv.substr(0, nl);
    EXPECT_EQ(header.rfind("l2.hz,l1.dec_policy,sim_seconds,sc_events,partial,kvm_guest_exit,", 0),
              0u)
        << header;
    EXPECT_NE(header.find(",exits_by_reason.0x980,exits_by_reason.0xc00,"), std::string::npos);
    for (const auto& kind : latency_kinds())
        EXPECT_NE(header.find("," + kind + ".count," + kind + ".mean," + kind + ".p50," + kind +
                              ".p90," + kind + ".p99," + kind + ".max,"),
                  std::string::npos)
            << kind << " in " << header;
    EXPECT_NE(row_of(csv, 1).find(",10,900,800,1100,1200.5,1500,"), std::string::npos)
        << row_of(csv, 1);
    EXPECT_NE(header.find("counters.l0.extra,counters.l0.hcalls"), std::string::npos);
    EXPECT_EQ(header.find("wall_seconds"), std::string::npos);
    const std::string row1 = csv.substr(nl + 1, csv.find('\n', nl + 1) - nl - 1);
    EXPECT_EQ(row1.rfind("100,no-cancel,10,1000000,false,10,", 0), 0u) << row1;
    EXPECT_NE(csv.find("250,\"a,\"\"b\"\"\","), std::string::npos);  // RFC 4180 quoting
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);
    // Every row has as many fields as the header (no quoted commas in these two rows' numbers).
    const std::string with_wall = records_csv({a}, {"l2.hz"}, true);
    EXPECT_NE(with_wall.find(",wall_seconds\n"), std::string::npos);
    EXPECT_NE(with_wall.find(",0.5\n"), std::string::npos);
}

TEST(ReportFormat, MetricValuesByColumnName) {
    const run_record r = rec(10, 1, 100, {});
    double v = 0;
    EXPECT_TRUE(metric_value(r, "kvm_guest_exit", v));
    EXPECT_EQ(v, 10);
    EXPECT_TRUE(metric_value(r, "nested_entry_latency_ns.p99", v));
    EXPECT_EQ(v, 1200.5);
    EXPECT_TRUE(metric_value(r, "nested_entry_latency_ns.p90", v));
    EXPECT_EQ(v, 1100);
    EXPECT_TRUE(metric_value(r, "wake_latency_ns.mean", v));  // absent kind: 0
    EXPECT_EQ(v, 0);
    EXPECT_FALSE(metric_value(r, "wake_latency_ns.p42", v));
    EXPECT_FALSE(metric_value(r, "no_such_metric", v));
    for (const auto& m : chart_metrics()) EXPECT_TRUE(metric_value(r, m, v)) << m;
}

}  // namespace
}  // namespace nestvp
