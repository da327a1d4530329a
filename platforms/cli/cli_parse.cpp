// Command-line parsing for the nestvp commands.
#include "platforms/report/cli_args.h"

#include <charconv>
#include <cmath>

namespace nestvp {

std::string parsed_args::get(const std::string& name, const std::string& fallback) const {
    const auto it = values.find(name);
    return it == values.end() || it->second.empty() ? fallback : it->second.back();
}

std::vector<std::string> parsed_args::all(const std::string& name) const {
    const auto it = values.find(name);
    return it == values.end() ? std::vector<std::string>{} : it->second;
}

parsed_args parse_args(const std::string& cmd, const std::vector<std::string>& args,
                       const std::vector<option_spec>& specs) {
    const std::string pre = "nestvp " + cmd + ": ";
    const std::string hint = " (see 'nestvp " + cmd + " --help')";
    parsed_args out;
    bool options_done = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (options_done || a.size() < 2 || a[0] != '-') {
            out.positional.push_back(a);
            continue;
        }
        if (a == "--") {
            options_done = true;
            continue;
        }
        std::string name = a, inline_value;
        bool has_inline = false;
        const auto eq = a.find('=');
        if (a.compare(0, 2, "--") == 0 && eq != std::string::npos) {
            name = a.substr(0, eq);
            inline_value = a.substr(eq + 1);
            has_inline = true;
        }
        const option_spec* spec = nullptr;
        for (const auto& s : specs)
            if (s.name == name || (!s.alias.empty() && s.alias == name)) spec = &s;
        if (!spec) throw usage_error(pre + "unknown option '" + name + "'" + hint);
        if (!spec->repeatable && out.has(spec->name))
            throw usage_error(pre + "option '" + spec->name + "' given more than once");
        if (!spec->takes_value) {
            if (has_inline) throw usage_error(pre + "option '" + spec->name + "' takes no value");
            out.values[spec->name].push_back("");
            continue;
        }
        std::string value;
        if (has_inline) {
            value = inline_value;
        } else {
            if (i + 1 >= args.size() || args[i + 1].compare(0, 2, "--") == 0)
                throw usage_error(pre + "option '" + name + "' needs a value" + hint);
            value = args[++i];
        }
        if (value.empty()) throw usage_error(pre + "option '" + name + "' needs a non-empty value");
        out.values[spec->name].push_back(value);
    }
    return out;
}

unsigned parse_positive_int(const std::string& flag, const std::string& text) {
    unsigned long v = 0;
    const char* b = text.data();
    const char* e = b + text.size();
    const auto r = std::from_chars(b, e, v);
    if (text.empty() || r.ec != std::errc() || r.ptr != e || v == 0 || v > 4096)
        throw usage_error(flag + ": expected a whole number from 1 to 4096, got '" + text + "'");
    return static_cast<unsigned>(v);
}

double parse_seconds(const std::string& flag, const std::string& text) {
    double v = 0;
    const char* b = text.data();
    const char* e = b + text.size();
    const auto r = std::from_chars(b, e, v);
    if (text.empty() || r.ec != std::errc() || r.ptr != e || !std::isfinite(v) || v < 0)
        throw usage_error(flag + ": expected a time in seconds (a number >= 0), got '" + text +
                          "'");
    return v;
}

std::pair<double, double> parse_window(const std::string& flag, const std::string& text) {
    const auto colon = text.find(':');
    if (colon == std::string::npos)
        throw usage_error(flag + ": expected START_S:END_S (e.g. 0.5:1.5), got '" + text + "'");
    const std::string s = text.substr(0, colon), e = text.substr(colon + 1);
    const double start = s.empty() ? 0.0 : parse_seconds(flag + " (start)", s);
    const double end = e.empty() ? -1.0 : parse_seconds(flag + " (end)", e);
    if (end >= 0 && end <= start)
        throw usage_error(flag + ": the end (" + e + " s) must be after the start (" + s + " s)");
    return {start, end};
}

}  // namespace nestvp
