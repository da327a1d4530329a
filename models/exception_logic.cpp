#include "models/exception_logic.h"

#include "models/edge_scheduler.h"
#include "models/local_time.h"

#include <stdexcept>

namespace nestvp {

exception_logic::exception_logic(const sc_core::sc_module_name& name, uint64_t msr_value,
                                 uint64_t lpcr_value)
    : sc_core::sc_module(name),
      timer_lines("timer_lines",
                  [this](irq_lines_if& u) { u.set_lpcr(m_lpcr & lpcr::ld, m_lpcr & lpcr::hdice); }),
      m_lines_changed(timer_lines, &irq_lines_if::pending_changed_event),
      m_msr(msr_value),
      m_lpcr(lpcr_value) {
    SC_METHOD(on_timer_change);
    sensitive << m_lines_changed;  // resolved when the port is bound (end of elaboration)
    dont_initialize();
}

void exception_logic::set_msr(uint64_t v) {
    m_msr = v;
    reevaluate();
}

void exception_logic::set_lpcr(uint64_t v) {
    m_lpcr = v;
    timer_lines->set_lpcr(v & lpcr::ld, v & lpcr::hdice);
    reevaluate();
}

void exception_logic::set_external(bool v) {
    if (m_external == v) return;
    m_external = v;
    m_external_changed.notify(sc_core::SC_ZERO_TIME);
    reevaluate();
}

interrupt_record exception_logic::take(uint64_t nia) {
    const auto v = pending_vector();
    if (!v) throw std::logic_error("exception_logic::take: no interrupt is deliverable");
    if (*v == vector::hdecrementer) {
        timer_lines->ack_hdec();  // §3: cleared when delivered
        return deliver(*v, true, nia, 0);
    }
    // HVI goes to the hypervisor (HSRR). External and DEC stay pending (levels): the software
    // acknowledges them at the source.
    return deliver(*v, *v == vector::hv_virtualization, nia, 0);  // §2.2 for DEC
}

interrupt_record exception_logic::raise(uint32_t vec, uint64_t nia, uint64_t srr1_flags) {
    return deliver(vec, vec == vector::hv_emulation || vec == vector::hdecrementer, nia,
                   srr1_flags);
}

interrupt_record exception_logic::deliver(uint32_t vec, bool hyp, uint64_t nia,
                                          uint64_t srr1_flags) {
    interrupt_record r;
    r.vector = vec;
    r.hypervisor = hyp;
    r.save0 = nia;
    r.save1 = (m_msr & ~msr::srr1_cleared) | srr1_flags;
    if (hyp) {
        // §3 action: HSRR0/1, new MSR sets HV=1, keeps ME and RI; EE/PR/IR/DR cleared.
        m_hsrr0 = r.save0, m_hsrr1 = r.save1;
        r.new_msr = msr::sf | msr::hv | (m_msr & (msr::me | msr::ri));
    } else {
        // §2.2 action: SRR0/1, new MSR keeps ME and HV unchanged; EE/PR/IR/DR cleared.
        m_srr0 = r.save0, m_srr1 = r.save1;
        r.new_msr = msr::sf | (m_msr & (msr::me | msr::hv));
    }
    m_msr = r.new_msr;
    reevaluate();
    return r;
}

uint64_t exception_logic::rfid() {
    // rfid cannot raise the privilege to HV: MSR[HV] <- SRR1[HV] & MSR[HV].
    const uint64_t hv = m_srr1 & m_msr & msr::hv;
    m_msr = (m_srr1 & ~msr::hv) | hv;
    reevaluate();  // §4.3: a still-negative DEC is re-taken if EE=1
    return m_srr0;
}

uint64_t exception_logic::hrfid() {
    m_msr = m_hsrr1;
    reevaluate();
    return m_hsrr0;
}

// Waiters (compute(), the stimulus runner) only act on a deliverable interrupt, so a change
// that leaves nothing deliverable wakes nobody.
void exception_logic::on_timer_change() {
    if (!pending_vector()) return;
    local_time::sync();  // waiters see it at the notifier's time (models/local_time.h)
    m_deliverable.notify();
    if (m_waker) m_waker->notify();
}

void exception_logic::reevaluate() {
    if (systemc_elaborating() || !pending_vector()) return;
    local_time::sync();
    m_deliverable.notify(sc_core::SC_ZERO_TIME);
    if (m_waker) m_waker->notify(sc_core::SC_ZERO_TIME);
}

}  // namespace nestvp
