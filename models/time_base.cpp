#include "models/time_base.h"

#include <cmath>
#include <numeric>
#include <stdexcept>

#include "models/local_time.h"

namespace nestvp {

using u128 = unsigned __int128;

time_base::time_base(const sc_core::sc_module_name& name, uint64_t freq_hz)
    : sc_core::sc_module(name), m_freq_hz(freq_hz) {
    if (freq_hz == 0) throw std::invalid_argument("time_base: frequency must be > 0");
    m_units_per_second =
        static_cast<uint64_t>(std::llround(1.0 / sc_core::sc_get_time_resolution().to_seconds()));
    const uint64_t g = std::gcd(m_freq_hz, m_units_per_second);
    m_freq_reduced = m_freq_hz / g;
    m_units_reduced = m_units_per_second / g;
    m_max_value = sc_core::sc_max_time().value();
}

namespace {
// a * num / den rounded down (or up), exact: 64-bit while the product fits, 128-bit otherwise.
u128 scale(uint64_t a, uint64_t num, uint64_t den, bool round_up) {
    const uint64_t add = round_up ? den - 1 : 0;
    uint64_t p;
    if (!__builtin_mul_overflow(a, num, &p) && p <= UINT64_MAX - add) return (p + add) / den;
    return (static_cast<u128>(a) * num + add) / den;
}
}  // namespace

uint64_t time_base::ticks_at(const sc_core::sc_time& t) const {
    return ticks_at_value(t.value());
}

uint64_t time_base::ticks_at_value(sc_dt::uint64 v) const {
    // floor(v * f / U) = floor(v * f' / U') with f'/U' in lowest terms.
    return static_cast<uint64_t>(scale(v, m_freq_reduced, m_units_reduced, false));
}

sc_dt::uint64 time_base::value_of(uint64_t tick) const {
    const u128 units = scale(tick, m_units_reduced, m_freq_reduced, true);
    return units > m_max_value ? m_max_value : static_cast<sc_dt::uint64>(units);
}

sc_core::sc_time time_base::time_of(uint64_t tick) const {
    return sc_core::sc_time::from_value(value_of(tick));  // sc_max_time() when clamped
}

sc_core::sc_time time_base::delay_until(uint64_t tick) const {
    const sc_core::sc_time now = local_time::now();
    const sc_core::sc_time at = time_of(tick);
    return at > now ? at - now : sc_core::SC_ZERO_TIME;
}

sc_core::sc_time time_base::duration_of(uint64_t ticks) const {
    return time_of(ticks);  // a span from time zero: the same rounding up and clamp
}

}  // namespace nestvp
