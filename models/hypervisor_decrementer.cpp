#include "models/hypervisor_decrementer.h"

#include <stdexcept>
#include <string>

#include "models/log.h"

namespace nestvp {

hypervisor_decrementer::hypervisor_decrementer(const sc_core::sc_module_name& name, time_base& tb,
                                               unsigned dec_bits)
    : sc_core::sc_module(name), m_tb(tb), m_bits(dec_bits), m_edges(tb) {
    if (dec_bits < 32 || dec_bits > 64)
        throw std::invalid_argument("hypervisor_decrementer: dec_bits must be 32..64, got " +
                                    std::to_string(dec_bits));
    m_synced = m_tb.ticks();
    m_next = m_synced + (width_mask(m_bits) >> 1);  // reset: max positive, 2^(W-1)-1
    SC_METHOD(on_edge);
    sensitive << m_edges.event();
    dont_initialize();
}

void hypervisor_decrementer::sync() {
    // Most queries come before the next crossing, with nothing to latch. Leaving m_synced
    // behind then is exact: the first crossing after it stays the same tick until it is reached.
    if (local_time::now_value() < m_quiet_until) return;
    sync_slow();
}

void hypervisor_decrementer::sync_slow() {
    const uint64_t now = m_tb.ticks();
    if (now <= m_synced) return;
    // The first 0 -> -1 crossing after m_synced is u+1 ticks later, u = unsigned value then.
    const uint64_t u = raw_at(m_synced);
    const uint64_t crossing = m_synced + u + 1;
    const bool in_range = u != ~0ull && crossing > m_synced && crossing <= now;
    m_synced = now;
    // §3 edge by decrement; dropped while HDICE=0 (vector 23, POWER9).
    if (in_range && m_hdice && !m_pending) {
        m_pending = true;
        notify_changed();
    }
}

void hypervisor_decrementer::write(uint64_t value) {
    NESTVP_LOG(log::module::timer, log::level::debug,
               name() << ": HDEC <- 0x" << std::hex << value << std::dec);
    sync_slow();  // m_synced up to now: the crossings after it follow the new m_next
    const uint64_t now = m_tb.ticks();
    const bool was_negative = msb_set(raw_at(now), m_bits);
    const uint64_t v = value & width_mask(m_bits);
    m_next = now + v;
    // §3: a write that takes a non-negative HDEC negative is an edge; negative -> negative is
    // not (vector 20); a positive write never clears the latch (vector 18).
    if (!was_negative && msb_set(v, m_bits) && m_hdice) m_pending = true;
    reschedule();
    notify_changed();
}

uint64_t hypervisor_decrementer::read() {
    sync();
    return sign_extend(raw_at(m_tb.ticks()), m_bits);
}

void hypervisor_decrementer::set_hdice(bool hdice) {
    sync();  // crossings before the change see the old HDICE
    if (hdice == m_hdice) return;
    m_hdice = hdice;
    notify_changed();
}

bool hypervisor_decrementer::pending() {
    sync();
    return m_pending;
}

void hypervisor_decrementer::ack() {
    sync();
    if (!m_pending) return;
    m_pending = false;
    notify_changed();
}

uint64_t hypervisor_decrementer::next_edge_tick() const {
    const uint64_t now = m_tb.ticks();
    const uint64_t u = raw_at(now);
    if (u == ~0ull || now + u + 1 <= now) return time_base::never;
    return now + u + 1;
}

void hypervisor_decrementer::start_of_simulation() {
    reschedule();
}

void hypervisor_decrementer::on_edge() {
    const bool crossing = m_edges.fired();
    if (crossing) NESTVP_LOG(log::module::timer, log::level::debug, name() << ": HDEC edge");
    sync();
    // An early wake-up left by a rewrite to a later value changes nothing: no notification.
    if (crossing) notify_changed();
    reschedule();
}

void hypervisor_decrementer::reschedule() {
    if (systemc_elaborating()) return;
    // Every caller has latched the crossings up to now (write and on_edge sync first; at the
    // start of simulation none has passed), so none is due before the next one: sync() has
    // nothing to do until its time.
    const uint64_t next = next_edge_tick();
    m_quiet_until = next == time_base::never ? ~sc_dt::uint64{0} : m_tb.value_of(next);
    m_edges.aim(next);
}

void hypervisor_decrementer::notify_changed() {
    if (!systemc_elaborating()) m_line.report(m_pending);
}

}  // namespace nestvp
