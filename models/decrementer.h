#pragma once
// Decrementer (DEC, SPR 22) of one hardware thread — timer-facilities.md §2, §7.1.
//
// State is an absolute expiry in *host* TB ticks (m_next), like QEMU's decr_next: the value at
// host tick T is (m_next - T) truncated to the width in force, so it is independent of any
// partition TB offset (§1 "Changing the TB does not change DEC"). Nothing ticks: the exception
// level is a pure function of simulated time and one sc_event is scheduled for the next tick at
// which the level changes (0 -> -1 assert, or the wrap from -2^(W-1) to 2^(W-1)-1 deassert).
//
// Width: 32 bits when LPCR[LD]=0, dec_bits (56 on POWER9/10) when LD=1 (§2.1). The counter
// itself is dec_bits wide; an LD=0 write loads the zero-extended low 32 bits (§7.2 choice).
// Reset value: the maximum positive 32-bit value 0x7FFF_FFFF, no exception pending.
// LD toggle (vector 17, [ISA-unverified]): the level is re-evaluated at once on the MSB of the
// new width (Microwatt `dec_sign`), see docs/decrementer.md.
#include <cstdint>

#include <systemc>

#include "models/edge_scheduler.h"
#include "models/time_base.h"

namespace nestvp {

class decrementer : public sc_core::sc_module {
public:
    static constexpr uint64_t reset_value = 0x7FFFFFFFull;

    SC_HAS_PROCESS(decrementer);
    decrementer(const sc_core::sc_module_name& name, time_base& tb, unsigned dec_bits = 56);

    // mtDEC: truncated to the width in force (§2.1).
    void write(uint64_t value);
    // mfDEC: sign-extended from dec_bits when LD=1, low 32 bits zero-extended when LD=0 (§2.1).
    uint64_t read() const;
    // LPCR[LD]; re-evaluates the level immediately (vector 17 choice).
    void set_large(bool ld);
    bool large() const { return m_ld; }
    unsigned width() const { return m_ld ? m_dec_bits : 32u; }
    unsigned dec_bits() const { return m_dec_bits; }

    // The exception exists while the MSB of the active width is 1 (§2.2); delivery does not
    // clear it.
    bool pending() const {
        const sc_dt::uint64 now = local_time::now_value();
        if (now >= m_level_from && now < m_level_until) return m_level;
        return level_at(now);
    }
    // Host tick of the next level change, or time_base::never.
    uint64_t next_edge_tick() const;
    // Notified (delta) when the level changes (by a write, an LD change or an edge).
    const sc_core::sc_event& changed_event() const { return m_line.changed_event(); }
    // Time (sc_time value) of the pending edge notification, ~0 if none.
    sc_dt::uint64 armed_at() const { return m_edges.armed_at(); }
    const local_time::wake_slot* armed_at_slot() const { return m_edges.armed_at_slot(); }

private:
    void start_of_simulation() override;
    void on_edge();     // SC_METHOD on m_edges.event()
    void reschedule();  // m_edges aims at next_edge_tick()
    void notify_changed();
    uint64_t raw_at(uint64_t tick) const;      // (m_next - tick) truncated to the active width
    uint64_t edge_after(uint64_t tick) const;  // the next level change after `tick`
    bool level_at(sc_dt::uint64 now) const;    // the level and its edge, kept until the edge

    time_base& m_tb;
    unsigned m_dec_bits;
    bool m_ld = false;
    uint64_t m_next;         // host tick at which the value is 0 (mod 2^width)
    edge_scheduler m_edges;  // the next level change, one pending notification at most
    line_reporter m_line;    // the level, reported on change
    // pending() holds m_level over [m_level_from, m_level_until) (sc_time values), up to the
    // host tick m_level_edge: the level changes only at an edge, so it and the edge are computed
    // once per edge (pending(), next_edge_tick()). Emptied by a write or LD change.
    mutable bool m_level = false;
    mutable sc_dt::uint64 m_level_from = 0, m_level_until = 0;
    mutable uint64_t m_level_edge = time_base::never;
};

// Width helpers shared by DEC and HDEC.
inline uint64_t width_mask(unsigned w) {
    return w >= 64 ? ~0ull : ((1ull << w) - 1);
}
inline uint64_t sign_extend(uint64_t v, unsigned w) {
    if (w >= 64) return v;
    v &= width_mask(w);
    return (v >> (w - 1)) & 1 ? (v | ~width_mask(w)) : v;
}
inline bool msb_set(uint64_t v, unsigned w) {
    return (v >> (w - 1)) & 1;
}

}  // namespace nestvp
