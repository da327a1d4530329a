#pragma once
// Where a deliverable interrupt goes (timer-facilities.md §4.3, §3): HDEC and Hypervisor
// Virtualization taken in a guest go to its hypervisor as a trap, whatever the guest's EE;
// every other one runs the handler of the running level (L0 firmware, L1 or L2 kernel), with
// SRR0 the next instruction not yet executed. One per hardware thread.
#include <array>
#include <cstdint>
#include <functional>
#include <string>

#include "models/context_switch.h"
#include "models/exception_logic.h"
#include "models/sw_context.h"

namespace nestvp {

class interrupt_dispatch {
public:
    using handler = std::function<void(const interrupt_record&)>;

    // `owner` names the thread in errors.
    interrupt_dispatch(std::string owner, exception_logic& irq, context_switch& contexts);

    void set_handler(context_level lvl, handler h);
    // §4.3 / §3: whether `vector` taken at `lvl` traps to the hypervisor.
    static bool traps_to_hypervisor(context_level lvl, uint32_t vector);
    // Takes `vector` (what exception_logic::pending_vector() names now) at the running level's
    // NIA: a guest trap, or the level's handler. Throws std::logic_error, naming the owner, when
    // the level has no handler.
    void take(uint32_t vector);

private:
    std::string m_owner;
    exception_logic& m_irq;
    context_switch& m_contexts;
    std::array<handler, 3> m_handlers;
};

}  // namespace nestvp
