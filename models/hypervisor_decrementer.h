#pragma once
// Hypervisor decrementer (HDEC, SPR 310) of one hardware thread — timer-facilities.md §3, §7.1.
//
// Always dec_bits wide (56 on POWER9/10) with sign-extended reads. The exception is an *edge*
// on the MSB 0 -> 1 (a decrement from 0 to -1, or a write that takes a non-negative HDEC
// negative), latched until acknowledged (delivery or power-saving entry), not cancelled by a
// later positive write, and no new edge while already negative (§3, §8 vectors 18-21).
// LPCR[HDICE]=0 drops an edge instead of latching it (POWER9 behaviour, vector 23); a latch
// that is already set stays set when HDICE is cleared (delivery is gated by HDICE, §4.1).
//
// Like the DEC, the value is (m_next - host tick) truncated to the width. Edges caused by the
// passage of time are found lazily by sync(), which every access and the edge event call first:
// a 0 -> -1 crossing falls on host ticks T = m_next + 1 (mod 2^W). Reset value: the maximum
// positive value 2^(W-1)-1, no edge latched.
#include <cstdint>

#include <systemc>

#include "models/decrementer.h"  // width_mask, sign_extend, msb_set
#include "models/edge_scheduler.h"
#include "models/time_base.h"

namespace nestvp {

class hypervisor_decrementer : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(hypervisor_decrementer);
    hypervisor_decrementer(const sc_core::sc_module_name& name, time_base& tb,
                           unsigned dec_bits = 56);

    // mtHDEC: truncated to dec_bits; raises the edge when the old value was non-negative and
    // the new one is negative (and HDICE=1).
    void write(uint64_t value);
    // mfHDEC: sign-extended from dec_bits.
    uint64_t read();
    // LPCR[HDICE]: while 0, edges are dropped (vector 23).
    void set_hdice(bool hdice);
    bool hdice() const { return m_hdice; }
    unsigned width() const { return m_bits; }

    // Time (sc_time value) of the pending edge notification, ~0 if none.
    sc_dt::uint64 armed_at() const { return m_edges.armed_at(); }
    const local_time::wake_slot* armed_at_slot() const { return m_edges.armed_at_slot(); }

    // The latched edge.
    bool pending();
    // The interrupt was taken (or the thread entered a power-saving state): clear the latch.
    void ack();
    // Host tick of the next 0 -> -1 crossing, or time_base::never.
    uint64_t next_edge_tick() const;
    const sc_core::sc_event& changed_event() const { return m_line.changed_event(); }

private:
    void start_of_simulation() override;
    void on_edge();
    void sync();  // latch any 0 -> -1 crossing in (m_synced, now]
    void sync_slow();
    void reschedule();
    void notify_changed();
    uint64_t raw_at(uint64_t tick) const { return (m_next - tick) & width_mask(m_bits); }

    time_base& m_tb;
    unsigned m_bits;
    bool m_hdice = false;
    bool m_pending = false;
    uint64_t m_next;    // host tick at which the value is 0 (mod 2^W)
    uint64_t m_synced;  // host tick up to which crossings have been accounted for
    // Before this time (sc_time value) no crossing after m_synced is reached, so sync() has
    // nothing to do: the next crossing's time, set with its notification (reschedule()).
    sc_dt::uint64 m_quiet_until = 0;
    edge_scheduler m_edges;  // the next level change, one pending notification at most
    line_reporter m_line;    // the level, reported on change
};

}  // namespace nestvp
