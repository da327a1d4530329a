#pragma once
// Unixbench arithoh (UnixBench/src/arith.c with -Darithoh; nested-virtualization.md §8): a
// user-mode loop with no system calls. Its count is the iterations completed, and it
// progresses only while its vCPU runs in L2 user mode, at its hardware thread's share of
// the core: count = L2 user cycles retired / cycles per iteration.
#include "models/cpu_if.h"
#include "sw/workloads/workload.h"

namespace nestvp {

class arithoh : public workload {
public:
    arithoh(cpu_if& thread, double cycles_per_iteration);

    std::string name() const override { return "arithoh"; }
    void run() override;
    uint64_t count() const override;

private:
    cpu_if& m_thread;
    double m_cycles_per_iteration;
};

}  // namespace nestvp
