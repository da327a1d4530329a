#pragma once
// Where each vCPU's time goes along the nested entry/exit path, and the latencies measured on
// it (docs/nested-entry-exit.md). The software marks the step each vCPU's thread starts at a
// time; a latency is any interval [t0, t1] of one vCPU, split over the steps it crossed. So a
// latency's breakdown sums to its total by construction, and every spread comes from the
// modelled work: nothing is added per sample.
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "sw/metrics/latency_histogram.h"
#include "sw/probes/probe_events.h"

namespace nestvp {


class path_recorder {
public:
    // units_per_ns: time-value units (SystemC resolution) per nanosecond.
    path_recorder(unsigned vcpus, double units_per_ns);

    // `vcpu`'s thread starts step `s` at time value `t` (monotonic per vCPU; earlier is clamped).
    void mark(unsigned vcpu, path_step s, uint64_t t);
    path_step current(unsigned vcpu) const;
    // The step `vcpu` was in at time t, if the log still holds it; path_step::other otherwise.
    path_step step_at(unsigned vcpu, uint64_t t) const;
    // Adds one sample of kind k: the time from t0 to t1 on `vcpu` minus the steps in `excluded`
    // (a bit per path_step). Returns it in ns.
    double sample(latency_kind k, unsigned vcpu, uint32_t reason, uint64_t t0, uint64_t t1,
                  uint64_t excluded = 0);

    struct by_reason {
        uint32_t reason;
        latency_histogram hist;
    };
    unsigned vcpus() const { return static_cast<unsigned>(m_log.size()); }
    const std::vector<by_reason>& histograms(latency_kind k, unsigned vcpu) const {
        return m_hist[static_cast<unsigned>(k)][vcpu];
    }
    // Mean ns per sample spent in each step, over all samples of kind k.
    std::array<double, path_step_count> breakdown(latency_kind k) const;
    uint64_t samples(latency_kind k) const { return m_count[static_cast<unsigned>(k)]; }

    static constexpr uint64_t bit(path_step s) { return uint64_t{1} << static_cast<unsigned>(s); }

private:
    struct entry {
        uint64_t t;
        path_step step;
    };
    static constexpr unsigned log_size = 256;  // marks kept per vCPU (a ring)
    struct vcpu_log {
        std::array<entry, log_size> ring;
        unsigned head = 0;  // next slot
        unsigned size = 0;
        const entry& back(unsigned i) const { return ring[(head + log_size - 1 - i) % log_size]; }
    };

    std::vector<vcpu_log> m_log;
    double m_units_per_ns;
    std::array<std::vector<std::vector<by_reason>>, latency_kind_count> m_hist;
    // Per kind and step, in time units: integers, so the sums do not depend on the order in
    // which vCPUs record (run-ahead changes that order, never the results).
    std::array<std::array<uint64_t, path_step_count>, latency_kind_count> m_step_units{};
    std::array<uint64_t, latency_kind_count> m_count{};
};

}  // namespace nestvp
