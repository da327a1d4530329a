#include "models/decrementer.h"

#include <stdexcept>
#include <string>

#include "models/log.h"

namespace nestvp {

decrementer::decrementer(const sc_core::sc_module_name& name, time_base& tb, unsigned dec_bits)
    : sc_core::sc_module(name), m_tb(tb), m_dec_bits(dec_bits), m_edges(tb) {
    // §2.1 / §6: ibm,dec-bits is accepted in 32..64.
    if (dec_bits < 32 || dec_bits > 64)
        throw std::invalid_argument("decrementer: dec_bits must be 32..64, got " +
                                    std::to_string(dec_bits));
    m_next = m_tb.ticks() + reset_value;
    SC_METHOD(on_edge);
    sensitive << m_edges.event();
    dont_initialize();
}

uint64_t decrementer::raw_at(uint64_t tick) const {
    return (m_next - tick) & width_mask(width());
}

void decrementer::write(uint64_t value) {
    NESTVP_LOG(
        log::module::timer, log::level::debug,
        name() << ": DEC <- 0x" << std::hex << value << std::dec << " (" << width() << " bits)");
    // §2.1: writes are truncated to the width in force; an LD=0 write loads the low 32 bits
    // zero-extended into the dec_bits-wide counter (§7.2 choice).
    const uint64_t now = m_tb.ticks();
    m_next = now + (value & width_mask(width()));
    m_level_until = 0;
    reschedule();
    notify_changed();
}

uint64_t decrementer::read() const {
    const uint64_t v = raw_at(m_tb.ticks());
    // §2.1: LD=1 sign-extends from the implemented MSB; LD=0 reads as 32-bit, upper bits 0.
    return m_ld ? sign_extend(v, m_dec_bits) : v;
}

void decrementer::set_large(bool ld) {
    if (ld == m_ld) return;
    m_ld = ld;  // vector 17: the level follows the MSB of the new width at once
    m_level_until = 0;
    reschedule();
    notify_changed();
}

bool decrementer::level_at(sc_dt::uint64 now) const {
    const uint64_t tick = m_tb.ticks();
    m_level = msb_set(raw_at(tick), width());
    // §2.2: the level is the MSB, which changes only at the next edge.
    m_level_edge = edge_after(tick);
    m_level_from = now;
    m_level_until =
        m_level_edge == time_base::never ? ~sc_dt::uint64{0} : m_tb.value_of(m_level_edge);
    return m_level;
}

uint64_t decrementer::edge_after(uint64_t tick) const {
    const unsigned w = width();
    const uint64_t u = raw_at(tick);
    // Not pending: 0 -> -1 after u+1 ticks. Pending: the value wraps from -2^(W-1) to
    // 2^(W-1)-1 after u - 2^(W-1) + 1 ticks (§2.2 "wraps to positive").
    const uint64_t delta = msb_set(u, w) ? u - (1ull << (w - 1)) + 1 : u + 1;
    if (delta == 0 || tick + delta < tick) return time_base::never;  // beyond 2^64
    return tick + delta;
}

uint64_t decrementer::next_edge_tick() const {
    pending();  // the edge after any tick before it is the same edge
    return m_level_edge;
}

void decrementer::start_of_simulation() {
    reschedule();
}

void decrementer::on_edge() {
    const bool crossing = m_edges.fired();
    if (crossing)
        NESTVP_LOG(log::module::timer, log::level::debug,
                   name() << ": DEC edge, " << (pending() ? "pending" : "not pending"));
    // An early wake-up left by a rewrite to a later edge changes nothing: no notification.
    if (crossing) notify_changed();
    reschedule();
}

void decrementer::reschedule() {
    if (systemc_elaborating()) return;
    m_edges.aim(next_edge_tick());
}

void decrementer::notify_changed() {
    if (!systemc_elaborating()) m_line.report(pending());
}

}  // namespace nestvp
