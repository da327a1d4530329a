#pragma once
// A tornado chart of one uncertainty target: one horizontal bar per assumption, longest on top,
// its length the assumption's share of the variance, to the right when the output rises with
// the input and to the left when it falls (the sign of the rank correlation). Data blocks $rise
// and $fall hold the bars as x y xlow xhigh ylow yhigh, in percent of the explained variance.
#include <string>

#include "platforms/analysis/uncertainty.h"
#include "platforms/figures/gnuplot_script.h"

namespace nestvp {

gnuplot_script tornado_figure(const uncertainty_target& t, size_t max_bars = 15);

}  // namespace nestvp
