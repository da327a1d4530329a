#include "sw/metrics/nested_metrics.h"

#include <algorithm>
#include <cmath>

namespace nestvp {

const char* counter_name(counter c) {
    static const char* const names[] = {"l0.hcalls",
                                        "l0.get_state",
                                        "l0.set_state",
                                        "l0.run_vcpu",
                                        "l0.enter_nested",
                                        "l0.l2_entries",
                                        "l0.immediate_exits",
                                        "l0.gsb_elements_in",
                                        "l0.gsb_elements_out",
                                        "l0.l1_cedes",
                                        "l1.guest_exits",
                                        "l1.early_returns",
                                        "l1.cedes",
                                        "l1.dec_dequeued",
                                        "l1.blocks",
                                        "l1.timer_wakes",
                                        "l1.set_timer",
                                        "l1.cache_reloads",
                                        "l1.ticks",
                                        "l1.timer_interrupts",
                                        "l2.timer_interrupts",
                                        "l2.early_timer_interrupts",
                                        "l2.ticks",
                                        "l2.housekeeping",
                                        "l2.cedes",
                                        "l2.set_dec"};
    static_assert(sizeof(names) / sizeof(names[0]) == static_cast<unsigned>(counter::count_),
                  "every counter has a name");
    return names[static_cast<unsigned>(c)];
}

latency_stats nested_metrics::summarize(const latency_histogram& h) {
    latency_stats s;
    for (const auto& [ps, n] : h) s.count += n;
    if (s.count == 0) return s;
    // Nearest-rank percentiles over the histogram.
    auto rank = [&](double p) {
        const uint64_t r = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(p * s.count)));
        uint64_t seen = 0;
        for (const auto& [ps, n] : h) {
            seen += n;
            if (seen >= r) return ps / 1000.0;
        }
        return h.rbegin()->first / 1000.0;
    };
    s.p50 = rank(0.50);
    s.p99 = rank(0.99);
    s.max = h.rbegin()->first / 1000.0;
    return s;
}

std::vector<double> nested_metrics::samples(const latency_histogram& h, size_t max_samples) {
    uint64_t total = 0;
    for (const auto& [ps, n] : h) total += n;
    const double scale = total > max_samples ? static_cast<double>(max_samples) / total : 1.0;
    std::vector<double> out;
    for (const auto& [ps, n] : h) {
        const uint64_t k = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(n * scale)));
        out.insert(out.end(), k, ps / 1000.0);
    }
    return out;
}

}  // namespace nestvp
