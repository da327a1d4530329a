#pragma once
// A timer unit with a known fault, to test the lockstep checker: it wraps a native unit and
// injects one fault. The faults are realistic ones (timer-facilities.md §2.3 lists the QEMU
// deviations they imitate).
#include <cstdint>

#include <systemc>

#include "models/native_timer_unit.h"
#include "models/time_base.h"
#include "models/timer_unit_if.h"

namespace nestvp::test {

enum class fault {
    corrupt_read,  // the n-th read_dec returns the value with bit 0 flipped
    sticky_level,  // the DEC level is not lowered when the counter wraps to positive (QEMU)
    early_edge,    // the DEC asserts one tick early, when the value reaches 0 (QEMU)
};

class faulty_timer_unit : public sc_core::sc_module, public timer_unit_if {
public:
    SC_HAS_PROCESS(faulty_timer_unit);
    faulty_timer_unit(const sc_core::sc_module_name& name, time_base& tb, fault f,
                      unsigned corrupt_nth = 1)
        : sc_core::sc_module(name),
          m_tb(tb),
          m_inner("inner", tb),
          m_fault(f),
          m_corrupt_nth(corrupt_nth) {
        SC_METHOD(forward);
        sensitive << m_inner.pending_changed_event() << m_early_ev;
        dont_initialize();
    }

    void write_dec(uint64_t v) override {
        m_inner.write_dec(v);
        m_sticky = false;
        arm_early();
    }
    uint64_t read_dec() override {
        const uint64_t v = m_inner.read_dec();
        if (m_fault == fault::corrupt_read && ++m_reads == m_corrupt_nth) return v ^ 1;
        return v;
    }
    void write_hdec(uint64_t v) override { m_inner.write_hdec(v); }
    uint64_t read_hdec() override { return m_inner.read_hdec(); }
    void set_lpcr(bool ld, bool hdice) override {
        m_inner.set_lpcr(ld, hdice);
        arm_early();
    }
    bool dec_pending() override {
        const bool p = m_inner.dec_pending();
        if (m_fault == fault::sticky_level) {
            if (p) m_sticky = true;
            return p || m_sticky;
        }
        if (m_fault == fault::early_edge) return p || m_inner.dec().read() == 0;
        return p;
    }
    bool hdec_pending() override { return m_inner.hdec_pending(); }
    void ack_hdec() override { m_inner.ack_hdec(); }
    const sc_core::sc_event& pending_changed_event() const override { return m_changed; }

private:
    void forward() {
        arm_early();
        m_changed.notify();
    }
    // early_edge: like QEMU's timer, fire when the value reaches 0.
    void arm_early() {
        if (m_fault != fault::early_edge) return;
        const auto s = sc_core::sc_get_status();
        if (s != sc_core::SC_RUNNING && s != sc_core::SC_PAUSED) return;
        m_early_ev.cancel();
        const uint64_t edge = m_inner.dec().next_edge_tick();
        if (edge == time_base::never || m_inner.dec().pending() || edge - 1 <= m_tb.ticks()) return;
        m_early_ev.notify(m_tb.delay_until(edge - 1));
    }

    time_base& m_tb;
    native_timer_unit m_inner;
    fault m_fault;
    unsigned m_corrupt_nth;
    unsigned m_reads = 0;
    bool m_sticky = false;
    sc_core::sc_event m_early_ev;
    sc_core::sc_event m_changed;
};

}  // namespace nestvp::test
