#pragma once
// A latency distribution in bounded memory: log-linear bins of 1/64 octave over nanoseconds
// (the HdrHistogram layout), so a percentile is within 0.8 % of the exact value whatever the
// number of samples. Count, sum and max are exact.
#include <cstdint>
#include <utility>
#include <vector>

namespace nestvp {

class latency_histogram {
public:
    static constexpr unsigned sub_bins = 64;  // per octave

    void add(double ns);
    void merge(const latency_histogram& other);

    uint64_t count() const { return m_count; }
    double sum() const { return m_sum; }
    double mean() const { return m_count ? m_sum / static_cast<double>(m_count) : 0.0; }
    double max() const { return m_max; }
    // Nearest-rank percentile (p in [0, 1]) as the centre of its bin, clamped to max().
    double percentile(double p) const;
    // (bin centre ns, count) of every non-empty bin, ascending.
    std::vector<std::pair<double, uint64_t>> bins() const;

    static unsigned bin_of(double ns);
    static double centre_of(unsigned bin);

private:
    std::vector<uint64_t> m_bins;  // grown to the largest bin used
    uint64_t m_count = 0;
    double m_sum = 0, m_max = 0;
};

}  // namespace nestvp
