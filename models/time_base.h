#pragma once
// Time base of one core (timer-facilities.md §1): a 64-bit count of TB ticks derived from
// simulated time, never ticked. Host ticks = floor(t * f); a tick's time rounds up.
// The TB *register* a partition sees adds an offset: see tb_register.h.
#include <cstdint>

#include <systemc>

#include "models/local_time.h"

namespace nestvp {

class time_base : public sc_core::sc_module {
public:
    static constexpr uint64_t default_freq_hz = 512000000;  // §1: POWER8/9/10
    static constexpr uint64_t never = UINT64_MAX;

    explicit time_base(const sc_core::sc_module_name& name, uint64_t freq_hz = default_freq_hz);

    uint64_t freq_hz() const { return m_freq_hz; }
    // Ticks elapsed since time zero, at the running thread's time (local_time::now()) / at
    // time t (rounds down). ticks() is cached per time: most reads repeat at one instant.
    uint64_t ticks() const {
        const sc_dt::uint64 now = local_time::now_value();
        if (now != m_cached_at) {
            m_cached_ticks = ticks_at_value(now);
            m_cached_at = now;
        }
        return m_cached_ticks;
    }
    uint64_t ticks_at(const sc_core::sc_time& t) const;
    uint64_t ticks_at_value(sc_dt::uint64 v) const;
    // Earliest simulated time at which ticks() >= tick (rounds up); sc_max_time() when the
    // tick lies beyond what sc_time can represent.
    sc_core::sc_time time_of(uint64_t tick) const;
    sc_dt::uint64 value_of(uint64_t tick) const;  // time_of(tick).value()
    // time_of(tick) - now, or zero when the tick has passed.
    sc_core::sc_time delay_until(uint64_t tick) const;
    // Converts a span of ticks into simulated time (rounds up).
    sc_core::sc_time duration_of(uint64_t ticks) const;

private:
    uint64_t m_freq_hz;
    uint64_t m_units_per_second;  // sc_time resolution units per second
    // freq_hz / units_per_second in lowest terms (512 MHz over ps: 8 / 15625): the same floors
    // and ceilings in 64-bit arithmetic while the product fits, instead of a 128-bit divide.
    uint64_t m_freq_reduced, m_units_reduced;
    sc_dt::uint64 m_max_value;  // sc_max_time()
    // ticks() at the last time asked: many reads share one timestamp (saves a divide).
    mutable sc_dt::uint64 m_cached_at = ~sc_dt::uint64{0};
    mutable uint64_t m_cached_ticks = 0;
};

}  // namespace nestvp
