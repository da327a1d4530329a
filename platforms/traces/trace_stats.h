#pragma once
// `nestvp trace-stats FILE`: the counts of a trace, from the model (`run --perf-script`) or a
// real machine (`perf script`, tracefs `trace`, or the real stack's counts JSON): events,
// exits per trap and per vCPU, the exit rate over time, and per vCPU the intervals from
// kvm_guest_enter to kvm_guest_exit and back (docs/cmd-trace-stats.md).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "platforms/records/json.h"

namespace nestvp {

struct interval_summary {  // nanoseconds
    uint64_t count = 0;
    double min = 0, mean = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;
};

struct malformed_line {
    uint64_t line;
    std::string why;
};

struct trace_stats {
    std::string path, format;  // "perf-script", "tracefs" or "counts-json"
    uint64_t lines = 0, parsed = 0, malformed = 0, skipped = 0;
    std::vector<malformed_line> malformed_lines;  // the first few, in file order
    double span_s = 0, first_s = 0;  // from the first event to the last (counts-json: its window)
    std::map<std::string, uint64_t> events;  // canonical names (trace_line.h)
    std::map<std::string, uint64_t> unknown_events;
    std::map<std::string, uint64_t> exits_by_trap;  // kvm_trace_symbol_exit names
    std::map<unsigned, uint64_t> exits_by_vcpu;
    std::map<uint64_t, uint64_t> hcalls_by_opcode;  // powerpc:hcall_entry
    double bin_s = 0.1;
    std::vector<double> exit_rate;  // exits per second in each bin from first_s
    std::map<unsigned, interval_summary> enter_to_exit, exit_to_enter;
};

struct trace_stats_options {
    double bin_s = 0.1;
    bool strict = false;         // the first malformed line is fatal
    uint64_t tb_hz = 512000000;  // a tracefs counter clock's rate (trace_clock ppc-tb)
    size_t keep_malformed = 20;
};

// Reads a trace file; throws std::runtime_error naming the file (and with --strict the line)
// when it cannot be read, has no parsable line, or is malformed under strict.
trace_stats read_trace_stats(const std::string& path, const trace_stats_options& opts);
// From a JSON already parsed: a trace-stats JSON or a real-stack counts JSON.
trace_stats trace_stats_of_json(const json& j, const std::string& path);
// From a text already read (tests; `path` names it).
trace_stats trace_stats_of_text(const std::string& text, const std::string& path,
                                const trace_stats_options& opts);

json trace_stats_json(const trace_stats& s);
// A trace-stats JSON back (schema nestvp-trace-stats/1); throws naming `what` and the key.
trace_stats trace_stats_from_json(const json& j, const std::string& what);
// The table trace-stats prints.
std::string trace_stats_table(const trace_stats& s);

}  // namespace nestvp
