#pragma once
// Chooses the DEC/HDEC unit implementation: `impl: tlm | rtl | lockstep` (platform files,
// `nestvp stim --impl`).
#include <memory>
#include <string>
#include <vector>

#include "models/time_base.h"
#include "models/timer_unit_if.h"

namespace nestvp {

struct timer_unit_options {
    std::string impl = "tlm";  // tlm | rtl | lockstep
    unsigned dec_bits = 56;    // implemented large-decrementer width (timer-facilities.md §2.1)
    std::string trace_path;    // VCD of the unit (rtl/lockstep); empty: no trace
};

// Throws std::invalid_argument naming the impl when it is unknown.
std::unique_ptr<timer_unit_if> make_timer_unit(const char* name, time_base& tb,
                                               const timer_unit_options& opts);
// The implementations compiled in, in a stable order ("tlm" first).
std::vector<std::string> timer_impls();

}  // namespace nestvp
