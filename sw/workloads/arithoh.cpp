#include "sw/workloads/arithoh.h"

#include <cmath>
#include <stdexcept>

namespace nestvp {

namespace {
constexpr uint64_t arithoh_loop_nia = 0x10000400;  // user text of the loop (synthetic)
constexpr double chunk_cycles = 1e9;               // one execute() call; interrupts split it
}  // namespace

arithoh::arithoh(cpu_if& thread, double cycles_per_iteration)
    : m_thread(thread), m_cycles_per_iteration(cycles_per_iteration) {
    if (!(cycles_per_iteration > 0))
        throw std::invalid_argument("arithoh: cycles per iteration must be > 0");
}

void arithoh::run() {
    // Enter user mode (rfid to problem state) and loop: `iter++; dumb_stuff();` forever.
    m_thread.set_srr(arithoh_loop_nia, (m_thread.msr() | msr::pr | msr::ee) & ~msr::hv);
    m_thread.set_nia(m_thread.rfid());
    for (;;) m_thread.execute(chunk_cycles);
}

uint64_t arithoh::count() const {
    return static_cast<uint64_t>(
        std::floor(m_thread.cycles(cpu_if::acct_l2_user) / m_cycles_per_iteration));
}

}  // namespace nestvp
