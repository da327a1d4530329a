// Command-line parsing for the nestvp commands: CLI11, with messages in the tool's words.
#include "platforms/cli/cli_parse.h"

#include <unistd.h>

#include <charconv>
#include <cmath>
#include <cstdio>

#include "platforms/cli/cli_outputs.h"
#include "platforms/cli/command.h"
#include "platforms/config/param_schema.h"

namespace nestvp {

namespace {
// A value that is empty or starts with "--" is a missing value: the next word is an option.
const CLI::Validator k_value_given(
    [](std::string& v) -> std::string {
        if (v.empty()) return "needs a non-empty value";
        if (v.compare(0, 2, "--") == 0) return "needs a value";
        return {};
    },
    "", "value given");

// The first word of a CLI11 message "--json: 1 required TEXT missing".
std::string option_of(const std::string& what) {
    const auto colon = what.find(':');
    return colon == std::string::npos ? what : what.substr(0, colon);
}
}  // namespace

cli_parser::cli_parser(std::string cmd, std::string help)
    : m_cmd(std::move(cmd)), m_help(std::move(help)), m_app("", "nestvp " + m_cmd) {
    m_app.set_help_flag("-h,--help");
    m_app.allow_extras(false);
}

CLI::Option* cli_parser::value(const std::string& names, std::string& out) {
    return m_app.add_option(names, out)->check(k_value_given);
}

CLI::Option* cli_parser::list(const std::string& names, std::vector<std::string>& out) {
    return m_app.add_option(names, out)->allow_extra_args(false)->check(k_value_given);
}

CLI::Option* cli_parser::flag(const std::string& names, bool& out) {
    return m_app.add_flag(names, out)->disable_flag_override();
}

void cli_parser::positionals(std::vector<std::string>& out) {
    m_app.add_option("args", out);
}

int cli_parser::help_exit() const {
    return flush_stdout(m_cmd) ? exit_ok : exit_failure;
}

bool cli_parser::parse(const std::vector<std::string>& args) {
    const std::string pre = prefix();
    const std::string hint = " (see 'nestvp " + m_cmd + " --help')";
    std::vector<std::string> rev(args.rbegin(), args.rend());  // CLI11 takes them reversed
    try {
        m_app.parse(rev);
    } catch (const CLI::CallForHelp&) {
        std::fputs(m_help.c_str(), stdout);
        return false;
    } catch (const CLI::ExtrasError&) {
        std::string word = m_app.remaining().empty() ? "?" : m_app.remaining().front();
        if (word.compare(0, 2, "--") == 0) word = word.substr(0, word.find('='));
        throw usage_error(pre + "unknown option '" + word + "'" + hint);
    } catch (const CLI::ValidationError& e) {
        const std::string what = e.what();
        const auto colon = what.find(": ");
        const std::string why = colon == std::string::npos ? what : what.substr(colon + 2);
        throw usage_error(pre + "option '" + option_of(what) + "' " + why +
                          (why == "needs a value" ? hint : ""));
    } catch (const CLI::ArgumentMismatch& e) {
        const std::string what = e.what();
        if (what.find("At Most") != std::string::npos)
            throw usage_error(pre + "option '" + option_of(what) + "' given more than once");
        if (what.find("flag override") != std::string::npos)  // --quiet=yes
            throw usage_error(pre + "option '--" + what.substr(0, what.find(' ')) +
                              "' takes no value");
        if (what.find("missing") != std::string::npos)
            throw usage_error(pre + "option '" + option_of(what) + "' needs a value" + hint);
        throw usage_error(pre + what);
    } catch (const CLI::ParseError& e) {
        throw usage_error(pre + e.what() + hint);
    }
    return true;
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

void refuse_output_keys(const std::string& cmd, const std::string& flag,
                        const std::vector<std::string>& sets) {
    for (const auto& s : sets) {
        const std::string key = s.substr(0, s.find('='));
        if (key.compare(0, 12, "run.outputs.") != 0) continue;
        const char* own = cmd == "sweep" ? "--csv/--plot" : "--json/--plot";
        throw usage_error("nestvp " + cmd + ": " + flag + " " + key + ": a " + cmd +
                          " point writes no files of its own; give " + own + " to 'nestvp " + cmd +
                          "' (or run one point with 'nestvp run')");
    }
}

unsigned jobs_option(const cli_parser& cli, const std::string& text) {
    if (text.empty()) return default_jobs();
    try {
        return parse_positive_int("-j", text);
    } catch (const usage_error& e) {
        throw usage_error(cli.prefix() + e.what());
    }
}

unsigned default_jobs() {
    const long n = ::sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? static_cast<unsigned>(n) : 1u;
}

std::pair<double, double> output_window(const std::string& flag, const std::string& text,
                                        const std::string& needs, const std::string& file) {
    if (text.empty()) return {0.0, -1.0};
    if (file.empty()) throw usage_error("nestvp run: " + flag + " needs " + needs);
    try {
        return parse_window(flag, text);
    } catch (const usage_error& e) {
        throw usage_error(std::string("nestvp run: ") + e.what());
    }
}

void check_window_start(const std::string& flag, double start_s, double duration_s) {
    if (start_s >= duration_s)
        throw usage_error("nestvp run: " + flag + ": the trace would be empty: it starts at " +
                          format_real(start_s) + " s, not before the run's end (run.duration_s = " +
                          format_real(duration_s) + " s)");
}

}  // namespace nestvp
