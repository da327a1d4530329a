#include "models/hardware_thread.h"

#include <cmath>
#include <stdexcept>

#include "models/local_time.h"

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
      m_irq("irq"),
      m_tbr(owner.tb()),
      m_wake("wake"),
      m_units_per_second(1.0 / sc_core::sc_get_time_resolution().to_seconds()) {
    m_irq.timer_lines.bind(
        *m_timers);  // the thread is the platform of its unit and exception logic
    m_irq.set_waker(m_wake);
    m_core.attach(*this, m_wake);
    m_hcall_ext = new hcall_extension;
    m_hcall_gp.set_extension(m_hcall_ext);  // the payload frees it
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
    static const double resolution = sc_core::sc_get_time_resolution().to_seconds();  // fixed
    trace();
    unsigned delta_waits = 0;
    while (remaining > 1e-6) {
        if (m_irq.pending_vector()) {
            r.interrupted = true;
            break;
        }
        const double rate = m_core.thread_rate();
        const uint64_t rerates = m_core.rerate_count();
        const auto units = static_cast<sc_dt::uint64>(std::ceil(remaining / rate / resolution));
        if (local_time::try_advance(units, m_core, m_wake_at)) {
            // Exact: no activity is pending before the segment ends (models/local_time.h), so
            // it ends at its deadline, as the wait below would, and counts the same cycles.
            const double done =
                std::min(remaining, sc_core::sc_time::from_value(units).to_seconds() * rate);
            m_cycles[current_accounting()] += done;
            remaining -= done;
            r.done += done;
            continue;
        }
        // Only activity at the current time (delta notifications, e.g. a timer line change
        // this thread made) stopped it: let that run, then try again. Exact: the slow path
        // below would let it run too, before the deadline. Bounded, so that a process that
        // notifies itself at one instant cannot hold the thread.
        if (local_time::enabled() && !local_time::ahead() && delta_waits < 4 &&
            sc_core::sc_pending_activity_at_current_time()) {
            ++delta_waits;
            m_wake_at = local_time::kernel_now_value();  // siblings must not pass this instant
            sc_core::wait(sc_core::SC_ZERO_TIME);
            m_wake_at = ~sc_dt::uint64{0};
            continue;
        }
        // Wait for the deadline, or a re-rate or an interrupt. A run-ahead offset is folded in:
        // the segment starts at local time, and nothing can wake the thread before that.
        const sc_core::sc_time start = sc_core::sc_time::from_value(local_time::fold());
        const sc_core::sc_time deadline = start + sc_core::sc_time::from_value(units);
        m_seg_active = true, m_seg_acct = current_accounting(), m_seg_rate = rate,
        m_seg_start = start;
        m_wake.cancel();
        m_wake.notify(deadline - sc_core::sc_time_stamp());
        m_wake_at = deadline.value();
        for (;;) {
            sc_core::wait(m_wake);
            if (sc_core::sc_time_stamp() < start)
                throw std::logic_error(std::string(name()) + ": woken before its local time");
            if (sc_core::sc_time_stamp() >= deadline || m_core.rerate_count() != rerates ||
                m_irq.pending_vector())
                break;
            // Woken for nothing: the same deadline (a pending notification for it stays, one
            // replaced by the wake-up is made again).
            m_wake.notify(deadline - sc_core::sc_time_stamp());
        }
        m_wake_at = ~sc_dt::uint64{0};
        m_seg_active = false;
        const double done =
            std::min(remaining, (sc_core::sc_time_stamp() - start).to_seconds() * rate);
        m_cycles[m_seg_acct] += done;
        remaining -= done;
        r.done += done;
    }
    m_wake.cancel();
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
    trace();  // at local time, before the hand-over takes the run-ahead offset away
    m_handoff = local_time::hand_over();  // the guest goes on at this thread's local time
    m_entry_time = sc_core::sc_time::from_value(local_time::kernel_now_value() + m_handoff);
    guest.resume.notify();
    while (!m_trap_pending) sc_core::wait(m_trap_event);
    local_time::take_over(m_handoff, m_wake_at);
    m_level = context_level::l0;
    trace();
    if (m_host) m_tbr.set_offset(0);  // L0 runs on host ticks
    return m_trap;
}

void hardware_thread::guest_trap(const trap_info& t) {
    sw_context* me = m_guest;
    me->nia = t.nia;
    me->msr = t.msr;
    m_handoff = local_time::hand_over();  // the hypervisor goes on at the trap's local time
    m_trap = t;
    m_trap_pending = true;
    m_trap_time = sc_core::sc_time::from_value(local_time::kernel_now_value() + m_handoff);
    m_level = context_level::l0;
    m_trap_event.notify();
    await_entry(*me);
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
    if (hcall_socket.size() == 0) {
        frame.r[3] = static_cast<uint64_t>(-2);  // H_FUNCTION: no firmware behind the thread
        m_level = lvl;
        m_tbr.set_offset(offset);
        m_irq.set_msr(m);
        return;
    }
    // One payload per thread, reused (models/hcall_protocol.h): built per call it allocated its
    // extension array each time. Only one context runs on the thread, so calls cannot overlap.
    if (m_hcall_in_flight)
        throw std::logic_error(std::string(name()) + ": hcall issued while another is in flight");
    m_hcall_in_flight = true;
    tlm::tlm_generic_payload& gp = m_hcall_gp;
    m_hcall_ext->frame = frame;
    m_hcall_ext->thread_id = m_id;
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_address(frame.r[3]);
    gp.set_data_ptr(nullptr);
    gp.set_data_length(0);
    gp.set_streaming_width(0);
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
    frame = m_hcall_ext->frame;
    // The initiator honours the annotated delay: the thread stalls for it (run-ahead kept).
    if (delay > sc_core::SC_ZERO_TIME) stall(delay);
    if (gp.get_response_status() != tlm::TLM_OK_RESPONSE) frame.r[3] = static_cast<uint64_t>(-2);
    // Return to L1 (hrfid with HSRR1 = the caller's MSR).
    m_level = lvl;
    m_tbr.set_offset(offset);
    m_irq.set_msr(m);
}

void hardware_thread::await_entry(sw_context& guest) {
    sc_core::wait(guest.resume);
    local_time::take_over(m_handoff, m_wake_at);
}

void hardware_thread::wait_for(const sc_core::sc_time& d) {
    settle();
    local_time::sync();
    m_wake_at = (sc_core::sc_time_stamp() + d).value();
    sc_core::wait(d);
    m_wake_at = ~sc_dt::uint64{0};
}

void hardware_thread::wait_external(const sc_core::sc_event& e) {
    settle();
    local_time::sync();
    m_wake_at = 0;
    sc_core::wait(e);
    m_wake_at = ~sc_dt::uint64{0};
}

sc_dt::uint64 hardware_thread::step_time() const {
    const sc_dt::uint64 now = local_time::now_value();
    if (m_owed <= 0) return now;
    // The same rounding as compute()'s segments.
    return now + static_cast<sc_dt::uint64>(
                     std::ceil(m_owed * m_units_per_second / m_core.thread_rate()));
}

double hardware_thread::cycles(accounting a) const {
    double c = m_cycles.at(a);
    // A segment folded from run-ahead starts at the thread's local time, perhaps after now.
    if (m_seg_active && m_seg_acct == a && local_time::now() > m_seg_start)
        c += (local_time::now() - m_seg_start).to_seconds() * m_seg_rate;
    return c;
}

}  // namespace nestvp
