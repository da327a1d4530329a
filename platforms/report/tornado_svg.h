#pragma once
// A tornado chart of one uncertainty target: one horizontal bar per assumption, longest first,
// its length the assumption's share of the variance, to the right when the output rises with
// the input and to the left when it falls (the sign of the rank correlation).
#include <string>

#include "platforms/report/uncertainty.h"

namespace nestvp {

std::string tornado_svg(const uncertainty_target& t, size_t max_bars = 15);

}  // namespace nestvp
