#pragma once
// Running a sweep plan (a grid or a sample): locally, each point its own `nestvp run` process,
// or written out as jobs for GNU parallel or a Slurm array. `sweep` and `uncertainty` share it,
// so both run exactly the commands --emit-jobs would write.
#include <optional>
#include <string>
#include <vector>

#include "platforms/report/sweep_plan.h"

namespace nestvp {

// Runs every point (at most `jobs` at once) into a temporary folder and reads the records back
// the way `merge` does; a failed point is reported ("nestvp <cmd>: point i failed ...") and left
// empty in `pts`. Returns exit_ok, exit_failure (a point failed or the folder could not be made)
// or exit_interrupted.
int run_plan_locally(const char* cmd, const sweep_plan& plan, unsigned jobs, bool quiet,
                     std::vector<std::optional<run_record>>& pts);

// --emit-jobs DIR: writes DIR/jobs.txt and DIR/sweep.json and says how to run them. Returns an
// exit code.
int emit_plan_jobs(const char* cmd, const sweep_plan& plan, const std::string& dir, unsigned jobs);

}  // namespace nestvp
