// nestvp sweep FILE --grid key=v1,v2,...: the cartesian product, each point its own
// `nestvp run` process (at most -j at once), one CSV row per point in grid order.
// --emit-jobs DIR writes the same points as shell commands for GNU parallel or Slurm.
#include <unistd.h>

#include <cstdio>

#include "platforms/analysis/sweep_plan.h"
#include "platforms/cli/child_progress.h"
#include "platforms/cli/cli_outputs.h"
#include "platforms/cli/cli_parse.h"
#include "platforms/cli/command.h"
#include "platforms/cli/log_options.h"
#include "platforms/cli/plan_runner.h"
#include "platforms/config/platform_loader.h"
#include "platforms/figures/plot_files.h"
#include "platforms/processes/child_procs.h"
#include "platforms/processes/termination_signals.h"

namespace nestvp {
namespace {

const char* const k_help =
    "usage: nestvp sweep FILE.yaml --grid KEY=V1,V2,... [--grid ...] [options]\n"
    "\n"
    "Runs every point of the grid (the cartesian product; the first --grid varies slowest),\n"
    "each in its own process, and writes one CSV row per point: the grid keys, then the\n"
    "metrics. Rows are in grid order whatever -j is.\n"
    "\n"
    "options:\n"
    "  --grid KEY=V1,V2,...  an axis of the grid (repeatable); a list value is one point:\n"
    "                        --grid machine.core.smt_speed=[1,0.9],[1,1]\n"
    "  --set KEY=VALUE       override a key at every point (repeatable; not run.outputs.*)\n"
    "  -j N                  run at most N points at once (default: the number of cores)\n"
    "  --csv OUT             write the CSV to OUT (default: stdout; parent folders are created)\n"
    "  --plot DIR            write one line chart per metric against the first grid key\n"
    "  --emit-jobs DIR       do not run: write DIR/jobs.txt (one shell command per point,\n"
    "                        each writing DIR/point-NNNN.json) and DIR/sweep.json; run the\n"
    "                        lines with GNU parallel or a Slurm array, then 'nestvp merge "
    "DIR'\n" NESTVP_LOG_OPTION_HELP
    "                         (each line begins with its point: point i:)\n"
    "  --quiet               no progress messages\n"
    "  --help                this text\n"
    "\n"
    "Exit codes: 0 ok, 1 a point failed or was stopped on its own (the other rows are still\n"
    "written), 2 bad command line or platform file, 130 interrupted.\n";

int sweep_main(int argc, char** argv) {
    install_stop_signals();  // first: a stop signal while loading still ends in a partial result
    std::vector<std::string> files, grids, sets;
    std::string jobs_text, csv_out, plot_dir, emit_dir;
    bool quiet = false;
    cli_parser cli("sweep", k_help);
    cli.positionals(files);
    cli.list("--grid", grids);
    cli.list("--set", sets);
    cli.value("-j,--jobs", jobs_text);
    cli.value("--csv", csv_out);
    cli.value("--plot", plot_dir);
    cli.value("--emit-jobs", emit_dir);
    cli.flag("-q,--quiet", quiet);
    std::vector<std::string> logs;
    cli.list("--log", logs);
    sweep_plan plan;
    unsigned jobs = 0;
    try {
        if (!cli.parse({argv + 1, argv + argc})) return cli.help_exit();
        apply_log_options("sweep", logs);
        if (files.size() != 1)
            throw usage_error("nestvp sweep: expected one platform file, got " +
                              std::to_string(files.size()));
        if (grids.empty())
            throw usage_error("nestvp sweep: give at least one --grid KEY=V1,V2,...");
        jobs = jobs_option(cli, jobs_text);
        if (!emit_dir.empty() && (!csv_out.empty() || !plot_dir.empty()))
            throw usage_error(
                "nestvp sweep: with --emit-jobs, give --csv/--plot to 'nestvp merge' instead");
        check_plan_sets("sweep", sets);
        std::vector<grid_axis> axes;
        for (const auto& g : grids) axes.push_back(parse_grid(g));
        for (const auto& ax : axes) refuse_output_keys("sweep", "--grid", {ax.key + "="});
        if (::access(files[0].c_str(), R_OK) != 0)
            load_platform(files[0], {});  // reports the missing file in the loader's words
        plan = make_sweep_plan(absolute_path(files[0]), sets, axes);
        check_plan_points("sweep", plan);
    } catch (const usage_error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return exit_usage;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp sweep: %s\n", e.what());
        return exit_usage;
    }
    if (!emit_dir.empty()) return emit_plan_jobs("sweep", plan, emit_dir, jobs);
    if (!prepare_output_file("sweep", "--csv", csv_out) || !prepare_plot_dir("sweep", plot_dir))
        return exit_usage;
    // The local sweep runs exactly the commands --emit-jobs would write, into a temp dir,
    // and reads the points back the way merge does: both paths give the same CSV.
    std::vector<std::optional<run_record>> pts;
    int rc = run_plan_locally("sweep", plan, jobs, quiet, pts, logs);
    if (rc == exit_interrupted) rc = exit_ok;
    if (!write_sweep_results("sweep", plan, pts, csv_out, plot_dir, jobs)) rc = exit_failure;
    if (stop_requested()) {
        std::fprintf(stderr, "nestvp sweep: interrupted; rows of finished points written\n");
        return exit_interrupted;
    }
    return rc;
}

}  // namespace
}  // namespace nestvp

NESTVP_REGISTER_COMMAND(
    sweep, "sweep", "run the cartesian product of --grid settings in parallel, one CSV row each",
    nestvp::sweep_main);
