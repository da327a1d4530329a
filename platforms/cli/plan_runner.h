#pragma once
// Running a sweep plan (a grid or a sample): locally, each point its own `nestvp run` process,
// or written out as jobs for GNU parallel or a Slurm array. `sweep` and `uncertainty` share it,
// so both run exactly the commands --emit-jobs would write.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "platforms/analysis/sweep_plan.h"

namespace nestvp {

// The --set list every point of a plan gets: well-formed and no run.outputs.* (each point
// writes only its record). Throws usage_error ("nestvp <cmd>: --set: ...").
void check_plan_sets(const char* cmd, const std::vector<std::string>& sets);

// Loads every point's configuration before anything runs, so a bad value fails first; throws
// usage_error "nestvp <cmd>: <label(i)>: <the loader's message>". The default label is
// "point i (key=value ...)".
void check_plan_points(const char* cmd, const sweep_plan& plan,
                       const std::function<std::string(size_t)>& label = {});

// Runs every point (at most `jobs` at once) into a temporary folder and reads the records back
// the way `merge` does; a failed point is reported ("nestvp <cmd>: point i failed ...") and left
// empty in `pts`. Returns exit_ok, exit_failure (a point failed or the folder could not be made)
// or exit_interrupted.
// `logs`: each point runs with these --log settings, its lines prefixed "point i: " and copied
// to stderr when it ends (platforms/cli/log_options.h).
int run_plan_locally(const char* cmd, const sweep_plan& plan, unsigned jobs, bool quiet,
                     std::vector<std::optional<run_record>>& pts,
                     const std::vector<std::string>& logs = {});

// --emit-jobs DIR: writes DIR/jobs.txt and DIR/sweep.json and says how to run them. Returns an
// exit code.
int emit_plan_jobs(const char* cmd, const sweep_plan& plan, const std::string& dir, unsigned jobs);

}  // namespace nestvp
