#pragma once
// `--log MODULE=LEVEL` on every command that simulates (run, stim, compare, sweep, uncertainty,
// policy-map; models/log.h). A command with children (a side of compare, a point of a sweep)
// hands the settings to each child with a prefix naming it, and copies the child's log lines
// to its own stderr when the child ends.
#include <string>
#include <vector>

// The help lines of the option, a literal that each command's usage text concatenates.
#define NESTVP_LOG_OPTION_HELP                                                                 \
    "  --log MODULE=LEVEL     log on stderr: MODULE timer, thread, l0, l1, l2 or all; LEVEL\n" \
    "                         off, info, debug or trace (repeatable; l1=debug: one line\n"     \
    "                         per exit, l1=trace: also each GET_STATE)\n"

namespace nestvp {

// Applies each setting and routes the log lines to stderr; throws usage_error
// ("nestvp <cmd>: --log X: why") on a bad one.
void apply_log_options(const char* cmd, const std::vector<std::string>& logs);
// A child `nestvp run`'s arguments: every --log, and --log-prefix "<label>: ".
void add_child_log_args(std::vector<std::string>& argv, const std::vector<std::string>& logs,
                        const std::string& label);
// Copies the log lines of a finished child (its stderr file) to stderr.
void forward_child_logs(const std::string& stderr_path);

}  // namespace nestvp
