#pragma once
// A workload runs on an L2 vCPU in user mode. A vCPU with no workload is idle.
#include <cstdint>
#include <string>

namespace nestvp {

class workload {
public:
    virtual ~workload() = default;
    virtual std::string name() const = 0;
    // Runs forever on the calling L2 context (the kernel takes interrupts underneath).
    virtual void run() = 0;
    // Units of work completed so far (loop iterations for arithoh).
    virtual uint64_t count() const = 0;
};

}  // namespace nestvp
