#pragma once
// Command-line parsing shared by the nestvp commands: long options with a value either as
// `--opt VALUE` or `--opt=VALUE`, repeatable options, positional arguments, and number
// checks whose errors name the flag (docs/cli.md: exit code 2).
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace nestvp {

// A bad command line. main() prints what() and exits with exit_usage (2).
class usage_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct option_spec {
    std::string name;   // "--json"
    std::string alias;  // "-j" or empty
    bool takes_value = false;
    bool repeatable = false;  // --set a=1 --set b=2
};

struct parsed_args {
    std::map<std::string, std::vector<std::string>> values;  // by spec name; flags map to {""}
    std::vector<std::string> positional;

    bool has(const std::string& name) const { return values.count(name) != 0; }
    // The value of a non-repeatable option, or `fallback` if it was not given.
    std::string get(const std::string& name, const std::string& fallback = {}) const;
    std::vector<std::string> all(const std::string& name) const;
};

// Parses args (the words after the command name). `cmd` names the command in messages.
// Throws usage_error for an unknown option, a missing value or a repeated single option.
parsed_args parse_args(const std::string& cmd, const std::vector<std::string>& args,
                       const std::vector<option_spec>& specs);

// Number checks; messages name the flag and quote the text.
unsigned parse_positive_int(const std::string& flag, const std::string& text);
double parse_seconds(const std::string& flag, const std::string& text);  // finite, >= 0
// "START_S:END_S" with 0 <= START < END; END may be empty ("2:") for "to the end" (-1).
std::pair<double, double> parse_window(const std::string& flag, const std::string& text);

}  // namespace nestvp
