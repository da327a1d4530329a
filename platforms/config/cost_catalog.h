#pragma once
// Every modelled cost, by level: its name, default in cycles, where the figure comes from and
// what it pays for. A platform file may override any of them, but must name a source.
#include <cstdint>
#include <string>
#include <vector>

#include "platforms/config/platform_config.h"

namespace nestvp {

struct cost_def {
    std::string level;  // l0 | l1 | l2 | workload
    std::string name;
    uint64_t cycles;
    std::string source;
    std::string description;
    cost_range range = {};  // plausible range of an assumed figure; empty for sourced ones
};

const std::vector<cost_def>& cost_catalog();
// The catalog's defaults for one level, as a cost_table.
cost_table default_costs(const std::string& level);
// Looks a cost up; throws std::out_of_range naming it when the table lacks it.
uint64_t cost_cycles(const cost_table& table, const std::string& name);

}  // namespace nestvp
