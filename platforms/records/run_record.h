#pragma once
// One run as nestvp reports it: the platform, the --set settings that produced it and the
// run_result. This is what `nestvp run --json` writes and what compare/merge read back.
#include <string>
#include <utility>
#include <vector>

#include "platforms/records/json.h"
#include "platforms/results/run_result.h"

namespace nestvp {

using settings_list = std::vector<std::pair<std::string, std::string>>;  // key, value

// The layout version of run_record_json; raised when a field changes meaning or goes away.
constexpr unsigned k_record_schema = 2;

struct run_record {
    unsigned schema_version = k_record_schema;
    std::string tool_version, tool_commit;  // of the build that ran it (build_stamp.h)
    std::string platform;
    std::string platform_file;    // the path as given; empty in records without it
    std::string platform_sha256;  // of the file's bytes
    uint64_t seed = 0;
    settings_list settings;  // in command-line order; a repeated key keeps its last value
    json config;             // merged configuration (config_json.h); null in older records
    json provenance;  // each key's kind, source, range and calibrated_on; null in older records
    run_result result;
};

// A record stamped with this build's version and commit.
run_record new_run_record();
// The unit of a metric by its record path: "metrics.latencies" "ns", "sim_seconds" "s", ...
std::string metric_unit(const std::string& path);

// The report of one latency kind; an empty report if the run has none of that kind.
const latency_report& latency_of(const run_metrics& m, const std::string& kind);
// "l1_handling_latency_ns" -> "l1 handling latency": the kind as tables and plots name it.
std::string latency_title(const std::string& kind);

// Splits "key=value" strings into settings; a key given twice keeps its first position and
// its last value. Throws std::invalid_argument naming the bad string.
settings_list parse_settings(const std::vector<std::string>& sets);

// The JSON document of a record. Key order and number format are fixed, so the same record
// gives the same bytes; wall_seconds is the only field that depends on the host.
json run_record_doc(const run_record& rec);
std::string run_record_json(const run_record& rec);
// Reads a document written by run_record_json; errors name `what` and the problem.
run_record parse_run_record(const std::string& text, const std::string& what);

}  // namespace nestvp
