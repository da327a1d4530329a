// nestvp merge DIR: the per-point JSON of a sweep run elsewhere (--emit-jobs + GNU parallel
// or a Slurm array) into the CSV a local sweep writes.
#include <cstdio>

#include "platforms/analysis/sweep_plan.h"
#include "platforms/cli/cli_outputs.h"
#include "platforms/cli/cli_parse.h"
#include "platforms/cli/command.h"
#include "platforms/figures/plot_files.h"
#include "platforms/processes/termination_signals.h"
#include "platforms/records/json.h"
#include "platforms/records/text_files.h"

namespace nestvp {
namespace {

const char* const k_help =
    "usage: nestvp merge DIR [--csv OUT] [--plot DIR] [--json OUT] [--points-csv OUT]\n"
    "\n"
    "Reads DIR/sweep.json and DIR/point-NNNN.json (written by the commands of\n"
    "'nestvp sweep --emit-jobs DIR' or 'nestvp uncertainty --emit-jobs DIR') and writes what\n"
    "the local command writes: a sweep's CSV, or an uncertainty summary.\n"
    "\n"
    "options:\n"
    "  --csv OUT         write the CSV to OUT (a sweep's default: stdout)\n"
    "  --plot DIR        write the sweep line charts, or the uncertainty tornado charts\n"
    "  --json OUT        uncertainty only: the summary as JSON\n"
    "  --points-csv OUT  uncertainty only: one row per run\n"
    "  --help        this text\n"
    "\n"
    "A point whose settings differ from sweep.json's (left by another sweep) is refused.\n"
    "Exit codes: 0 ok, 1 points missing, unreadable or partial (the others are still\n"
    "written), 2 bad command line, no sweep.json, or a point of another sweep, 130\n"
    "interrupted while drawing.\n";

// The command line of merge and the sweep.json of its directory.
struct merge_args {
    std::vector<std::string> dirs;
    std::string csv_out, plot_dir, json_out, points_csv;
    std::string dir;
    sweep_plan plan;
};

// Reads DIR/sweep.json and checks the outputs asked for fit its plan.
void load_manifest(merge_args& a) {
    if (a.dirs.size() != 1)
        throw usage_error("nestvp merge: expected one directory, got " +
                          std::to_string(a.dirs.size()));
    a.dir = a.dirs[0];
    const std::string manifest = a.dir + "/sweep.json";
    std::string text;
    try {
        text = read_text_file(manifest);
    } catch (const std::exception& e) {
        throw usage_error("nestvp merge: " + std::string(e.what()) +
                          " (merge reads the sweep.json that 'nestvp sweep --emit-jobs' writes)");
    }
    a.plan = parse_sweep_manifest(text, manifest);
    if (!a.plan.sampled && (!a.json_out.empty() || !a.points_csv.empty()))
        throw usage_error(
            "nestvp merge: --json and --points-csv are for an uncertainty "
            "plan; " +
            manifest + " is a sweep");
}

// Parses the command line and the manifest; the exit code when merge ends here, else -1.
int parse_merge_args(int argc, char** argv, merge_args& a) {
    cli_parser cli("merge", k_help);
    cli.positionals(a.dirs);
    cli.value("--csv", a.csv_out);
    cli.value("--plot", a.plot_dir);
    cli.value("--json", a.json_out);
    cli.value("--points-csv", a.points_csv);
    try {
        if (!cli.parse({argv + 1, argv + argc})) return cli.help_exit();
        load_manifest(a);
    } catch (const usage_error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return exit_usage;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp merge: %s\n", e.what());
        return exit_usage;
    }
    if (!prepare_output_file("merge", "--csv", a.csv_out) ||
        !prepare_output_file("merge", "--json", a.json_out) ||
        !prepare_output_file("merge", "--points-csv", a.points_csv) ||
        !prepare_plot_dir("merge", a.plot_dir))
        return exit_usage;
    return -1;
}

// A point stopped by a signal (a batch system's time limit sends SIGTERM) wrote a partial
// record: it is named, and its row is kept marked partial, as a local sweep keeps it (a
// sample plan's analysis leaves it out).
void name_partial_points(const merge_args& a, const std::vector<std::optional<run_record>>& pts,
                         std::vector<std::string>& problems) {
    for (size_t i = 0; i < pts.size(); ++i)
        if (pts[i] && pts[i]->result.partial)
            problems.push_back(
                a.dir + "/" + point_file_name(i) + ": partial: the run was stopped at " +
                json_number(pts[i]->result.sim_seconds) + " s simulated; " +
                (a.plan.sampled ? "left out of the analysis" : "its row is marked partial") +
                " (rerun the point)");
}

int merge_main(int argc, char** argv) {
    install_stop_signals();  // a signal stops the figures' gnuplots, in their own groups
    merge_args a;
    if (const int rc = parse_merge_args(argc, argv, a); rc >= 0) return rc;
    std::vector<std::string> problems, stale;
    const auto pts = load_points(a.plan, a.dir, problems, stale);
    if (!stale.empty()) {  // another sweep's points: merging them would mislabel results
        for (const auto& p : stale) std::fprintf(stderr, "nestvp merge: %s\n", p.c_str());
        std::fprintf(stderr,
                     "nestvp merge: %zu point(s) were not run with this sweep.json's settings; "
                     "nothing written\n",
                     stale.size());
        return exit_usage;
    }
    name_partial_points(a, pts, problems);
    for (const auto& p : problems) std::fprintf(stderr, "nestvp merge: %s\n", p.c_str());
    // merge has no -j: its figures are drawn on every core.
    const unsigned jobs = default_jobs();
    const bool written =
        a.plan.sampled ? write_uncertainty_results("merge", a.plan, pts, a.csv_out, a.json_out,
                                                   a.points_csv, a.plot_dir, jobs)
                       : write_sweep_results("merge", a.plan, pts, a.csv_out, a.plot_dir, jobs);
    if (stop_requested()) {
        std::fprintf(
            stderr,
            "nestvp merge: interrupted; figures not drawn are named above, the rest is written\n");
        return exit_interrupted;
    }
    if (!written) return exit_failure;
    if (!problems.empty()) {
        std::fprintf(stderr, "nestvp merge: %zu of %zu points missing, unreadable or partial\n",
                     problems.size(), a.plan.points.size());
        return exit_failure;
    }
    return exit_ok;
}

}  // namespace
}  // namespace nestvp

NESTVP_REGISTER_COMMAND(merge, "merge",
                        "collect the per-point JSON of an --emit-jobs sweep into its CSV",
                        nestvp::merge_main);
