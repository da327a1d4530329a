#pragma once
// Chooses the DEC/HDEC unit implementation: `impl: tlm | rtl | lockstep` (platform files,
// `nestvp stim --impl`).
#include <memory>
#include <string>
#include <vector>

#include "models/params.h"
#include "models/time_base.h"
#include "models/timer_unit_if.h"

namespace nestvp {

// The implementations compiled in, in a stable order ("tlm" first).
std::vector<std::string> timer_impls();

// The timer facilities of every thread, mounted at `machine.timer.`.
struct timer_unit_options {
    std::string impl = "tlm";  // tlm | rtl | lockstep
    unsigned dec_bits = 56;    // implemented large-decrementer width (timer-facilities.md §2.1)
    bool large_dec = true;     // LPCR[LD] for the partitions
    std::string trace_path;    // VCD of the unit (rtl/lockstep); empty: no trace

    static void describe(param_list<timer_unit_options>& p) {
        using c = timer_unit_options;
        p.add_text("impl", &c::impl, timer_impls(),
                   "decrementer implementation: TLM model, Verilated RTL, or both compared");
        p.add_uint("dec_bits", &c::dec_bits, 32, 64, "bits",
                   "implemented large-decrementer width (timer-facilities.md §2.1)");
        p.add_bool("large_dec", &c::large_dec, "LPCR[LD] for the partitions");
    }
};

// Throws std::invalid_argument naming the impl when it is unknown.
std::unique_ptr<timer_unit_if> make_timer_unit(const char* name, time_base& tb,
                                               const timer_unit_options& opts);
}  // namespace nestvp
