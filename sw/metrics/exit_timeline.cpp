#include "sw/metrics/exit_timeline.h"

#include <algorithm>
#include <stdexcept>

namespace nestvp {

exit_timeline::exit_timeline(unsigned vcpus, double span_s, unsigned max_bins)
    : m_bin_s(span_s > 0 ? span_s / max_bins : 1.0 / max_bins),
      m_max_bins(max_bins),
      m_counts(vcpus) {
    if (max_bins < 2 || max_bins % 2)
        throw std::invalid_argument("exit_timeline: max_bins even, >= 2");
}

void exit_timeline::add(double t_s, unsigned vcpu) {
    if (vcpu >= m_counts.size()) m_counts.resize(vcpu + 1);
    size_t b = static_cast<size_t>(std::max(0.0, t_s / m_bin_s));
    while (b >= m_max_bins) {
        widen();
        b = static_cast<size_t>(std::max(0.0, t_s / m_bin_s));
    }
    std::vector<uint64_t>& row = m_counts[vcpu];
    if (row.size() <= b) row.resize(b + 1, 0);
    ++row[b];
}

void exit_timeline::widen() {
    for (auto& row : m_counts) {
        std::vector<uint64_t> merged((row.size() + 1) / 2, 0);
        for (size_t i = 0; i < row.size(); ++i) merged[i / 2] += row[i];
        row = std::move(merged);
    }
    m_bin_s *= 2;
}

}  // namespace nestvp
