#include "platforms/config/yaml_value.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <regex>

#include "platforms/config/platform_loader.h"
#include "platforms/config/yaml_guard.h"

namespace nestvp {

namespace {

std::string scalar_path_value(const YAML::Node& n) {
    return n.IsScalar() ? n.Scalar() : "";
}

// Text of a plain integer as a signed magnitude; false on overflow.
bool parse_integer(const std::string& s, bool& negative, uint64_t& magnitude) {
    size_t i = 0;
    negative = false;
    if (s[i] == '+' || s[i] == '-') negative = s[i++] == '-';
    errno = 0;
    char* end = nullptr;
    magnitude = std::strtoull(s.c_str() + i, &end, 10);
    return errno != ERANGE;
}

uint64_t parse_uint(const param_def& d, const YAML::Node& n, const yaml_origin& where,
                    const std::string& path) {
    const std::string expected = expectation(d);
    if (!is_plain_scalar(n)) throw_config(where.at(n), path, expected, describe_found(n));
    const std::string& s = n.Scalar();
    double value = 0;
    if (is_integer_text(s)) {
        bool neg = false;
        uint64_t mag = 0;
        if (!parse_integer(s, neg, mag)) throw_config(where.at(n), path, expected, s);
        if (neg && mag != 0) throw_config(where.at(n), path, expected, s);
        if (d.max == 0 && d.min == 0) return mag;  // the whole uint64 range
        value = static_cast<double>(mag);
        if (value < d.min || value > d.max) throw_config(where.at(n), path, expected, s);
        return mag;
    }
    if (d.type == param_type::hz && is_float_text(s)) {
        value = std::strtod(s.c_str(), nullptr);
        if (value != std::floor(value) || value < d.min || value > d.max)
            throw_config(where.at(n), path, expected, s);
        return static_cast<uint64_t>(value);
    }
    if (is_float_text(s)) throw_config(where.at(n), path, expected, s + " (not an integer)");
    throw_config(where.at(n), path, expected, describe_found(n));
}

double parse_real(const param_def& d, const YAML::Node& n, const yaml_origin& where,
                  const std::string& path) {
    const std::string expected =
        d.type == param_type::real_list ? "a number in " + range_text(d) : expectation(d);
    if (!is_plain_scalar(n) || !(is_integer_text(n.Scalar()) || is_float_text(n.Scalar())))
        throw_config(where.at(n), path, expected, describe_found(n));
    const double v = std::strtod(n.Scalar().c_str(), nullptr);
    const bool below = d.min_open ? v <= d.min : v < d.min;
    if (!std::isfinite(v) || below || v > d.max)
        throw_config(where.at(n), path, expected, n.Scalar());
    return v;
}

// A scalar's text, which must be UTF-8 (require_utf8).
const std::string& utf8_text(const YAML::Node& n, const yaml_origin& where,
                             const std::string& path) {
    require_utf8(n.Scalar(), where.at(n), path);
    return n.Scalar();
}

std::string parse_string(const param_def& d, const YAML::Node& n, const yaml_origin& where,
                         const std::string& path) {
    if (!n.IsScalar()) throw_config(where.at(n), path, expectation(d), describe_found(n));
    return utf8_text(n, where, path);
}

// calibrated_on: {metric: M, policy: P}, the one published figure a calibrated value was set
// from (reference-result.md, "Calibration and prediction"): a row of the reference table, on the
// cancel column (the kernel as fixed); the no-cancel column is predicted, never calibrated on.
calibration_figure parse_figure(const YAML::Node& key, const YAML::Node& n, const std::string& path,
                                const yaml_origin& where) {
    std::string metrics;
    for (const auto& m : calibration_metrics()) metrics += (metrics.empty() ? "" : "|") + m;
    const std::string expected = "{metric: " + metrics + ", policy: cancel}";
    if (!n.IsMap()) throw_config(where.at(n, key.Mark()), path, expected, describe_found(n));
    check_unique_keys(n, path, where);
    const auto one_of = [](const YAML::Node& x, const std::vector<std::string>& choices) {
        if (!x.IsScalar()) return false;
        for (const auto& c : choices)
            if (c == x.Scalar()) return true;
        return false;
    };
    calibration_figure f;
    for (const auto& kv : n) {
        const std::string k = scalar_path_value(kv.first);
        const std::string at = where.at(kv.second, kv.first.Mark());
        if (k == "metric") {
            if (!one_of(kv.second, calibration_metrics()))
                throw_config(at, path + ".metric",
                             "one of " + metrics + " (a row of the reference table)",
                             describe_found(kv.second));
            f.metric = kv.second.Scalar();
        } else if (k == "policy") {
            if (!one_of(kv.second, calibration_policies()))
                throw_config(at, path + ".policy",
                             "cancel (only the cancel column, the kernel as fixed, may be "
                             "calibrated on)",
                             kv.second.IsScalar() && kv.second.Scalar() == "no-cancel"
                                 ? "no-cancel, whose figures are predicted"
                                 : describe_found(kv.second));
            f.policy = kv.second.Scalar();
        } else {
            throw_config(where.at(kv.first), path + "." + k,
                         "a key of calibrated_on (metric, policy)", "unknown key '" + k + "'");
        }
    }
    if (f.metric.empty()) throw_config(where.at(n, key.Mark()), path, expected, "no metric");
    if (f.policy.empty()) throw_config(where.at(n, key.Mark()), path, expected, "no policy");
    return f;
}

// A calibrated value names its figure, and only a calibrated value does (docs/platform-file.md,
// "Kinds"). `kind_at` is where the kind was stated (a cost's source text when `from_text`),
// `figure_at` where calibrated_on was.
void check_figure(const std::string& path, const std::string& kind, const std::string& kind_at,
                  bool from_text, const calibration_figure& f, const std::string& figure_at) {
    if (kind == "calibrated" && f.empty())
        throw_config(kind_at, path,
                     "calibrated_on: {metric, policy} on a calibrated value (the published "
                     "figure it was set from)",
                     from_text ? "no calibrated_on (the source text starts 'calibrated')"
                               : "no calibrated_on");
    if (kind != "calibrated" && !f.empty())
        throw_config(figure_at, path + ".calibrated_on", "calibrated_on only on a calibrated value",
                     "a " + kind + " value" +
                         (from_text ? " (its source text does not start 'calibrated')" : ""));
}

}  // namespace

param_value parse_cost(const param_def& d, const YAML::Node& n, const yaml_origin& where,
                       value_provenance& out) {
    const std::string expected = expectation(d);
    param_value v;
    out = {};
    if (!n.IsMap()) throw_config(where.at(n), d.path, expected, describe_found(n));
    check_unique_keys(n, d.path, where);
    // Cycles are a real (a fractional figure stays as its source gives it); a range, integers.
    param_def cycles = d, bound = d;
    cycles.type = param_type::real;
    bound.type = param_type::uint;
    bool have_cycles = false, have_source = false;
    std::string stated_kind;
    YAML::Node kind_node, source_node, figure_key;
    calibration_figure figure;
    for (const auto& kv : n) {
        const std::string key = scalar_path_value(kv.first);
        const std::string path = d.path + "." + key;
        if (key == "cycles") {
            v.d = parse_real(cycles, kv.second, where, path);
            have_cycles = true;
        } else if (key == "source") {
            if (!kv.second.IsScalar() || kv.second.Scalar().empty())
                throw_config(where.at(kv.second, kv.first.Mark()), path,
                             "a non-empty string naming where the figure comes from",
                             describe_found(kv.second));
            v.s = utf8_text(kv.second, where, path);
            source_node = kv.second;
            have_source = true;
        } else if (key == "range") {
            // The plausible range of an assumed figure: [lo, hi], two integers, lo <= hi.
            const std::string want = "[lo, hi]: two integers in " +
                                     std::to_string(uint64_t(d.min)) + ".." +
                                     std::to_string(uint64_t(d.max)) + ", lo <= hi";
            if (!kv.second.IsSequence() || kv.second.size() != 2)
                throw_config(where.at(kv.second, kv.first.Mark()), path, want,
                             describe_found(kv.second));
            const uint64_t lo = parse_uint(bound, kv.second[0], where, path + "[0]");
            const uint64_t hi = parse_uint(bound, kv.second[1], where, path + "[1]");
            if (lo > hi)
                throw_config(where.at(kv.second, kv.first.Mark()), path, want,
                             "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
            v.list = {static_cast<double>(lo), static_cast<double>(hi)};
        } else if (key == "kind") {
            if (!kv.second.IsScalar() || !is_stated_kind(kv.second.Scalar()))
                throw_config(where.at(kv.second, kv.first.Mark()), path,
                             "sourced, assumed, calibrated or measured", describe_found(kv.second));
            stated_kind = kv.second.Scalar();
            kind_node = kv.second;
        } else if (key == "calibrated_on") {
            figure = parse_figure(kv.first, kv.second, path, where);
            figure_key = kv.first;
        } else {
            throw_config(where.at(kv.first), path,
                         "a cost key (cycles, source, range, kind or calibrated_on)",
                         "unknown key '" + key + "'");
        }
    }
    if (stated_kind == "assumed" && v.list.size() != 2)
        throw_config(where.at(n), d.path, "a range [lo, hi] with kind: assumed", "no range");
    if (!have_cycles) throw_config(where.at(n), d.path, expected, "no cycles");
    if (!have_source) throw_config(where.at(n), d.path, expected, "no source");
    // Without `kind:`, the source text states the kind.
    const bool from_text = stated_kind.empty();
    const std::string kind = from_text ? cost_kind_from_source(v.s) : stated_kind;
    check_figure(d.path, kind, where.at(from_text ? source_node : kind_node), from_text, figure,
                 where.at(figure_key));
    if (!from_text || !figure.empty()) out = {kind, v.s, v.list, figure};
    if (v.list.size() == 2 && (v.d < v.list[0] || v.d > v.list[1]))
        throw_config(where.at(n), d.path + ".range",
                     "a range that holds cycles (" + format_real(v.d) + ")",
                     "[" + std::to_string(uint64_t(v.list[0])) + ", " +
                         std::to_string(uint64_t(v.list[1])) + "]");
    return v;
}

std::string yaml_origin::at(const YAML::Mark& m) const {
    if (!fixed.empty()) return fixed;
    if (m.line < 0) return file;
    return file + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

std::string yaml_origin::at(const YAML::Node& n, const YAML::Mark& fallback) const {
    if (!fixed.empty()) return fixed;
    YAML::Mark m = n.IsDefined() ? n.Mark() : YAML::Mark::null_mark();
    return at(m.line < 0 ? fallback : m);
}

void require_utf8(const std::string& text, const std::string& place, const std::string& path) {
    const size_t at = first_non_utf8(text);
    if (at == std::string::npos) return;
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[at]));
    throw_config(place, path, "UTF-8 text",
                 "byte " + std::string(byte) + " (byte " + std::to_string(at + 1) +
                     " of the value), which is not UTF-8");
}

void throw_config(const std::string& place, const std::string& path, const std::string& expected,
                  const std::string& found) {
    std::string msg = place + ": ";
    if (!path.empty()) msg += path + ": ";
    throw config_error(msg + "expected " + expected + ", found " + found);
}

std::string describe_found(const YAML::Node& n) {
    if (!n.IsDefined() || n.IsNull()) return "nothing";
    if (n.IsMap()) return "a mapping";
    if (n.IsSequence()) return "a list";
    const std::string& s = n.Scalar();
    if (is_plain_scalar(n) && (is_integer_text(s) || is_float_text(s))) return s;
    return describe_scalar(n);
}

bool is_integer_text(const std::string& s) {
    static const std::regex re("[-+]?[0-9]+");
    return std::regex_match(s, re);
}

bool is_float_text(const std::string& s) {
    static const std::regex re("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
    return std::regex_match(s, re);
}

param_value parse_node(const param_def& d, const YAML::Node& n, const yaml_origin& where) {
    param_value v;
    switch (d.type) {
        case param_type::uint:
        case param_type::hz:
            v.u = parse_uint(d, n, where, d.path);
            break;
        case param_type::real:
            v.d = parse_real(d, n, where, d.path);
            break;
        case param_type::boolean: {
            const std::string s = n.IsScalar() ? n.Scalar() : "";
            if (!is_plain_scalar(n) || !(s == "true" || s == "false" || s == "True" ||
                                         s == "False" || s == "TRUE" || s == "FALSE"))
                throw_config(where.at(n), d.path, expectation(d), describe_found(n));
            v.b = s[0] == 't' || s[0] == 'T';
            break;
        }
        case param_type::string:
            v.s = parse_string(d, n, where, d.path);
            break;
        case param_type::choice: {
            v.s = parse_string(d, n, where, d.path);
            bool ok = false;
            for (const auto& c : d.choices) ok = ok || c == v.s;
            if (!ok) throw_config(where.at(n), d.path, expectation(d), describe_found(n));
            break;
        }
        case param_type::real_list: {
            if (!n.IsSequence() || n.size() == 0)
                throw_config(where.at(n), d.path, expectation(d), describe_found(n));
            for (size_t i = 0; i < n.size(); ++i)
                v.list.push_back(
                    parse_real(d, n[i], where, d.path + "[" + std::to_string(i) + "]"));
            break;
        }
        case param_type::cost: {
            value_provenance stated;
            v = parse_cost(d, n, where, stated);
            break;
        }
    }
    return v;
}

param_value parse_stated_value(const param_def& d, const YAML::Node& n, const yaml_origin& where,
                               value_provenance& out) {
    check_unique_keys(n, d.path, where);
    const bool numeric =
        d.type == param_type::uint || d.type == param_type::hz || d.type == param_type::real;
    const std::string keys = numeric ? "value, kind, source, range or calibrated_on"
                                     : "value, kind, source or calibrated_on";
    param_value v;
    YAML::Node range_node, kind_node, figure_key;
    bool have_value = false;
    out = {};
    for (const auto& kv : n) {
        const std::string key = scalar_path_value(kv.first);
        const std::string path = d.path + "." + key;
        if (key == "value") {
            param_def plain = d;
            plain.path = path;
            v = parse_node(plain, kv.second, where);
            have_value = true;
        } else if (key == "kind") {
            if (!kv.second.IsScalar() || !is_stated_kind(kv.second.Scalar()))
                throw_config(where.at(kv.second, kv.first.Mark()), path,
                             "sourced, assumed, calibrated or measured", describe_found(kv.second));
            out.kind = kv.second.Scalar();
            kind_node = kv.second;
        } else if (key == "source") {
            if (!kv.second.IsScalar() || kv.second.Scalar().empty())
                throw_config(where.at(kv.second, kv.first.Mark()), path,
                             "a non-empty string: the source, the reason, or the published "
                             "figure",
                             describe_found(kv.second));
            out.source = utf8_text(kv.second, where, path);
        } else if (key == "range" && numeric) {
            if (!kv.second.IsSequence() || kv.second.size() != 2)
                throw_config(where.at(kv.second, kv.first.Mark()), path,
                             "[lo, hi]: two numbers in " + range_text(d) + ", lo <= hi",
                             describe_found(kv.second));
            param_def bound = d;
            bound.type = param_type::real;
            const double lo = parse_real(bound, kv.second[0], where, path + "[0]");
            const double hi = parse_real(bound, kv.second[1], where, path + "[1]");
            if (lo > hi)
                throw_config(where.at(kv.second, kv.first.Mark()), path, "lo <= hi",
                             "[" + format_real(lo) + ", " + format_real(hi) + "]");
            out.range = {lo, hi};
            range_node = kv.second;
        } else if (key == "calibrated_on") {
            out.calibrated_on = parse_figure(kv.first, kv.second, path, where);
            figure_key = kv.first;
        } else {
            throw_config(where.at(kv.first), path, "a key of a stated value (" + keys + ")",
                         "unknown key '" + key + "'");
        }
    }
    const std::string expected = "{value, kind, source" + std::string(numeric ? ", range}" : "}");
    if (!have_value) throw_config(where.at(n), d.path, expected, "no value");
    if (out.kind.empty()) throw_config(where.at(n), d.path, expected, "no kind");
    if (out.source.empty()) throw_config(where.at(n), d.path, expected, "no source");
    if (out.kind == "assumed" && numeric && out.range.empty())
        throw_config(where.at(kind_node), d.path, "a range [lo, hi] with kind: assumed",
                     "no range");
    check_figure(d.path, out.kind, where.at(kind_node), false, out.calibrated_on,
                 where.at(figure_key));
    if (!out.range.empty()) {
        const double x = d.type == param_type::real ? v.d : static_cast<double>(v.u);
        if (x < out.range[0] || x > out.range[1])
            throw_config(where.at(range_node), d.path + ".range",
                         "a range that holds the value (" + format_real(x) + ")",
                         "[" + format_real(out.range[0]) + ", " + format_real(out.range[1]) + "]");
    }
    return v;
}

void check_unique_keys(const YAML::Node& map, const std::string& path, const yaml_origin& where) {
    std::map<std::string, YAML::Mark> seen;
    for (const auto& kv : map) {
        const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
        const std::string full = path.empty() ? key : path + "." + key;
        if (!kv.first.IsScalar())
            throw_config(where.at(kv.first), full, "a plain key", describe_found(kv.first));
        auto it = seen.find(key);
        if (it != seen.end())
            throw_config(
                where.at(kv.first), full, "each key once",
                "'" + key + "' again (first at line " + std::to_string(it->second.line + 1) + ")");
        seen.emplace(key, kv.first.Mark());
    }
}

}  // namespace nestvp
