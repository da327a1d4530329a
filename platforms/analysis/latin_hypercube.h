#pragma once
// Latin hypercube samples over a platform's assumed ranges (`nestvp uncertainty`,
// docs/cmd-uncertainty.md). Each range is cut into n equal strata; every key uses each stratum
// exactly once, in an order shuffled per key, at a uniform position inside it (McKay, Beckman
// and Conover, Technometrics 21(2), 1979). The same seed gives the same samples.
#include <cstdint>
#include <string>
#include <vector>

#include "platforms/config/platform_config.h"

namespace nestvp {

struct sampled_param {
    std::string key;
    double lo = 0, hi = 0;
    bool integer = false;  // integers, frequencies and costs are rounded to whole numbers
};

// Every numeric key of `cfg` whose kind is assumed and whose range is wider than a point, in
// schema order (costs included: their range is the cost's).
std::vector<sampled_param> assumed_ranges(const platform_config& cfg);

// n samples, each a "key=value" list in `params` order.
std::vector<std::vector<std::string>> latin_hypercube(const std::vector<sampled_param>& params,
                                                      unsigned n, uint64_t seed);

// `cubes` independent hypercubes of n samples each, one after the other (replicated Latin
// hypercube sampling; Dong and Nakayama, Operations Research 65(6), 2017): cube c
// is samples [c * n, (c + 1) * n). They are drawn from one random stream, so the first is
// latin_hypercube(params, n, seed).
std::vector<std::vector<std::string>> latin_hypercubes(const std::vector<sampled_param>& params,
                                                       unsigned n, unsigned cubes, uint64_t seed);

}  // namespace nestvp
