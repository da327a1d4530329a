#pragma once
// The parameters of a core (core.h) and its time base (time_base.h), mounted at `machine.`.
#include <cstdint>
#include <string>
#include <vector>

#include "models/params.h"

namespace nestvp {

struct core_config {
    uint64_t tb_freq_hz = 512000000ull;  // timer-facilities.md §1
    uint64_t clock_hz = 3000000000ull;   // 3.0 GHz unless a platform file says otherwise
    unsigned threads = 4;                // SMT mode (1..8)
    // Speed of one active thread when k threads of its core are active, k = 1..threads.
    std::vector<double> smt_speed = {1.0, 0.6, 0.45, 0.35};
    std::string smt_source = "assumption";
    // Share of a thread that a sibling at low SMT priority (HMT_low, a snoozing guest) takes.
    double low_priority_share = 1.0;

    static void describe(param_list<core_config>& p) {
        using c = core_config;
        p.add_u64("tb.freq_hz", &c::tb_freq_hz, param_type::hz, 1, 1e10, "Hz",
                  "time base frequency (timer-facilities.md §1: 512 MHz on POWER8-10)");
        p.add_u64("core.clock_hz", &c::clock_hz, param_type::hz, 1, 1e11, "Hz",
                  "core clock; costs in cycles become time at this rate");
        p.add_uint("core.threads", &c::threads, 1, 8, "", "hardware threads per core (SMT mode)");
        p.add_list("core.smt_speed", &c::smt_speed, 0.0, 1.0, true,
                   "speed of one active thread when k threads of its core are active, "
                   "k = 1..threads; length = threads, non-increasing");
        p.add_text("core.smt_source", &c::smt_source, {}, "where the smt_speed figures come from");
        p.add_real("core.smt_low_priority_share", &c::low_priority_share, 0, 1, true, "",
                   "share of a thread that a sibling at low SMT priority (HMT_low: a snoozing "
                   "guest) takes, and its speed relative to a normal thread");
    }
};

}  // namespace nestvp
