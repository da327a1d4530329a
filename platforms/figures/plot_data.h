#pragma once
// The plot data a `compare` child hands to its parent (`nestvp run --plot-data FILE`): the exit
// timeline as text, a "bin_s W" line, then "vcpu V N0 N1 ..." lines of counts. Latency
// histograms travel in the run record JSON.
#include <string>

#include "platforms/results/run_result.h"

namespace nestvp {

std::string plot_data_text(const run_result& r);
// Sets the exits of r from plot_data_text output; throws std::runtime_error naming `what` and
// the line on malformed input.
void parse_plot_data(const std::string& text, const std::string& what, run_result& r);

}  // namespace nestvp
