#pragma once
// The schema of a platform file: every component's declared parameters (models/params.h),
// mounted at their place in the file. The loader (platform_loader.cpp), --set, `nestvp params`
// and dump_config all use this table, so a key exists in all of them or in none.
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "platforms/config/platform_config.h"

namespace nestvp {

// One key of the platform file: a component's declaration (models/params.h) at its full
// dotted path, reading and writing its field in a platform_config.
struct param_def : param_meta {
    std::function<void(platform_config&, const param_value&)> set;
    std::function<param_value(const platform_config&)> get;
};

// What is known of a key's value: its provenance record, or for a cost without one the kind its
// source text says ("assumption..." -> assumed, "calibrated..." -> calibrated, "measured..." ->
// measured, "--set..." -> set,
// otherwise sourced, with the cost's range), or `default`.
value_provenance provenance_of(const platform_config& cfg, const param_def& def);
// The kinds a platform file may state.
bool is_stated_kind(const std::string& kind);
// The kind a cost's source text states: "assumption..." assumed, "calibrated..." calibrated,
// "measured..." measured, "--set..." set, anything else sourced.
std::string cost_kind_from_source(const std::string& source);

// The figures a value may be calibrated on (reference-result.md, "Calibration and prediction"):
// the rows of the reference table, on the cancel column only; at most three values, no two on
// one figure.
const std::vector<std::string>& calibration_metrics();
const std::vector<std::string>& calibration_policies();
constexpr unsigned k_max_calibrated = 3;
// "kvm_guest_exit, cancel".
std::string figure_text(const calibration_figure& f);

// Every key, in file order: machine, l0, l1, l2, workload, run; costs after each level's keys.
const std::vector<param_def>& param_schema();
// nullptr when no key has that path.
const param_def* find_param(const std::string& path);
// The nearest key to an unknown one (edit distance), or "" when none is close.
std::string nearest_param(const std::string& path, const std::vector<std::string>& candidates);

// A platform_config with every default (the declarations' field initializers).
platform_config default_platform();

std::string type_name(param_type t);
// "1..1024", "(0, 1e+06]", "tlm|rtl|lockstep", "" when any value goes.
std::string range_text(const param_def& def);
// The expectation in error messages: "an integer in 1..1024", "one of cancel|no-cancel|...".
std::string expectation(const param_def& def);
// A value as YAML text that parses back to the same value (strings double-quoted).
std::string format_value(const param_def& def, const param_value& v);
// The same with its provenance when the file stated one: {value: V, kind: K, source: "...",
// range: [lo, hi], calibrated_on: {metric: M, policy: P}} for a non-cost key; `kind:` and
// `calibrated_on:` added to a cost that stated them.
std::string format_stated(const param_def& def, const param_value& v, const value_provenance& p);
// Shortest decimal text of v that reads back to exactly v.
std::string format_real(double v);
// Double-quoted YAML string with escapes.
std::string yaml_quote(const std::string& s);

// `nestvp params`: every key with type, default, unit, range and description.
// Every key (starting with `prefix`) with its default, or with its value in `values` when given
// (a platform file's, after its includes and --set).
void print_params_table(std::ostream& out, const std::string& prefix = "",
                        const platform_config* values = nullptr);
void print_params_markdown(std::ostream& out, const std::string& prefix = "",
                           const platform_config* values = nullptr);

}  // namespace nestvp
