#include "models/context_switch.h"

#include "models/log.h"

namespace nestvp {

context_switch::context_switch(std::string owner, exception_logic& irq, tb_register& tbr,
                               local_time::wake_slot& wake_at, const std::function<void()>& trace)
    : m_owner(std::move(owner)), m_irq(irq), m_tbr(tbr), m_wake_at(wake_at), m_trace(trace) {}

uint64_t context_switch::current_nia() const {
    const sw_context* c = m_level == context_level::l2 ? m_guest : m_host;
    return c ? c->nia : 0;
}

void context_switch::set_nia(uint64_t nia) {
    sw_context* c = m_level == context_level::l2 ? m_guest : m_host;
    if (c) c->nia = nia;
}

trap_info context_switch::enter(sw_context& guest) {
    // hrfid into the guest: HSRR0/1 <- its NIA and MSR (L-kvm enters guests this way, §4.3).
    NESTVP_LOG(log::module::thread, log::level::debug,
               m_owner << ": enter " << guest.name << " at 0x" << std::hex << guest.nia);
    m_guest = &guest;
    m_irq.set_srr(guest.srr0, guest.srr1);
    m_irq.set_hsrr(guest.nia, guest.msr);
    m_irq.hrfid();
    m_tbr.set_offset(guest.tb_offset);
    m_level = guest.level;
    m_trap_pending = false;
    trace();  // at local time, before the hand-over takes the run-ahead offset away
    m_handoff = local_time::hand_over();  // the guest goes on at this thread's local time
    m_entry_time = sc_core::sc_time::from_value(local_time::kernel_now_value() + m_handoff);
    m_resume.notify();
    while (!m_trap_pending) sc_core::wait(m_trap_event);
    local_time::take_over(m_handoff, m_wake_at);
    m_level = context_level::l0;
    trace();
    if (m_host) m_tbr.set_offset(0);  // L0 runs on host ticks
    return m_trap;
}

void context_switch::guest_trap(const trap_info& t) {
    sw_context* me = m_guest;
    NESTVP_LOG(log::module::thread, log::level::debug,
               m_owner << ": " << me->name << " traps, vector 0x" << std::hex << t.vector
                       << " at 0x" << t.nia);
    me->nia = t.nia;
    me->msr = t.msr;
    me->srr0 = m_irq.srr0();
    me->srr1 = m_irq.srr1();
    m_handoff = local_time::hand_over();  // the hypervisor goes on at the trap's local time
    m_trap = t;
    m_trap_pending = true;
    m_trap_time = sc_core::sc_time::from_value(local_time::kernel_now_value() + m_handoff);
    m_level = context_level::l0;
    m_trap_event.notify();
    await_entry(*me);
}

void context_switch::await_entry(sw_context& guest) {
    do sc_core::wait(m_resume);  // enter() of this context (the thread may serve several)
    while (m_guest != &guest);
    local_time::take_over(m_handoff, m_wake_at);
}

uint64_t context_switch::guest_hcall() {
    // System Call interrupt with LEV=1: SRR0/1 <- NIA, MSR; new MSR HV=1 (Q-excp sc 1).
    sw_context* me = m_guest;
    const uint64_t nia = me->nia + 4;
    const uint64_t m = m_irq.msr();
    m_irq.set_srr(nia, m & ~msr::srr1_cleared);
    m_irq.set_msr(msr::sf | msr::hv | (m & (msr::me | msr::ri)));
    guest_trap(trap_info{0xC00, nia, m});
    return me->gpr[3];
}

void context_switch::guest_mmio_trap(uint64_t ea, bool store) {
    // HDSI (0xE00, Book III "Hypervisor Data Storage Interrupt"): HSRR0 <- the access's
    // address, HSRR1 <- MSR; HDAR <- EA, HDSISR[38] set for a store, ASDR <- the guest real
    // page; MSR HV=1.
    sw_context* me = m_guest;
    const uint64_t m = m_irq.msr();
    m_irq.set_hsrr(me->nia, m);
    m_irq.set_msr(msr::sf | msr::hv | (m & (msr::me | msr::ri)));
    trap_info t{0xE00, me->nia, m};
    t.hdar = ea;
    t.hdsisr = store ? 0x02000000ull : 0;  // DSISR_ISSTORE
    t.asdr = ea & ~0xFFFull;
    guest_trap(t);
}

context_switch::hv_call_state context_switch::hv_call_enter() {
    // `sc 1` from L1: the call runs L0 firmware on this thread in hypervisor state.
    const hv_call_state s{m_irq.msr(), m_level, m_tbr.offset()};
    m_irq.set_srr(current_nia() + 4, s.msr & ~msr::srr1_cleared);
    m_irq.set_msr(msr::sf | msr::hv | (s.msr & (msr::me | msr::ri)));
    m_level = context_level::l0;
    m_tbr.set_offset(0);
    return s;
}

void context_switch::hv_call_return(const hv_call_state& s) {
    // Return to L1 (hrfid with HSRR1 = the caller's MSR).
    m_level = s.level;
    m_tbr.set_offset(s.tb_offset);
    m_irq.set_msr(s.msr);
}

}  // namespace nestvp
