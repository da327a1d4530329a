#pragma once
// Command-line parsing shared by the nestvp commands, on CLI11: each command declares its
// options on a cli_parser, and every parse error becomes a usage_error whose message starts
// with "nestvp <cmd>:" and names the flag (docs/cli.md: exit code 2).
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

namespace nestvp {

// A bad command line. The command prints what() and exits with exit_usage (2).
class usage_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class cli_parser {
public:
    // `help` is printed for --help / -h.
    cli_parser(std::string cmd, std::string help);

    // A single-valued option ("--json" or "-j,--jobs"); a value may not be empty or start
    // with "--" (that is the next option, so the value is missing).
    CLI::Option* value(const std::string& names, std::string& out);
    // A repeatable option, one value per occurrence (--set a=1 --set b=2).
    CLI::Option* list(const std::string& names, std::vector<std::string>& out);
    CLI::Option* flag(const std::string& names, bool& out);
    // The positional arguments (anything after "--" too).
    void positionals(std::vector<std::string>& out);

    // Returns false after printing the help for --help; throws usage_error on a bad line.
    bool parse(const std::vector<std::string>& args);
    // The exit code after parse() printed the help: 0, or 1 if stdout lost it (flush_stdout).
    int help_exit() const;
    // "nestvp <cmd>: "
    std::string prefix() const { return "nestvp " + m_cmd + ": "; }

private:
    std::string m_cmd, m_help;
    CLI::App m_app;
};

// Number checks; messages name the flag and quote the text.
unsigned parse_positive_int(const std::string& flag, const std::string& text);
double parse_seconds(const std::string& flag, const std::string& text);  // finite, >= 0
// "START_S:END_S" with 0 <= START < END; END may be empty ("2:") for "to the end" (-1).
std::pair<double, double> parse_window(const std::string& flag, const std::string& text);
// An output's window flag of `nestvp run` (--trace-window, --perf-window, ...): none (0, -1)
// when `text` is empty; a usage_error when it is given without its file (`needs`, e.g.
// "--trace FILE.vcd") or does not parse.
std::pair<double, double> output_window(const std::string& flag, const std::string& text,
                                        const std::string& needs, const std::string& file);
// A usage_error when a window starts at or after the run's end: its trace would be empty.
void check_window_start(const std::string& flag, double start_s, double duration_s);
// sweep and compare points write no files of their own (their parent writes the results):
// a run.outputs.* key in `sets` ("key=value") is refused rather than silently ignored.
void refuse_output_keys(const std::string& cmd, const std::string& flag,
                        const std::vector<std::string>& sets);
// The default of -j for sweep and compare: the number of cores.
unsigned default_jobs();
// The -j value of a command: default_jobs() when not given, else a positive integer; a bad one
// is a usage_error prefixed with the command's name.
unsigned jobs_option(const cli_parser& cli, const std::string& text);

}  // namespace nestvp
