#pragma once
// Exits per L2 vCPU over simulated time, in bounded memory: counts in equal bins that start at
// `span / max_bins` wide; an exit past the last bin merges neighbouring pairs and doubles the
// width, so a run of any length keeps at most `max_bins` counts per vCPU (docs/nested-metrics.md).
#include <cstdint>
#include <vector>

namespace nestvp {

class exit_timeline {
public:
    exit_timeline() = default;
    exit_timeline(unsigned vcpus, double span_s, unsigned max_bins = 4000);

    // False for a default-constructed timeline, which counts nothing.
    bool active() const { return m_max_bins > 0; }
    void add(double t_s, unsigned vcpu);

    double bin_seconds() const { return m_bin_s; }
    // counts()[v][b]: exits of vCPU v in [b * bin_seconds(), (b + 1) * bin_seconds()).
    const std::vector<std::vector<uint64_t>>& counts() const { return m_counts; }

private:
    void widen();

    double m_bin_s = 0;
    unsigned m_max_bins = 0;
    std::vector<std::vector<uint64_t>> m_counts;
};

}  // namespace nestvp
