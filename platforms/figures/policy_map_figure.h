#pragma once
// Heatmaps of the policy decision map (docs/policy-map.md), one criterion each: one panel per
// combination of the axes before the last two (e.g. run output x GET_STATE cost), each panel
// y = the second-to-last axis, x = the last, a cell's colour its winning policy and its text
// the margin over the runner-up. Data block $p<panel> holds x index, y index, colour.
#include "platforms/analysis/policy_map.h"
#include "platforms/figures/gnuplot_script.h"

namespace nestvp {

// Throws std::invalid_argument with fewer than two cell axes or no cells.
gnuplot_script policy_map_figure(const policy_map& m, map_criterion c);

}  // namespace nestvp
