#include "models/interrupt_dispatch.h"

#include <stdexcept>

namespace nestvp {

interrupt_dispatch::interrupt_dispatch(std::string owner, exception_logic& irq,
                                       context_switch& contexts)
    : m_owner(std::move(owner)), m_irq(irq), m_contexts(contexts) {}

void interrupt_dispatch::set_handler(context_level lvl, handler h) {
    m_handlers.at(static_cast<unsigned>(lvl)) = std::move(h);
}

bool interrupt_dispatch::traps_to_hypervisor(context_level lvl, uint32_t v) {
    // HDEC (§3) and Hypervisor Virtualization (§4.1, a host IPI while a guest runs) go to L0.
    return lvl == context_level::l2 &&
           (v == vector::hdecrementer || v == vector::hv_virtualization);
}

void interrupt_dispatch::take(uint32_t v) {
    const context_level lvl = m_contexts.level();
    if (traps_to_hypervisor(lvl, v)) {
        const interrupt_record rec = m_irq.take(m_contexts.current_nia());
        m_contexts.guest_trap(trap_info{rec.vector, rec.save0, rec.save1});
        return;
    }
    const handler& h = m_handlers[static_cast<unsigned>(lvl)];
    if (!h) throw std::logic_error(m_owner + ": no handler for interrupt at this level");
    h(m_irq.take(m_contexts.current_nia()));
}

}  // namespace nestvp
