// hardware_thread: construction and the composition of its parts (thread_execution,
// context_switch, interrupt_dispatch, hcall_initiator), the hcall and the PPR save around an
// interrupt.
#include "models/hardware_thread.h"

#include <stdexcept>
#include <string>

#include "models/local_time.h"
#include "models/log.h"

namespace nestvp {

hardware_thread::hardware_thread(const sc_core::sc_module_name& name, core& owner, unsigned index,
                                 const timer_unit_options& timer_opts)
    : sc_core::sc_module(name),
      hcall_socket(m_hcalls.socket),
      m_core(owner),
      m_index(index),
      m_timers(make_timer_unit("timers", owner.tb(), timer_opts)),
      m_irq("irq"),
      m_tbr(owner.tb()),
      m_contexts(this->name(), m_irq, m_tbr, m_wake_at, m_trace_hook),
      m_dispatch(this->name(), m_irq, m_contexts),
      m_hcalls("hcall_socket", this->name()),
      m_exec(this->name(), owner, index, m_irq, *m_timers, m_contexts, m_wake_at, m_trace_hook) {
    set_thread_id(index);  // until the platform numbers it (set_id)
    // The core's SMT table has one entry per thread it can run (core.h).
    if (index >= owner.max_threads())
        throw std::invalid_argument(std::string(this->name()) + ": thread " +
                                    std::to_string(index) + " of a core with " +
                                    std::to_string(owner.max_threads()) + " thread(s)");
    m_irq.timer_lines.bind(
        *m_timers);  // the thread is the platform of its unit and exception logic
    m_exec.set_interrupt_dispatch([this] { dispatch_interrupt(); });
    m_exec.attach();
}

void hardware_thread::set_handler(context_level lvl, interrupt_handler handler) {
    m_dispatch.set_handler(lvl, std::move(handler));
}

trap_info hardware_thread::enter(sw_context& guest) {
    settle();
    return m_contexts.enter(guest);
}

uint64_t hardware_thread::guest_hcall() {
    settle();
    return m_contexts.guest_hcall();
}

void hardware_thread::guest_mmio_trap(uint64_t ea, bool store) {
    settle();
    m_contexts.guest_mmio_trap(ea, store);
}

void hardware_thread::guest_mmio_store(uint64_t ea) {
    guest_mmio_trap(ea, true);
}

uint64_t hardware_thread::guest_mmio_load(uint64_t ea) {
    sw_context* me = m_contexts.guest();
    guest_mmio_trap(ea, false);
    return me->gpr[9];  // the accessor's RT (power_insn::guest_mmio_load)
}

void hardware_thread::hcall(hcall_frame& frame) {
    // `sc 1` from L1: the call runs L0 firmware on this thread in hypervisor state.
    settle();
    const context_switch::hv_call_state caller = m_contexts.hv_call_enter();
    if (!m_hcalls.bound()) {
        frame.r[3] = static_cast<uint64_t>(-2);  // H_FUNCTION: no firmware behind the thread
        m_contexts.hv_call_return(caller);
        return;
    }
    trace();
    const sc_core::sc_time delay = m_hcalls.call(frame, id());
    // The initiator honours the annotated delay: the thread stalls for it (run-ahead kept).
    if (delay > sc_core::SC_ZERO_TIME) stall(delay);
    m_contexts.hv_call_return(caller);
}

void hardware_thread::dispatch_interrupt() {
    const auto v = m_irq.pending_vector();
    if (!v) return;  // withdrawn in the meantime
    // Interrupt entry saves PPR and runs the handler at medium priority; the return restores
    // PPR (Linux: the exception prolog's PPR save and HMT_MEDIUM, exceptions-64s.S; an L0 saves
    // a partition's PPR with the rest of its state). So a snoozing thread's handler, and L0 and
    // L1 after its trap, run at normal priority.
    NESTVP_LOG(log::module::thread, log::level::debug,
               name() << ": interrupt 0x" << std::hex << *v << std::dec << " at L"
                      << static_cast<unsigned>(level()));
    const bool saved_low = m_core.is_low_priority(m_index);
    if (saved_low) set_low_priority(false);
    m_dispatch.take(*v);
    if (saved_low) set_low_priority(true);
}

}  // namespace nestvp
