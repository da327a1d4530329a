#pragma once
// The policy decision map (docs/policy-map.md): over a grid of idle vCPUs x idle wake rate x
// GET_STATE cost x L0 run output, which L1 DEC policy gives the highest benchmark throughput,
// the lowest timer-interrupt p99 and the fewest exits per second. The grid runs as a sweep with
// l1.dec_policy as its last (fastest) axis, so each cell's policies are adjacent points.
#include <optional>
#include <string>
#include <vector>

#include "platforms/analysis/sweep_plan.h"
#include "platforms/records/run_record.h"

namespace nestvp {

enum class map_criterion { throughput, timer_p99, exits };
const char* criterion_name(map_criterion c);  // "throughput", "timer_p99", "exits"

constexpr int k_no_runs = -1, k_tie = -2;  // map_cell::winner other than a policy index

struct map_cell {
    std::vector<std::string> values;  // the grid values of the axes before the policy axis
    // Per policy (the last axis' values, in order): the figure of each criterion, or none when
    // the run is missing (or, for timer_p99, has no sample).
    std::vector<std::optional<double>> arithoh, timer_p99, exits_per_s;
    // Index of the winning policy per criterion (-1: no run to compare, -2: a tie, the best
    // within 0.05 % of the runner-up) and its margin over the runner-up, in percent of it.
    int winner[3] = {k_no_runs, k_no_runs, k_no_runs};
    double margin_pct[3] = {0, 0, 0};
};

struct policy_map {
    std::vector<grid_axis> axes;  // the cell axes (all but the policy axis)
    std::vector<std::string> policies;
    std::vector<map_cell> cells;  // in grid order
};

policy_map analyse_policy_map(const sweep_plan& plan,
                              const std::vector<std::optional<run_record>>& pts);

// One row per cell: the axis values, each criterion's winner and margin, each policy's figures.
std::string policy_map_csv(const policy_map& m);

}  // namespace nestvp
