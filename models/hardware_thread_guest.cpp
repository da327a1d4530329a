// hardware_thread: entering a guest (hrfid) and a guest's trap back to its hypervisor, with the
// run-ahead offset handed between the two contexts (docs/hardware-thread.md).
#include "models/hardware_thread.h"

#include "models/log.h"

#include "models/local_time.h"

namespace nestvp {

trap_info hardware_thread::enter(sw_context& guest) {
    settle();
    // hrfid into the guest: HSRR0/1 <- its NIA and MSR (L-kvm enters guests this way, §4.3).
    NESTVP_LOG(log::module::thread, log::level::debug,
               name() << ": enter " << guest.name << " at 0x" << std::hex << guest.nia);
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

void hardware_thread::guest_trap(const trap_info& t) {
    sw_context* me = m_guest;
    NESTVP_LOG(log::module::thread, log::level::debug,
               name() << ": " << me->name << " traps, vector 0x" << std::hex << t.vector << " at 0x"
                      << t.nia);
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

void hardware_thread::await_entry(sw_context& guest) {
    do sc_core::wait(m_resume);  // enter() of this context (the thread may serve several)
    while (m_guest != &guest);
    local_time::take_over(m_handoff, m_wake_at);
}

uint64_t hardware_thread::guest_hcall() {
    // System Call interrupt with LEV=1: SRR0/1 <- NIA, MSR; new MSR HV=1 (Q-excp sc 1).
    settle();
    sw_context* me = m_guest;
    const uint64_t nia = me->nia + 4;
    const uint64_t m = m_irq.msr();
    m_irq.set_srr(nia, m & ~msr::srr1_cleared);
    m_irq.set_msr(msr::sf | msr::hv | (m & (msr::me | msr::ri)));
    guest_trap(trap_info{0xC00, nia, m});
    return me->gpr[3];
}

void hardware_thread::guest_mmio_trap(uint64_t ea, bool store) {
    // HDSI (0xE00, Book III "Hypervisor Data Storage Interrupt"): HSRR0 <- the access's
    // address, HSRR1 <- MSR; HDAR <- EA, HDSISR[38] set for a store, ASDR <- the guest real
    // page; MSR HV=1.
    settle();
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

void hardware_thread::guest_mmio_store(uint64_t ea) {
    guest_mmio_trap(ea, true);
}

uint64_t hardware_thread::guest_mmio_load(uint64_t ea) {
    sw_context* me = m_guest;
    guest_mmio_trap(ea, false);
    return me->gpr[9];  // the accessor's RT (power_insn::guest_mmio_load)
}

}  // namespace nestvp
