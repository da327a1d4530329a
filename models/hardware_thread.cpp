// hardware_thread: construction, per-level handlers, cycle accounting and the running NIA.
// Its other jobs have a file each: _work (retiring cycles, run-ahead), _guest (entry and trap),
// _hcall (the hcall initiator), _interrupts (dispatch), _waits (timed and external waits).
#include "models/hardware_thread.h"

#include <stdexcept>
#include <string>

#include "models/local_time.h"

namespace nestvp {

hardware_thread::hardware_thread(const sc_core::sc_module_name& name, core& owner, unsigned index,
                                 const timer_unit_options& timer_opts)
    : sc_core::sc_module(name),
      hcall_socket("hcall_socket"),
      m_core(owner),
      m_index(index),
      m_timers(make_timer_unit("timers", owner.tb(), timer_opts)),
      m_irq("irq"),
      m_tbr(owner.tb()),
      m_wake("wake"),
      m_horizon("horizon"),
      m_horizon_units(sc_core::sc_time(horizon_seconds, sc_core::SC_SEC).value()),
      m_resolution_s(sc_core::sc_get_time_resolution().to_seconds()),
      m_units_per_second(1.0 / m_resolution_s),
      m_resolution_fs(local_time::resolution_fs()) {
    set_thread_id(index);  // until the platform numbers it (set_id)
    // The core's SMT table has one entry per thread it can run (core.h).
    if (index >= owner.max_threads())
        throw std::invalid_argument(std::string(this->name()) + ": thread " +
                                    std::to_string(index) + " of a core with " +
                                    std::to_string(owner.max_threads()) + " thread(s)");
    m_irq.timer_lines.bind(
        *m_timers);  // the thread is the platform of its unit and exception logic
    m_irq.set_waker(m_wake);
    m_wake_or_horizon |= m_wake;
    m_wake_or_horizon |= m_horizon;
    m_core.attach(*this, *this);
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

uint64_t hardware_thread::current_nia() const {
    const sw_context* c = m_level == context_level::l2 ? m_guest : m_host;
    return c ? c->nia : 0;
}

void hardware_thread::set_nia(uint64_t nia) {
    sw_context* c = m_level == context_level::l2 ? m_guest : m_host;
    if (c) c->nia = nia;
}

double hardware_thread::cycles(accounting a) const {
    double c = m_cycles.at(a);
    // A segment folded from run-ahead starts at the thread's local time, perhaps after now.
    const sc_dt::uint64 now = local_time::now_value();
    if (m_seg.active && !m_seg.ended && m_seg.acct == a && now > m_seg.start)
        c += seconds_of(now - m_seg.start) * m_seg.rate;
    return c;
}

}  // namespace nestvp
