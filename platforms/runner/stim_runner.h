#pragma once
// Runs a directed stimulus (stim_file.h) on one hardware thread: time_base + timer unit
// (make_timer_unit, impl tlm|rtl|lockstep) + exception_logic + tb_register + spr_access.
// Step i executes at time_base::time_of(at_i). Between steps the thread executes instructions,
// so an interrupt is taken at the first tick at which it is pending and enabled: the driver
// waits on the exception logic's deliverable_event() or the next step time, never per tick.
// Synthetic NIA: step i is the instruction at 0x100 + 4*i; an interrupt taken before step i
// saves SRR0/HSRR0 = 0x100 + 4*i (after the last step: 0x100 + 4*steps.size()).
// SystemC elaborates once per process: call run_stim at most once per process.
#include <string>
#include <vector>

#include "platforms/config/stim_file.h"

namespace nestvp {

struct stim_options {
    std::string impl = "tlm";  // timer unit implementation (timer_unit_factory.h)
    std::string trace_path;    // VCD of the timer unit (rtl/lockstep); empty: none
};

constexpr uint64_t stim_nia_base = 0x100;
constexpr uint64_t stim_nia(size_t step_index) {
    return stim_nia_base + 4 * step_index;
}

// The JSON lines (without newline) the run produced, in order. Throws stim_error (a step
// that cannot run, e.g. a tick beyond the simulated time range) or whatever the timer unit
// throws (e.g. a lockstep mismatch); nothing is returned in that case.
std::vector<std::string> run_stim(const stim_file& f, const stim_options& opts = {});

}  // namespace nestvp
