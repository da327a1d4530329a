#include "platforms/config/param_schema.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <sstream>

#include <yaml-cpp/yaml.h>

namespace nestvp {

namespace {

// Mounts the declarations of config struct C, found in a platform_config by `part`, at
// `prefix`: the one place that says where each component's keys live in the file.
template <class C, class Part>
void mount(std::vector<param_def>& t, const std::string& prefix, Part part) {
    param_list<C> list;
    C::describe(list);
    for (const auto& d : list.decls()) {
        param_def p;
        static_cast<param_meta&>(p) = d.meta;
        p.path = prefix + d.meta.path;
        p.set = [part, set = d.set](platform_config& c, const param_value& v) { set(part(c), v); };
        p.get = [part, get = d.get](const platform_config& c) {
            return get(part(const_cast<platform_config&>(c)));
        };
        t.push_back(std::move(p));
    }
}

// Every key, in file order: machine, l0, l1, l2, workload, run; costs after each level's keys.
std::vector<param_def> build_schema() {
    using pc = platform_config;
    std::vector<param_def> t;
    mount<platform_config>(t, "", [](pc& c) -> platform_config& { return c; });
    // machine: field-anchors.md §1.2 (QBox style: the file is the machine's netlist).
    mount<core_config>(t, "machine.", [](pc& c) -> core_config& { return c.machine.core; });
    mount<machine_config>(t, "machine.", [](pc& c) -> machine_config& { return c.machine; });
    mount<timer_unit_options>(t, "machine.timer.",
                              [](pc& c) -> timer_unit_options& { return c.machine.timer; });
    mount<memory_config>(t, "machine.memory.",
                         [](pc& c) -> memory_config& { return c.machine.memory; });
    mount<l0_config>(t, "l0.", [](pc& c) -> l0_config& { return c.l0; });
    mount<l0_costs>(t, "l0.costs.", [](pc& c) -> l0_costs& { return c.l0.costs; });
    mount<l1_config>(t, "l1.", [](pc& c) -> l1_config& { return c.l1; });
    mount<l1_costs>(t, "l1.costs.", [](pc& c) -> l1_costs& { return c.l1.costs; });
    mount<l2_section>(t, "l2.", [](pc& c) -> l2_section& { return c.l2; });
    mount<l2_config>(t, "l2.", [](pc& c) -> l2_config& { return c.l2; });
    mount<l2_costs>(t, "l2.costs.", [](pc& c) -> l2_costs& { return c.l2.costs; });
    mount<workload_config>(t, "workload.", [](pc& c) -> workload_config& { return c.workload; });
    mount<run_config>(t, "run.", [](pc& c) -> run_config& { return c.run; });
    return t;
}

size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
            diag = up;
        }
    }
    return row[b.size()];
}

std::string last_segment(const std::string& p) {
    auto dot = p.rfind('.');
    return dot == std::string::npos ? p : p.substr(dot + 1);
}

std::string number_text(double v) {
    if (std::fabs(v) < 1e7 && v == std::floor(v)) return std::to_string(static_cast<long long>(v));
    return format_real(v);
}

}  // namespace

const std::vector<param_def>& param_schema() {
    static const std::vector<param_def> schema = build_schema();
    return schema;
}

const param_def* find_param(const std::string& path) {
    for (const auto& d : param_schema())
        if (d.path == path) return &d;
    return nullptr;
}

std::string nearest_param(const std::string& path, const std::vector<std::string>& candidates) {
    std::string best;
    size_t best_d = static_cast<size_t>(-1);
    for (const auto& c : candidates) {
        size_t d =
            std::min(edit_distance(path, c), edit_distance(last_segment(path), last_segment(c)));
        if (d < best_d) best_d = d, best = c;
    }
    const size_t limit = std::max<size_t>(1, last_segment(path).size() / 3);
    return best_d <= limit ? best : std::string();
}

bool is_stated_kind(const std::string& kind) {
    return kind == "sourced" || kind == "assumed" || kind == "calibrated" || kind == "measured";
}

std::string cost_kind_from_source(const std::string& s) {
    const auto starts = [&s](const char* p) { return s.rfind(p, 0) == 0; };
    return starts("assumption")   ? "assumed"
           : starts("calibrated") ? "calibrated"
           : starts("measured")   ? "measured"
           : starts("--set")      ? "set"
                                  : "sourced";
}

const std::vector<std::string>& calibration_metrics() {
    static const std::vector<std::string> m = {"kvm_guest_exit", "arithoh_count", "gsb_recv"};
    return m;
}

