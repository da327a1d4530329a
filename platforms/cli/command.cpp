// The command registry and the pieces every command shares (docs/cli.md).
#include "platforms/cli/command.h"

#include <cstdio>
#include <exception>

#include "platforms/cli/cli_outputs.h"
#include "platforms/report/plot_files.h"
#include "platforms/report/run_record.h"
#include "platforms/report/uncertainty.h"

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
                         const std::string& csv_out, const std::string& plot_dir, unsigned jobs) {
    try {
        const std::string csv = sweep_csv(plan, pts);
        write_output(csv_out.empty() ? "-" : csv_out, csv);
        if (!plot_dir.empty() && !report_figures(cmd, write_sweep_plots(plot_dir, plan, pts, jobs)))
            return false;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp %s: %s\n", cmd, e.what());
        return false;
    }
    return true;
}

bool write_uncertainty_results(const char* cmd, const sweep_plan& plan,
                               const std::vector<std::optional<run_record>>& pts,
                               const std::string& csv_out, const std::string& json_out,
                               const std::string& points_csv, const std::string& plot_dir,
                               unsigned jobs) {
    try {
        const uncertainty_report r = analyse_samples(plan, pts);
        if (csv_out != "-" && json_out != "-" && points_csv != "-")
            write_output("-", uncertainty_text(r));
        if (!csv_out.empty()) write_output(csv_out, uncertainty_csv(r));
        if (!json_out.empty()) write_output(json_out, json_text(uncertainty_json(r)));
        if (!points_csv.empty()) write_output(points_csv, sweep_csv(plan, pts));
        if (!plot_dir.empty() && !report_figures(cmd, write_tornado_plots(plot_dir, r, jobs)))
            return false;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp %s: %s\n", cmd, e.what());
        return false;
    }
    return flush_stdout(cmd);
}

}  // namespace nestvp
