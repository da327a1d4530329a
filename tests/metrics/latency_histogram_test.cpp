// latency_histogram: log-linear bins of 1/64 octave (sw/metrics/latency_histogram.h).
#include "sw/metrics/latency_histogram.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace {

// The bin by its definition: ns = m * 2^e with m in [0.5, 1); octave e - 1, sub-bin
// floor((2m - 1) * 64).
unsigned bin_by_frexp(double ns) {
    if (!(ns >= 1.0)) return 0;
    int e = 0;
    const double m = std::frexp(ns, &e);
    const auto sub = static_cast<unsigned>((m * 2.0 - 1.0) * 64);
    return 1 + static_cast<unsigned>(e - 1) * 64 + std::min(sub, 63u);
}

}  // namespace

TEST(latency_histogram, bins_follow_the_frexp_definition) {
    using nestvp::latency_histogram;
    std::vector<double> values = {0.0, 0.5, 0.999999, 1.0, 1.015625, 1.5,
                                  2.0, 3.0, 1e3,      1e9, 1e300};
    for (int k = 0; k < 60; ++k) {  // each octave's edges and the values either side
        const double p = std::ldexp(1.0, k);
        values.insert(values.end(),
                      {p, std::nextafter(p, 0.0), std::nextafter(p, 1e308), p * (1.0 + 1.0 / 64),
                       std::nextafter(p * (1.0 + 1.0 / 64), 0.0)});
    }
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> log10ns(-1.0, 12.0);
    for (int i = 0; i < 100000; ++i) values.push_back(std::pow(10.0, log10ns(rng)));
    for (double v : values) ASSERT_EQ(latency_histogram::bin_of(v), bin_by_frexp(v)) << v;
    EXPECT_EQ(latency_histogram::bin_of(-3.0), 0u);
    EXPECT_EQ(latency_histogram::bin_of(std::nan("")), 0u);
    EXPECT_EQ(latency_histogram::bin_of(HUGE_VAL),
              latency_histogram::bin_of(std::numeric_limits<double>::max()) + 1);
}

TEST(latency_histogram, percentiles_are_within_a_bin_and_totals_exact) {
    nestvp::latency_histogram h;
    std::vector<double> v;
    for (int i = 1; i <= 1000; ++i) v.push_back(100.0 + 7.0 * i);  // 107 .. 7100 ns
    for (double x : v) h.add(x);
    EXPECT_EQ(h.count(), 1000u);
    EXPECT_DOUBLE_EQ(h.max(), 7100.0);
    EXPECT_NEAR(h.mean(), 100.0 + 7.0 * 500.5, 1e-9);
    // Nearest rank: p50 is the 500th value, p99 the 990th; a bin centre is within 1/128 octave.
    EXPECT_NEAR(h.percentile(0.50), v[499], v[499] * 0.008);
    EXPECT_NEAR(h.percentile(0.99), v[989], v[989] * 0.008);
    EXPECT_LE(h.percentile(1.0), h.max());
    nestvp::latency_histogram g;
    g.add(50000.0);
    g.merge(h);
    EXPECT_EQ(g.count(), 1001u);
    EXPECT_DOUBLE_EQ(g.max(), 50000.0);
}
