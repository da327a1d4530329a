#include "platforms/cli/log_options.h"

#include <cstdio>
#include <fstream>

#include <systemc>

#include "models/log.h"
#include "platforms/cli/cli_parse.h"

namespace nestvp {

namespace {
constexpr const char* log_type_prefix = "nestvp/";

// Log lines as "nestvp/l1: <prefix><time> ms <text>"; any other report as SystemC prints it.
void report_to_stderr(const sc_core::sc_report& r, const sc_core::sc_actions& a) {
    if (r.get_severity() == sc_core::SC_INFO &&
        std::string(r.get_msg_type()).rfind(log_type_prefix, 0) == 0) {
        std::fprintf(stderr, "%s: %s\n", r.get_msg_type(), r.get_msg());
        return;
    }
    sc_core::sc_report_handler::default_handler(r, a);
}
}  // namespace

void apply_log_options(const char* cmd, const std::vector<std::string>& logs) {
    for (const auto& l : logs) {
        std::string why;
        if (!log::apply(l, why))
            throw usage_error(std::string("nestvp ") + cmd + ": --log " + l + ": " + why);
    }
    if (!logs.empty()) sc_core::sc_report_handler::set_handler(report_to_stderr);
}

void add_child_log_args(std::vector<std::string>& argv, const std::vector<std::string>& logs,
                        const std::string& label) {
    if (logs.empty()) return;
    for (const auto& l : logs) argv.insert(argv.end(), {"--log", l});
    argv.insert(argv.end(), {"--log-prefix", label + ": "});
}

void forward_child_logs(const std::string& stderr_path) {
    std::ifstream in(stderr_path);
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(log_type_prefix, 0) == 0) std::fprintf(stderr, "%s\n", line.c_str());
}

}  // namespace nestvp
