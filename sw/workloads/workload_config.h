#pragma once
// The parameters of the workloads (arithoh.h), mounted at `workload.`.
#include "models/params.h"

namespace nestvp {

struct workload_config {
    unsigned arithoh_copies = 1;  // on vCPUs 0..copies-1; the rest are idle
    cost_param arithoh_iteration{
        9,
        "derived: reference-result.md cancel run, 340.3 M iterations/s at 3.0 GHz -> 8.8 cycles"};

    static void describe(param_list<workload_config>& p) {
        using c = workload_config;
        p.add_uint("arithoh_copies", &c::arithoh_copies, 0, 1024, "",
                   "arithoh copies on vCPUs 0..copies-1 (at most l2.vcpus); the rest idle");
        p.add_cost("costs.arithoh_iteration", &c::arithoh_iteration, "one arithoh loop iteration");
    }
};

}  // namespace nestvp