const std::vector<std::string>& calibration_policies() {
    static const std::vector<std::string> p = {"cancel"};
    return p;
}

std::string figure_text(const calibration_figure& f) {
    return f.metric + ", " + f.policy;
}

value_provenance provenance_of(const platform_config& cfg, const param_def& def) {
    const auto it = cfg.provenance.find(def.path);
    if (it != cfg.provenance.end()) return it->second;
    if (def.type == param_type::cost) {
        const param_value v = def.get(cfg);
        return {cost_kind_from_source(v.s), v.s, v.list, {}};
    }
    return {"default", "the schema's default", {}, {}};
}

platform_config default_platform() {
    return platform_config{};
}

std::string type_name(param_type t) {
    switch (t) {
        case param_type::uint:
            return "integer";
        case param_type::hz:
            return "frequency";
        case param_type::real:
            return "number";
        case param_type::boolean:
            return "boolean";
        case param_type::string:
            return "string";
        case param_type::choice:
            return "enum";
        case param_type::real_list:
            return "list";
        case param_type::cost:
            return "cost";
    }
    return "?";
}

std::string range_text(const param_def& d) {
    switch (d.type) {
        case param_type::choice: {
            std::string s;
            for (const auto& c : d.choices) s += (s.empty() ? "" : "|") + c;
            return s;
        }
        case param_type::uint:
        case param_type::hz:
            if (d.min == 0 && d.max == 0) return "";
            return number_text(d.min) + ".." + number_text(d.max);
        case param_type::real:
        case param_type::real_list:
        case param_type::cost:
            return (d.min_open ? "(" : "[") + number_text(d.min) + ", " + number_text(d.max) + "]";
        default:
            return "";
    }
}

std::string expectation(const param_def& d) {
    const std::string r = range_text(d);
    switch (d.type) {
        case param_type::uint:
            return r.empty() ? "an unsigned integer" : "an integer in " + r;
        case param_type::hz:
            return "a frequency in Hz, an integer in " + r;
        case param_type::real:
            return "a number in " + r;
        case param_type::boolean:
            return "true or false";
        case param_type::string:
            return "a string";
        case param_type::choice:
            return "one of " + r;
        case param_type::real_list:
            return "a list of numbers in " + r;
        case param_type::cost:
            return "{cycles: a number in " + r +
                   ", source: a non-empty string, optional range: [lo, hi] around cycles}";
    }
    return "?";
}

std::string format_real(double v) {
    if (std::isnan(v)) return ".nan";
    if (std::isinf(v)) return v > 0 ? ".inf" : "-.inf";
    char buf[40];
    for (int p = 1; p <= 17; ++p) {
        std::snprintf(buf, sizeof buf, "%.*g", p, v);
        if (std::strtod(buf, nullptr) == v) break;
    }
    // Prefer plain decimals ("10", not "1e+01") for values people write that way.
    if (std::strchr(buf, 'e') && std::fabs(v) >= 1e-4 && std::fabs(v) < 1e15) {
        char fixed[64];
        for (int p = 0; p <= 20; ++p) {
            std::snprintf(fixed, sizeof fixed, "%.*f", p, v);
            if (std::strtod(fixed, nullptr) == v) return fixed;
        }
    }
    return buf;
}

// A YAML double-quoted scalar, escaped by yaml-cpp's emitter.
std::string yaml_quote(const std::string& s) {
    YAML::Emitter out;
    out << YAML::DoubleQuoted << s;
    return out.c_str();
}

std::string format_value(const param_def& d, const param_value& v) {
    switch (d.type) {
        case param_type::uint:
        case param_type::hz:
            return std::to_string(v.u);
        case param_type::real:
            return format_real(v.d);
        case param_type::boolean:
            return v.b ? "true" : "false";
        case param_type::string:
            return yaml_quote(v.s);
        case param_type::choice:
            return v.s;
        case param_type::real_list: {
            std::string s = "[";
            for (size_t i = 0; i < v.list.size(); ++i)
                s += (i ? ", " : "") + format_real(v.list[i]);
            return s + "]";
        }
        case param_type::cost:
            return "{cycles: " + format_real(v.d) + ", source: " + yaml_quote(v.s) +
                   (v.list.size() == 2 ? ", range: [" + std::to_string(uint64_t(v.list[0])) + ", " +
                                             std::to_string(uint64_t(v.list[1])) + "]"
                                       : std::string()) +
                   "}";
    }
    return "";
}

