#pragma once
// Commands of the nestvp tool register themselves here; main() dispatches by name.
#include <optional>
#include <string>
#include <vector>

#include "platforms/analysis/sweep_plan.h"

namespace nestvp {

struct command {
    std::string name;
    std::string summary;
    int (*run)(int argc, char** argv);  // argv[0] is the command name
};

void register_command(const command& cmd);
const std::vector<command>& commands();

// A sweep's results (sweep, merge): the CSV to `csv_out` (stdout when empty), the plots to
// `plot_dir` (none when empty, at most `jobs` figures drawn at once); a failed write to stdout is
// a failure too. A failure is reported as
// "nestvp <cmd>: ..." and returns false.
bool write_sweep_results(const char* cmd, const sweep_plan& plan,
                         const std::vector<std::optional<run_record>>& pts,
                         const std::string& csv_out, const std::string& plot_dir, unsigned jobs);

// A sampled plan's results (uncertainty, merge): the summary table on stdout, the summary CSV
// to `csv_out`, JSON to `json_out`, the per-point CSV to `points_csv`, one tornado chart per
// ratio and per exit count to `plot_dir` (each only when given; `jobs` as above). Failures as
// above.
bool write_uncertainty_results(const char* cmd, const sweep_plan& plan,
                               const std::vector<std::optional<run_record>>& pts,
                               const std::string& csv_out, const std::string& json_out,
                               const std::string& points_csv, const std::string& plot_dir,
                               unsigned jobs);

// Exit codes shared by every command (documented in docs/cli.md).
enum exit_code : int {
    exit_ok = 0,
    exit_failure = 1,       // the run failed (a lockstep mismatch, an I/O error while writing)
    exit_usage = 2,         // bad command line, bad platform or stimulus file
    exit_interrupted = 130  // SIGINT, SIGTERM or SIGHUP: partial results were written
};

// How a child `nestvp run` (a sweep point, a side of compare) ended, from run_children's code.
enum class child_end {
    ok,             // finished
    stopped,        // stopped with this command (a stop signal reached it): not a failure
    stopped_alone,  // stopped by a signal that reached it alone: its record is partial
    failed
};
child_end end_of_child(int code);
// The records of runs that simulated their whole duration: a partial one (stopped by a signal)
// left empty, so that an analysis across runs compares like with like.
std::vector<std::optional<run_record>> complete_runs(std::vector<std::optional<run_record>> pts);

}  // namespace nestvp

#define NESTVP_REGISTER_COMMAND(id, name, summary, fn) \
    static const bool nestvp_command_registered_##id = \
        (nestvp::register_command({name, summary, fn}), true)
