// hardware_thread: dispatching a deliverable interrupt to the running level's handler, or as a
// trap to the hypervisor (timer-facilities.md §4.3, §3).
#include "models/hardware_thread.h"

#include "models/log.h"

#include <stdexcept>
#include <string>

namespace nestvp {

namespace {
// HDEC (§3) and Hypervisor Virtualization (§4.1, a host IPI while a guest runs) go to L0.
bool is_hypervisor_vector(uint32_t v) {
    return v == vector::hdecrementer || v == vector::hv_virtualization;
}
}  // namespace

void hardware_thread::dispatch_interrupt() {
    const auto v = m_irq.pending_vector();
    if (!v) return;  // withdrawn in the meantime
    // Interrupt entry saves PPR and runs the handler at medium priority; the return restores
    // PPR (Linux: the exception prolog's PPR save and HMT_MEDIUM, exceptions-64s.S; an L0 saves
    // a partition's PPR with the rest of its state). So a snoozing thread's handler, and L0 and
    // L1 after its trap, run at normal priority.
    NESTVP_LOG(log::module::thread, log::level::debug,
               name() << ": interrupt 0x" << std::hex << *v << std::dec << " at L"
                      << static_cast<unsigned>(m_level));
    const bool saved_low = m_core.is_low_priority(m_index);
    if (saved_low) set_low_priority(false);
    if (m_level == context_level::l2 && is_hypervisor_vector(*v)) {
        // §4.3 / §3: HDEC and HVI in a guest are taken regardless of its EE and go to L0.
        const interrupt_record rec = m_irq.take(current_nia());
        guest_trap(trap_info{rec.vector, rec.save0, rec.save1});
    } else {
        auto& handler = m_handlers.at(static_cast<unsigned>(m_level));
        if (!handler)
            throw std::logic_error(std::string(name()) +
                                   ": no handler for interrupt at this level");
        handler(m_irq.take(current_nia()));
    }
    if (saved_low) set_low_priority(true);
}

}  // namespace nestvp
