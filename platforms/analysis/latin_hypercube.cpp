#include "platforms/analysis/latin_hypercube.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "platforms/config/param_schema.h"

namespace nestvp {

std::vector<sampled_param> assumed_ranges(const platform_config& cfg) {
    std::vector<sampled_param> out;
    for (const auto& d : param_schema()) {
        const bool integer =
            d.type == param_type::uint || d.type == param_type::hz || d.type == param_type::cost;
        if (!integer && d.type != param_type::real) continue;
        const value_provenance p = provenance_of(cfg, d);
        if (p.kind != "assumed" || p.range.size() != 2 || !(p.range[1] > p.range[0])) continue;
        out.push_back({d.path, p.range[0], p.range[1], integer});
    }
    return out;
}

namespace {

// One hypercube of n samples drawn from `rng`, appended to `out`.
void draw_hypercube(const std::vector<sampled_param>& params, unsigned n, std::mt19937_64& rng,
                    std::vector<std::vector<std::string>>& out) {
    std::vector<std::vector<std::string>> samples(n);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<unsigned> strata(n);
    for (const auto& p : params) {
        std::iota(strata.begin(), strata.end(), 0u);
        std::shuffle(strata.begin(), strata.end(), rng);
        for (unsigned i = 0; i < n; ++i) {
            const double u = (strata[i] + unit(rng)) / n;
            double v = p.lo + u * (p.hi - p.lo);
            std::string text;
            if (p.integer) {
                v = std::clamp(std::round(v), std::ceil(p.lo), std::floor(p.hi));
                text = std::to_string(static_cast<uint64_t>(v));
            } else {
                text = format_real(v);
            }
            samples[i].push_back(p.key + "=" + text);
        }
    }
    out.insert(out.end(), samples.begin(), samples.end());
}

}  // namespace

std::vector<std::vector<std::string>> latin_hypercube(const std::vector<sampled_param>& params,
                                                      unsigned n, uint64_t seed) {
    return latin_hypercubes(params, n, 1, seed);
}

std::vector<std::vector<std::string>> latin_hypercubes(const std::vector<sampled_param>& params,
                                                       unsigned n, unsigned cubes, uint64_t seed) {
    std::vector<std::vector<std::string>> samples;
    std::mt19937_64 rng(seed);
    for (unsigned c = 0; c < cubes; ++c) draw_hypercube(params, n, rng, samples);
    return samples;
}

}  // namespace nestvp
