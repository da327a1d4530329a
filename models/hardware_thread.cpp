#include "models/hardware_thread.h"

#include <cmath>
#include <stdexcept>

namespace nestvp {

namespace {
bool is_hypervisor_vector(uint32_t v) {
    return v == vector::hdecrementer;
}
}  // namespace

hardware_thread::hardware_thread(const sc_core::sc_module_name& name, core& owner, unsigned index,
                                 const timer_unit_options& timer_opts)
    : sc_core::sc_module(name),
      hcall_socket("hcall_socket"),
      m_core(owner),
      m_index(index),
      m_id(index),
      m_timers(make_timer_unit("timers", owner.tb(), timer_opts)),
      m_irq("irq", *m_timers),
      m_tbr(owner.tb()),
      m_timeout("timeout") {
    m_wake = m_timeout | m_irq.deliverable_event() | m_core.rerate_event();
}

void hardware_thread::set_handler(context_level lvl, interrupt_handler handler) {
    m_handlers.at(static_cast<unsigned>(lvl)) = std::move(handler);
}

hardware_thread::accounting hardware_thread::current_accounting() const {
    switch (m_level) {
        case context_level::l0:
            return acct_l0;
        case context_level::l1:
            return acct_l1;
        default:
            return (m_irq.msr() & msr::pr) ? acct_l2_user : acct_l2_kernel;
    }
}

hardware_thread::compute_result hardware_thread::compute(double cycles) {
    compute_result r;
    double remaining = cycles + m_owed;  // charged steps are retired with this work
    m_owed = 0;
    const double resolution = sc_core::sc_get_time_resolution().to_seconds();
    trace();
    while (remaining > 1e-6) {
        if (m_irq.pending_vector()) {
            r.interrupted = true;
            break;
        }
        const double rate = m_core.thread_rate();
        const uint64_t rerates = m_core.rerate_count();
        const sc_core::sc_time start = sc_core::sc_time_stamp();
        const sc_core::sc_time dt = sc_core::sc_time::from_value(
            static_cast<sc_dt::uint64>(std::ceil(remaining / rate / resolution)));
        const sc_core::sc_time deadline = start + dt;
        m_seg_active = true, m_seg_acct = current_accounting(), m_seg_rate = rate,
        m_seg_start = start;
        m_timeout.cancel();
        m_timeout.notify(dt);
        for (;;) {
            sc_core::wait(m_wake);
            if (sc_core::sc_time_stamp() >= deadline || m_core.rerate_count() != rerates ||
                m_irq.pending_vector())
                break;
        }
        m_seg_active = false;
        const double done =
            std::min(remaining, (sc_core::sc_time_stamp() - start).to_seconds() * rate);
        m_cycles[m_seg_acct] += done;
        remaining -= done;
        r.done += done;
    }
    m_timeout.cancel();
    trace();
    return r;
}

void hardware_thread::execute(double cycles) {
    double left = cycles + m_owed;
    m_owed = 0;
    for (;;) {
        const compute_result r = compute(left);
        left -= r.done;
        if (!r.interrupted) return;
        dispatch_interrupt();
    }
}

void hardware_thread::dispatch_interrupt() {
    const auto v = m_irq.pending_vector();
    if (!v) return;  // withdrawn in the meantime
    if (m_level == context_level::l2 && is_hypervisor_vector(*v)) {
        // §4.3 / §3: HDEC in a guest is taken regardless of the guest's EE and goes to L0.
        const interrupt_record rec = m_irq.take(current_nia());
        guest_trap(trap_info{rec.vector, rec.save0, rec.save1});
        return;
    }
    auto& handler = m_handlers.at(static_cast<unsigned>(m_level));
    if (!handler)
        throw std::logic_error(std::string(name()) + ": no handler for interrupt at this level");
    handler(m_irq.take(current_nia()));
}

uint64_t hardware_thread::current_nia() const {
    const sw_context* c = m_level == context_level::l2 ? m_guest : m_host;
    return c ? c->nia : 0;
}

void hardware_thread::set_nia(uint64_t nia) {
    sw_context* c = m_level == context_level::l2 ? m_guest : m_host;
    if (c) c->nia = nia;
}

trap_info hardware_thread::enter(sw_context& guest) {
    settle();
    // hrfid into the guest: HSRR0/1 <- its NIA and MSR (L-kvm enters guests this way, §4.3).
    m_guest = &guest;
    m_irq.set_hsrr(guest.nia, guest.msr);
    m_irq.hrfid();
    m_tbr.set_offset(guest.tb_offset);
    m_level = guest.level;
    m_trap_pending = false;
    m_entry_time = sc_core::sc_time_stamp();
    guest.resume.notify();
    trace();
    while (!m_trap_pending) sc_core::wait(m_trap_event);
    m_level = context_level::l0;
    trace();
    if (m_host) m_tbr.set_offset(0);  // L0 runs on host ticks
    return m_trap;
}

void hardware_thread::guest_trap(const trap_info& t) {
    sw_context* me = m_guest;
    me->nia = t.nia;
    me->msr = t.msr;
    m_trap = t;
    m_trap_pending = true;
    m_trap_time = sc_core::sc_time_stamp();
    m_level = context_level::l0;
    m_trap_event.notify();
    sc_core::wait(me->resume);
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

void hardware_thread::hcall(hcall_frame& frame) {
    // `sc 1` from L1: the call runs L0 firmware on this thread in hypervisor state.
    settle();
    const uint64_t m = m_irq.msr();
    const context_level lvl = m_level;
    const uint64_t offset = m_tbr.offset();
    m_irq.set_srr(current_nia() + 4, m & ~msr::srr1_cleared);
    m_irq.set_msr(msr::sf | msr::hv | (m & (msr::me | msr::ri)));
    m_level = context_level::l0;
    m_tbr.set_offset(0);
    frame.thread = this;
    if (hcall_socket.size() == 0) {
        frame.r[3] = static_cast<uint64_t>(-2);  // H_FUNCTION: no firmware behind the thread
        m_level = lvl;
        m_tbr.set_offset(offset);
        m_irq.set_msr(m);
        return;
    }
    // One payload per thread, reused: built per call it allocated its extension array each
    // time, and one left on a coroutine stack that never unwinds was reported as a leak.
    // Only one context runs on the thread, so calls cannot overlap (checked).
    if (m_hcall_in_flight)
        throw std::logic_error(std::string(name()) + ": hcall issued while another is in flight");
    m_hcall_in_flight = true;
    tlm::tlm_generic_payload& gp = m_hcall_gp;
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_address(frame.r[3]);
    gp.set_data_ptr(reinterpret_cast<unsigned char*>(&frame));
    gp.set_data_length(sizeof(frame));
    gp.set_streaming_width(sizeof(frame));
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    trace();
    try {
        hcall_socket->b_transport(gp, delay);
    } catch (...) {
        m_hcall_in_flight = false;
        throw;
    }
    m_hcall_in_flight = false;
    if (delay > sc_core::SC_ZERO_TIME) {
        settle();
        sc_core::wait(delay);
    }
    if (gp.get_response_status() != tlm::TLM_OK_RESPONSE) frame.r[3] = static_cast<uint64_t>(-2);
    // Return to L1 (hrfid with HSRR1 = the caller's MSR).
    m_level = lvl;
    m_tbr.set_offset(offset);
    m_irq.set_msr(m);
}

double hardware_thread::cycles(accounting a) const {
    double c = m_cycles.at(a);
    if (m_seg_active && m_seg_acct == a)
        c += (sc_core::sc_time_stamp() - m_seg_start).to_seconds() * m_seg_rate;
    return c;
}

}  // namespace nestvp
