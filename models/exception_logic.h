#pragma once
// The exception logic of one hardware thread (Book III-S "Interrupts"): its MSR, LPCR and
// SRR/HSRR registers and the delivery of the timer interrupts — timer-facilities.md §4 (table
// §4.1, priority §4.2, return §4.3), actions §2.2 and §3. Not an interrupt controller: it
// routes nothing between threads.
//
// Holds MSR, LPCR, SRR0/1 and HSRR0/1. Gating: DEC needs MSR[EE]; HDEC needs
// LPCR[HDICE] & (MSR[EE] | ~MSR[HV]) (QEMU p9_next_unmasked_interrupt; the ISA form with a PR
// term is [ISA-unverified], §9.5). Priority: HDEC above DEC.
// The external class (§4.1, §4.2): the interrupt controller's line to the thread's partition
// (a host IPI) is a Hypervisor Virtualization interrupt (0xEA0, HSRR) when LPCR[HVICE] &
// (EE | ~HV), as in a guest that L0 runs with HVICE forced; otherwise an External (0x500,
// SRR) under MSR[EE], L0's presentation to the partition folded in. LPCR[MER] raises a
// mediated External (0x500, SRR) in a guest (HV=0) with EE=1. Order: HDEC, HVI, External, DEC.
// take() applies the ISA action, rfid()/hrfid() restore the MSR; deliverable_event() is notified
// (delta) after every MSR/LPCR write, return, and timer pending change, so a waiter re-evaluates
// pending_vector(). A hardware-thread model owns one exception_logic and one timer unit; the timer
// unit's lines reach it through the port timer_lines, which the owner binds (VCML's irq sockets are
// the model). The LPCR it holds is forwarded to the unit when it is bound.
#include <cstdint>
#include <optional>

#include <systemc>

#include "models/bound_port.h"
#include "models/irq_lines_if.h"
#include "models/power_regs.h"

namespace nestvp {

class exception_logic : public sc_core::sc_module {
public:
    // Reset MSR: 64-bit hypervisor mode, machine checks enabled, EE=0.
    static constexpr uint64_t reset_msr = msr::sf | msr::hv | msr::me;

    SC_HAS_PROCESS(exception_logic);
    exception_logic(const sc_core::sc_module_name& name, uint64_t msr_value = reset_msr,
                    uint64_t lpcr_value = 0);

    // The timer unit's DEC (level, §2.2) and HDEC (latched edge, §3) lines, with their control
    // (ack_hdec, LPCR LD/HDICE). Bound by the owner: timer_lines.bind(unit).
    bound_port<irq_lines_if> timer_lines;

    uint64_t msr() const { return m_msr; }
    void set_msr(uint64_t v);  // mtmsrd: re-evaluates
    uint64_t lpcr() const { return m_lpcr; }
    void set_lpcr(uint64_t v);  // forwards LD/HDICE to the timer unit; re-evaluates

    uint64_t srr0() const { return m_srr0; }
    uint64_t srr1() const { return m_srr1; }
    uint64_t hsrr0() const { return m_hsrr0; }
    uint64_t hsrr1() const { return m_hsrr1; }
    void set_srr(uint64_t srr0, uint64_t srr1) { m_srr0 = srr0, m_srr1 = srr1; }
    void set_hsrr(uint64_t hsrr0, uint64_t hsrr1) { m_hsrr0 = hsrr0, m_hsrr1 = hsrr1; }

    // The interrupt controller's line to this thread's partition (a host IPI): a level, held
    // until the receiving software acknowledges it. May be set from another thread's process.
    bool external() const { return m_external; }
    void set_external(bool v);
    // Notified whenever external() changes (a ceded thread waits on it in L0).
    const sc_core::sc_event& external_event() const { return m_external_changed; }

    // The highest-priority pending *and enabled* interrupt, if any (§4.1, §4.2).
    std::optional<uint32_t> pending_vector();
    // Takes the interrupt pending_vector() names, with SRR0/HSRR0 = nia (the next instruction
    // not yet executed). HDEC is acknowledged (cleared on delivery, §3); DEC is not (§2.2).
    // Throws std::logic_error when nothing is deliverable.
    interrupt_record take(uint64_t nia);
    // Synchronous exceptions raised by instructions (spr_access): 0x700 via SRR, 0xE40 via HSRR.
    interrupt_record raise(uint32_t vec, uint64_t nia, uint64_t srr1_flags = 0);

    // §4.3: MSR <- SRR1 (HV only kept if already HV) / HSRR1; returns SRR0 / HSRR0.
    uint64_t rfid();
    uint64_t hrfid();

    // Notified after a change (MSR, LPCR, a timer line) that leaves an interrupt deliverable.
    const sc_core::sc_event& deliverable_event() const { return m_deliverable; }
    // The owning thread's own wake-up event, notified with deliverable_event(): compute() waits
    // on that one event alone (cheaper in the kernel than a list of three).
    void set_waker(sc_core::sc_event& e) { m_waker = &e; }

private:
    void on_timer_change();  // SC_METHOD on timer_lines' pending_changed_event()
    void reevaluate();
    interrupt_record deliver(uint32_t vec, bool hyp, uint64_t nia, uint64_t srr1_flags);

    sc_core::sc_event_finder_t<irq_lines_if> m_lines_changed;
    uint64_t m_msr;
    uint64_t m_lpcr;
    uint64_t m_srr0 = 0, m_srr1 = 0, m_hsrr0 = 0, m_hsrr1 = 0;
    bool m_external = false;
    sc_core::sc_event m_deliverable;
    sc_core::sc_event m_external_changed;
    sc_core::sc_event* m_waker = nullptr;
};

// Inline, forced: compute() asks before and after every segment, about 40 times an exit, and
// GCC's heuristics left it a call of its own (bench/README.md, "The CPU interface").
[[gnu::always_inline]] inline std::optional<uint32_t> exception_logic::pending_vector() {
    const bool ee = m_msr & msr::ee;
    const bool hv = m_msr & msr::hv;
    // §4.2 (QEMU p9_next_unmasked_interrupt): HDEC before the EE-gated DEC.
    // §3 / §4.1: HDEC is taken in a guest (HV=0) regardless of the guest's EE.
    if ((m_lpcr & lpcr::hdice) && (ee || !hv) && timer_lines->hdec_pending())
        return vector::hdecrementer;
    // §4.1: Hypervisor Virtualization, LPCR[HVICE] & (EE | ~HV); then External under EE.
    if (m_external && (m_lpcr & lpcr::hvice) && (ee || !hv)) return vector::hv_virtualization;
    if (m_external && ee) return vector::external;
    // Mediated External (LPCR[MER], Book III "External Interrupt"): a guest with EE=1.
    if ((m_lpcr & lpcr::mer) && ee && !hv) return vector::external;
    // §2.2: DEC gated by MSR[EE] only.
    if (ee && timer_lines->dec_pending()) return vector::decrementer;
    return std::nullopt;
}

}  // namespace nestvp
