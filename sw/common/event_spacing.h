#pragma once
// The spacing of the software's random event streams (housekeeping timers, IPIs, the VMM's
// device completions): `hz` events per second on average, each interval uniform in [0.5, 1.5]
// of the mean, drawn from the run's seed (deterministic).
#include <cstdint>
#include <random>

namespace nestvp {

// The next interval in TB ticks at `tb_hz`; ~0 (never) at 0 Hz.
inline uint64_t next_event_interval(double tb_hz, double hz, std::mt19937_64& rng) {
    if (hz <= 0) return ~0ull;
    std::uniform_real_distribution<double> jitter(0.5, 1.5);
    return static_cast<uint64_t>(tb_hz / hz * jitter(rng));
}

}  // namespace nestvp
