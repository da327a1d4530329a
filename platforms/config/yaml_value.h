#pragma once
// Strict conversion of yaml-cpp nodes into schema values. yaml-cpp itself converts loosely
// ("4.0" to an int fails, "yes" is a bool, duplicates are kept): these helpers check the
// text of each scalar against the key's type and range and throw config_error naming
// "file:line:column: key.path: expected ..., found ...".
#include <string>

#include <yaml-cpp/yaml.h>

#include "platforms/config/param_schema.h"

namespace nestvp {

// Where values come from: a file (marks give line and column) or a --set argument.
struct yaml_origin {
    std::string file;   // the file the node was read from
    std::string fixed;  // when non-empty (e.g. "--set l2.vcpus=0"), used instead of file:line:col
    // "file:line:column" (1-based) for the node, falling back to `fallback` when the node
    // has no mark.
    std::string at(const YAML::Node& n, const YAML::Mark& fallback = YAML::Mark::null_mark()) const;
    std::string at(const YAML::Mark& m) const;
};

[[noreturn]] void throw_config(const std::string& place, const std::string& path,
                               const std::string& expected, const std::string& found);

// Throws config_error at `place` unless text is UTF-8: names are labels in figures and records.
void require_utf8(const std::string& text, const std::string& place, const std::string& path);

// How a node reads in a message: 12, 4.5, "four" (quoted), a mapping, a list, nothing.
std::string describe_found(const YAML::Node& n);

// The scalar text as a number, when it is one (YAML 1.2 core schema forms).
bool is_integer_text(const std::string& s);
bool is_float_text(const std::string& s);

// Parses `n` as a value of `def` (type and range); costs accept a {cycles, source} mapping.
param_value parse_node(const param_def& def, const YAML::Node& n, const yaml_origin& where);

// A cost: {cycles, source, optional range, kind, calibrated_on}. `out` is the provenance it
// states (a `kind:` or a `calibrated_on:`); out.kind is empty when it states none, the kind then
// following its source text (provenance_of).
param_value parse_cost(const param_def& def, const YAML::Node& n, const yaml_origin& where,
                       value_provenance& out);

// A non-cost value written with its provenance (docs/platform-file.md, "Kinds"):
// {value: V, kind: sourced|assumed|calibrated, source: "...", range: [lo, hi],
// calibrated_on: {metric: M, policy: P}}. `source` is required (the source, the reason for an
// assumption, the published figure a calibration was set from); `range` is for numbers only,
// required when assumed, and must hold the value; `calibrated_on` is required when calibrated and
// refused otherwise.
param_value parse_stated_value(const param_def& def, const YAML::Node& n, const yaml_origin& where,
                               value_provenance& out);

// Throws on a key that appears twice in mapping `map` (yaml-cpp keeps both silently).
void check_unique_keys(const YAML::Node& map, const std::string& path, const yaml_origin& where);

}  // namespace nestvp
