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
    r.result.metrics.nested_entry_latency_ns = {10, 800, 1200.5, 1500};
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
    // Every line has the same width (aligned columns).
    size_t width = t.find('\n');
    for (size_t p = 0; p < t.size(); p = t.find('\n', p) + 1) EXPECT_EQ(t.find('\n', p) - p, width);
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
    EXPECT_EQ(s.find("PARTIAL"), std::string::npos);
    r.result.partial = true;
    r.result.wall_seconds = 0;
    const std::string p = summary_table(r);
    EXPECT_NE(p.find("PARTIAL"), std::string::npos);
    EXPECT_NE(p.find("n/a"), std::string::npos);  // no division by zero wall time
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
    EXPECT_FALSE(metric_value(r, "no_such_metric", v));
    for (const auto& m : chart_metrics()) EXPECT_TRUE(metric_value(r, m, v)) << m;
}

}  // namespace
}  // namespace nestvp
