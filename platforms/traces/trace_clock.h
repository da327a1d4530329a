#pragma once
// The clock of the trace writers: a simulated time (sc_time value) as the L1 kernel's trace
// clock reads it, the host time base (timer-facilities.md §1) in TB ticks, and as nanoseconds
// of that count (perf's and tracefs's `ppc-tb` clock print TB-derived seconds.nanoseconds).
#include <cstdint>

namespace nestvp {

class trace_clock {
public:
    // units_per_s: sc_time value units per second (1e12 at 1 ps resolution).
    trace_clock(uint64_t tb_hz, double units_per_s) : m_tb_hz(tb_hz), m_units_per_s(units_per_s) {}
    uint64_t tb_ticks(uint64_t t) const {
        return static_cast<uint64_t>(static_cast<long double>(t) * m_tb_hz / m_units_per_s);
    }
    // Whole nanoseconds of the TB count: what `seconds.nanoseconds` prints.
    uint64_t ns(uint64_t t) const {
        return static_cast<uint64_t>(static_cast<unsigned __int128>(tb_ticks(t)) * 1000000000u /
                                     m_tb_hz);
    }
    double seconds(uint64_t t) const { return static_cast<double>(t) / m_units_per_s; }
    uint64_t tb_hz() const { return m_tb_hz; }

private:
    uint64_t m_tb_hz;
    double m_units_per_s;
};

}  // namespace nestvp
