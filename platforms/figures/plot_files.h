#pragma once
// The figure sets --plot DIR writes for run, compare, sweep, uncertainty and policy-map.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "platforms/analysis/policy_map.h"
#include "platforms/analysis/sweep_plan.h"
#include "platforms/analysis/uncertainty.h"
#include "platforms/figures/gnuplot_script.h"
#include "platforms/records/run_record.h"

namespace nestvp {

struct labelled_run {
    std::string label;  // "cancel", "A", ...
    const run_result* result;
};

// Per latency kind with samples in some run: cdf-<kind> (one line per run) and
// breakdown-<kind> (one stacked bar per run). Then the exit rate per vCPU of each run:
// exit-rate for a single run, exit-rate-a, exit-rate-b, ... otherwise. Each figure is a gnuplot
// script NAME.gp and the NAME.svg it renders; what was and was not drawn comes back as
// render_figures says (gnuplot_script.h). Each write_*_plots renders at most `jobs` figures at
// once.
drawn_figures write_run_plots(const std::string& dir, const std::vector<labelled_run>& runs,
                              unsigned jobs);

// sweep-<metric>.gp and .svg per chart metric: x is the first grid key, one line per combination of
// the other keys. A point that failed leaves a gap in its line.
drawn_figures write_sweep_plots(const std::string& dir, const sweep_plan& plan,
                                const std::vector<std::optional<run_record>>& pts, unsigned jobs);

// tornado-<target> per ratio, per exit count, arithoh and GET_STATE count target.
drawn_figures write_tornado_plots(const std::string& dir, const uncertainty_report& r,
                                  unsigned jobs);

// policy-map-<criterion> per criterion (throughput, timer_p99, exits). Throws
// std::invalid_argument as policy_map_figure does.
drawn_figures write_policy_map_plots(const std::string& dir, const policy_map& m, unsigned jobs);

// A unit for a setting key: the schema unit (param_schema.h), else guessed from its name:
// "run.duration_s" -> "s", "l2.hz" -> "Hz".
std::string unit_of_key(const std::string& key);
// Safe file-name part: letters, digits, '-', '_', '.'; others become '_'.
std::string file_part(const std::string& s);

}  // namespace nestvp