std::string format_stated(const param_def& d, const param_value& v, const value_provenance& p) {
    if (!is_stated_kind(p.kind)) return format_value(d, v);
    const std::string on = p.calibrated_on.empty()
                               ? std::string()
                               : ", calibrated_on: {metric: " + p.calibrated_on.metric +
                                     ", policy: " + p.calibrated_on.policy + "}";
    if (d.type == param_type::cost) {
        std::string s = format_value(d, v);
        s.pop_back();  // '}'
        if (p.kind != cost_kind_from_source(v.s)) s += ", kind: " + p.kind;
        return s + on + "}";
    }
    std::string s =
        "{value: " + format_value(d, v) + ", kind: " + p.kind + ", source: " + yaml_quote(p.source);
    if (p.range.size() == 2)
        s += ", range: [" + format_real(p.range[0]) + ", " + format_real(p.range[1]) + "]";
    return s + on + "}";
}

void print_params_table(std::ostream& out, const std::string& prefix,
                        const platform_config* values) {
    const platform_config def = values ? *values : default_platform();
    char line[512];
    if (values)
        std::snprintf(line, sizeof line, "%-34s %-9s %-22s %-11s %-6s %-32s %s\n", "KEY", "TYPE",
                      "VALUE", "KIND", "UNIT", "RANGE", "DESCRIPTION");
    else
        std::snprintf(line, sizeof line, "%-34s %-9s %-22s %-6s %-32s %s\n", "KEY", "TYPE",
                      "DEFAULT", "UNIT", "RANGE", "DESCRIPTION");
    out << line;
    for (const auto& d : param_schema()) {
        if (!prefix.empty() && d.path.compare(0, prefix.size(), prefix) != 0) continue;
        const param_value v = d.get(def);
        std::string shown = d.type == param_type::cost ? format_real(v.d) : format_value(d, v);
        std::string desc = d.description;
        if (d.type == param_type::cost) desc += " [source: " + v.s + "]";
        if (values) {
            const value_provenance p = provenance_of(def, d);
            const std::string on =
                p.calibrated_on.empty() ? "" : " on " + figure_text(p.calibrated_on);
            if (is_stated_kind(p.kind) && d.type != param_type::cost) {
                desc += " [" + p.kind + on + ": " + p.source;
                if (p.range.size() == 2)
                    desc += "; range " + format_real(p.range[0]) + "-" + format_real(p.range[1]);
                desc += "]";
            } else if (!on.empty()) {
                desc += " [" + p.kind + on + "]";
            }
            std::snprintf(line, sizeof line, "%-34s %-9s %-22s %-11s %-6s %-32s ", d.path.c_str(),
                          type_name(d.type).c_str(), shown.c_str(), p.kind.c_str(), d.unit.c_str(),
                          range_text(d).c_str());
        } else {
            std::snprintf(line, sizeof line, "%-34s %-9s %-22s %-6s %-32s ", d.path.c_str(),
                          type_name(d.type).c_str(), shown.c_str(), d.unit.c_str(),
                          range_text(d).c_str());
        }
        out << line << desc << "\n";
    }
}

void print_params_markdown(std::ostream& out, const std::string& prefix,
                           const platform_config* values) {
    const platform_config def = values ? *values : default_platform();
    out << "| key | type | " << (values ? "value | kind" : "default")
        << " | unit | range | description |\n";
    out << (values ? "|---|---|---|---|---|---|---|\n" : "|---|---|---|---|---|---|\n");
    for (const auto& d : param_schema()) {
        if (!prefix.empty() && d.path.compare(0, prefix.size(), prefix) != 0) continue;
        const param_value v = d.get(def);
        std::string shown = d.type == param_type::cost ? format_real(v.d) : format_value(d, v);
        std::string desc = d.description;
        if (d.type == param_type::cost) desc += " (source: " + v.s + ")";
        std::string range = range_text(d);
        for (auto* s : {&shown, &desc, &range}) {
            std::string e;
            for (char ch : *s) e += ch == '|' ? std::string("\\|") : std::string(1, ch);
            *s = e;
        }
        out << "| `" << d.path << "` | " << type_name(d.type) << " | `" << shown << "` | ";
        if (values) {
            const value_provenance p = provenance_of(def, d);
            out << p.kind;
            if (!p.calibrated_on.empty()) out << " on " << figure_text(p.calibrated_on);
            out << " | ";
        }
        out << d.unit << " | " << range << " | " << desc << " |\n";
    }
}

}  // namespace nestvp
