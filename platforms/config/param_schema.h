#pragma once
// The schema of a platform file: one entry per key, with its dotted path, type, default,
// unit, range or choices, description, and how it reads and writes the platform_config field.
// The loader (platform_loader.cpp), --set, `nestvp params` and dump_config all use this table,
// so a key exists in all of them or in none.
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "platforms/config/platform_config.h"

namespace nestvp {

enum class param_type {
    uint,       // unsigned integer written in decimal (a float such as 4.0 is an error)
    hz,         // a frequency: a positive integer, scientific notation allowed (3.0e9)
    real,       // a floating-point number
    boolean,    // true | false
    string,     // any scalar text
    choice,     // one of `choices`
    real_list,  // a list of floating-point numbers
    cost,       // a cost: {cycles: N, source: "..."} in a file, N cycles with --set
};

// One parsed value; which member is meaningful depends on the type.
struct param_value {
    uint64_t u = 0;            // uint, hz, cost (cycles)
    double d = 0.0;            // real
    bool b = false;            // boolean
    std::string s;             // string, choice, cost (source)
    std::vector<double> list;  // real_list; cost: its range [lo, hi] when given
    std::string kind;          // cost: a `kind:` stated in the file (empty: from the source)
};

struct param_def {
    std::string path;  // "l2.vcpus"
    param_type type = param_type::string;
    std::string unit;  // "Hz", "s", "cycles", "" when unitless
    double min = 0.0;  // numeric range, inclusive; min_open makes it (min, max]
    double max = 0.0;
    bool min_open = false;
    std::vector<std::string> choices;  // for choice
    std::string description;
    std::function<void(platform_config&, const param_value&)> set;
    std::function<param_value(const platform_config&)> get;
};

// What is known of a key's value: its provenance record, or for a cost without one the kind its
// source text says ("assumption..." -> assumed, "calibrated..." -> calibrated, "--set..." -> set,
// otherwise sourced, with the cost's range), or `default`.
value_provenance provenance_of(const platform_config& cfg, const param_def& def);
// The kinds a platform file may state.
bool is_stated_kind(const std::string& kind);

// Every key, in file order: machine, l0, l1, l2, workload, run; costs after each level's keys.
const std::vector<param_def>& param_schema();
// nullptr when no key has that path.
const param_def* find_param(const std::string& path);
// The nearest key to an unknown one (edit distance), or "" when none is close.
std::string nearest_param(const std::string& path, const std::vector<std::string>& candidates);

// A platform_config with every default, costs from the catalog included.
platform_config default_platform();

std::string type_name(param_type t);
// "1..1024", "(0, 1e+06]", "tlm|rtl|lockstep", "" when any value goes.
std::string range_text(const param_def& def);
// The expectation in error messages: "an integer in 1..1024", "one of cancel|no-cancel|...".
std::string expectation(const param_def& def);
// A value as YAML text that parses back to the same value (strings double-quoted).
std::string format_value(const param_def& def, const param_value& v);
// The same with its provenance when the file stated one: {value: V, kind: K, source: "...",
// range: [lo, hi]} for a non-cost key, `kind:` added to a cost that stated it.
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
