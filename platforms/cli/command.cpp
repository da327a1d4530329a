// The command registry and the pieces every command shares (docs/cli.md).
#include "platforms/cli/command.h"

#include <cstdio>
#include <exception>

#include "platforms/cli/cli_outputs.h"
#include "platforms/report/plot_files.h"
#include "platforms/report/run_record.h"

namespace nestvp {

namespace {
std::vector<command>& registry() {
    static std::vector<command> r;
    return r;
}
}  // namespace

void register_command(const command& cmd) {
    registry().push_back(cmd);
}
const std::vector<command>& commands() {
    return registry();
}

bool write_sweep_results(const char* cmd, const sweep_plan& plan,
                         const std::vector<std::optional<run_record>>& pts,
                         const std::string& csv_out, const std::string& plot_dir) {
    try {
        const std::string csv = sweep_csv(plan, pts);
        write_output(csv_out.empty() ? "-" : csv_out, csv);
        if (!plot_dir.empty()) write_sweep_plots(plot_dir, plan, pts);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp %s: %s\n", cmd, e.what());
        return false;
    }
    return true;
}

}  // namespace nestvp
