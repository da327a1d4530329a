#pragma once
// Text reports for people and CSV for tools: the run summary (SCC-style statistics), the
// reference-style comparison table (reference-result.md: metric | A | B | difference) and
// the CSV row layout shared by `run --csv`, `sweep` and `merge`.
#include <cstdint>
#include <string>
#include <vector>

#include "platforms/records/run_record.h"

namespace nestvp {

// 3403089673 -> "3,403,089,673".
std::string group_thousands(uint64_t v);
// Fixed decimals with thousands grouping of the integer part: 1234.5 -> "1,234.50" (2 places).
std::string format_fixed(double v, int decimals);
// Relative change from a to b in percent, reference style: "+4.88 %", "-70.32 %";
// "0.00 %" when both are zero, "n/a" when only a is zero.
std::string format_diff_pct(double a, double b);
// A latency's change from a to b: format_diff_pct from a base of 1 ns up; below it the absolute
// difference, "+8,096.0 ns" (a ratio to a near-zero base reads as a huge factor).
std::string format_diff_ns(double a, double b);

// The summary of one run for a terminal: metrics, latencies (count, mean, p50, p90, p99, max,
// then each path's breakdown with the share of each step), simulation speed, counters per level.
std::string summary_table(const run_record& rec);

// One row of a comparison: a metric and its two values.
struct compare_row {
    std::string metric;
    double a = 0, b = 0;
    bool integral = true;  // counts print grouped, latencies with one decimal
    bool latency = false;  // ns: the difference is format_diff_ns
};
// The rows nestvp compares: arithoh, exits, GSB receives, run hcalls, p50 and p99 of every
// latency kind ("l1 handling latency p50 (ns)"), exits by reason (the union of both sides' reasons,
// absent = 0).
std::vector<compare_row> compare_rows(const run_record& a, const run_record& b);
// When the two runs simulated different durations (an interrupted side, --vs
// run.duration_s=...), counts only compare as rates: every count row becomes "<metric> per s"
// (count / that side's sim seconds). Latencies are left alone. Returns whether it did so.
bool normalise_counts_per_second(std::vector<compare_row>& rows, double sim_a_s, double sim_b_s);
// Markdown table, columns aligned: | metric | label_a | label_b | difference |.
std::string compare_table(const std::vector<compare_row>& rows, const std::string& label_a,
                          const std::string& label_b);

// The steps of several breakdowns in path order: each one's steps in its order, a step only a
// later one has right after the step it has before it. Null entries are skipped.
std::vector<std::string> steps_in_path_order(
    const std::vector<const std::vector<latency_step>*>& breakdowns);

// Per latency kind measured on either side: the breakdown steps (the union, in path order) with
// both runs' mean ns, then the total mean. Kinds with no sample on both sides are left out.
std::string compare_breakdown_tables(const run_record& a, const run_record& b,
                                     const std::string& label_a, const std::string& label_b);

// RFC 4180 field quoting.
std::string csv_field(const std::string& s);
// One header line and one line per record: the setting columns (values from each record's
// settings, empty if absent), then the metric columns. exits_by_reason and counters take
// the union of keys over all records, sorted; absent values are 0. With include_wall, a
// final wall_seconds column (the only host-dependent value) is added.
std::string records_csv(const std::vector<run_record>& recs,
                        const std::vector<std::string>& setting_keys, bool include_wall);

// Scalar metrics by CSV column name ("kvm_guest_exit", "<latency kind>.count/.mean/.p50/.p90/
// .p99/.max", ...),
// for charts. Returns false if the name is not a scalar metric.
bool metric_value(const run_record& rec, const std::string& name, double& out);
// The metrics a sweep charts, one figure each.
const std::vector<std::string>& chart_metrics();

}  // namespace nestvp
