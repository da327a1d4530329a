#include "sw/metrics/latency_histogram.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace nestvp {

static_assert(latency_histogram::sub_bins == 64, "bin_of takes six fraction bits");

unsigned latency_histogram::bin_of(double ns) {
    // Bin 0 holds [0, 1) ns; octave e >= 0 ([2^e, 2^(e+1)) ns) holds bins 1 + 64e .. 64e + 64.
    if (!(ns >= 1.0)) return 0;
    // ns >= 1 is 1.f * 2^e in IEEE 754 binary64 (biased exponent e + 1023, 52 fraction bits):
    // the octave is e, and the sub-bin the top six bits of f. This is frexp's form (ns = m * 2^k,
    // m = 1.f / 2, sub-bin (2m - 1) * 64, exact) without a libm call. Infinity (biased
    // exponent 2047, f = 0) lands in the bin after the largest finite one.
    uint64_t bits;
    std::memcpy(&bits, &ns, sizeof bits);
    const auto biased = static_cast<unsigned>(bits >> 52) & 0x7FFu;
    return 1 + (biased - 1023) * sub_bins + (static_cast<unsigned>(bits >> 46) & 63u);
}

double latency_histogram::centre_of(unsigned bin) {
    if (bin == 0) return 0.5;
    const unsigned e = (bin - 1) / sub_bins, sub = (bin - 1) % sub_bins;
    return std::ldexp(1.0 + (sub + 0.5) / sub_bins, static_cast<int>(e));
}

void latency_histogram::add(double ns) {
    const unsigned b = bin_of(ns);
    if (b >= m_bins.size()) m_bins.resize(b + 1, 0);
    ++m_bins[b];
    ++m_count;
    m_sum += ns;
    m_max = std::max(m_max, ns);
}

void latency_histogram::merge(const latency_histogram& o) {
    if (o.m_bins.size() > m_bins.size()) m_bins.resize(o.m_bins.size(), 0);
    for (size_t i = 0; i < o.m_bins.size(); ++i) m_bins[i] += o.m_bins[i];
    m_count += o.m_count;
    m_sum += o.m_sum;
    m_max = std::max(m_max, o.m_max);
}

double latency_histogram::percentile(double p) const {
    if (m_count == 0) return 0.0;
    const uint64_t rank =
        std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(p * static_cast<double>(m_count))));
    uint64_t seen = 0;
    for (size_t i = 0; i < m_bins.size(); ++i) {
        seen += m_bins[i];
        if (seen >= rank) return std::min(centre_of(static_cast<unsigned>(i)), m_max);
    }
    return m_max;
}

std::vector<std::pair<double, uint64_t>> latency_histogram::bins() const {
    std::vector<std::pair<double, uint64_t>> out;
    for (size_t i = 0; i < m_bins.size(); ++i)
        if (m_bins[i]) out.emplace_back(centre_of(static_cast<unsigned>(i)), m_bins[i]);
    return out;
}

}  // namespace nestvp
