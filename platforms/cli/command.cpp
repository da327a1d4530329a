// The command registry and the pieces every command shares (docs/cli.md).
#include "platforms/cli/command.h"

#include <csignal>
#include <cstdio>
#include <exception>

#include "platforms/analysis/uncertainty.h"
#include "platforms/cli/cli_outputs.h"
#include "platforms/figures/plot_files.h"
#include "platforms/processes/termination_signals.h"
#include "platforms/records/run_record.h"

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

child_end end_of_child(int code) {
    if (code == exit_ok) return child_end::ok;
    if (stop_requested()) {
        // Never started (-1), stopped (130), or killed by a stop signal before it had installed
        // its handler (SIGINT's 130 looks like a handled stop; the caller finds no record).
        if (code == -1 || code == exit_interrupted || code == 128 + SIGTERM || code == 128 + SIGHUP)
            return child_end::stopped;
        return child_end::failed;
    }
    return code == exit_interrupted ? child_end::stopped_alone : child_end::failed;
}

std::vector<std::optional<run_record>> complete_runs(std::vector<std::optional<run_record>> pts) {
    for (auto& p : pts)
        if (p && p->result.partial) p.reset();
    return pts;
}

bool write_sweep_results(const char* cmd, const sweep_plan& plan,
                         const std::vector<std::optional<run_record>>& pts,
                         const std::string& csv_out, const std::string& plot_dir, unsigned jobs) {
    bool ok = write_one(cmd, csv_out.empty() ? "-" : csv_out, [&] { return sweep_csv(plan, pts); });
    if (!plot_dir.empty())
        ok = draw_one(cmd, [&] { return write_sweep_plots(plot_dir, plan, pts, jobs); }) && ok;
    return ok;
}

bool write_uncertainty_results(const char* cmd, const sweep_plan& plan,
                               const std::vector<std::optional<run_record>>& pts,
                               const std::string& csv_out, const std::string& json_out,
                               const std::string& points_csv, const std::string& plot_dir,
                               unsigned jobs) {
    // The points' CSV keeps a partial run, marked partial; the analysis does not.
    uncertainty_report r;
    try {
        r = analyse_samples(plan, complete_runs(pts));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp %s: %s\n", cmd, e.what());
        return false;
    }
    bool ok = true;
    const auto write = [&](const std::string& path, const std::function<std::string()>& text) {
        if (!path.empty()) ok = write_one(cmd, path, text) && ok;
    };
    if (csv_out != "-" && json_out != "-" && points_csv != "-")
        write("-", [&] { return uncertainty_text(r); });
    write(csv_out, [&] { return uncertainty_csv(r); });
    write(json_out, [&] { return json_text(uncertainty_json(r)); });
    write(points_csv, [&] { return sweep_csv(plan, pts); });
    if (!plot_dir.empty())
        ok = draw_one(cmd, [&] { return write_tornado_plots(plot_dir, r, jobs); }) && ok;
    return ok;
}

}  // namespace nestvp
