#pragma once
// The SystemC (tlm) implementation of timer_unit_if: one decrementer + one
// hypervisor_decrementer (timer-facilities.md §2, §3). pending_changed_event() is notified when
// the DEC or HDEC line changes (level change, LD change, HDEC latch/ack), as the RTL unit does;
// a write that leaves both lines as they were notifies nothing.
#include <algorithm>
#include <memory>

#include <systemc>

#include "models/decrementer.h"
#include "models/hypervisor_decrementer.h"
#include "models/time_base.h"
#include "models/timer_unit_if.h"

namespace nestvp {

class native_timer_unit : public sc_core::sc_module, public timer_unit_if {
public:
    SC_HAS_PROCESS(native_timer_unit);
    native_timer_unit(const sc_core::sc_module_name& name, time_base& tb, unsigned dec_bits = 56);

    void write_dec(uint64_t value) override { m_dec.write(value); }
    uint64_t read_dec() override { return m_dec.read(); }
    void write_hdec(uint64_t value) override { m_hdec.write(value); }
    uint64_t read_hdec() override { return m_hdec.read(); }
    void set_lpcr(bool ld, bool hdice) override;

    bool dec_pending() override { return m_dec.pending(); }
    bool hdec_pending() override { return m_hdec.pending(); }
    void ack_hdec() override { m_hdec.ack(); }

    const sc_core::sc_event& pending_changed_event() const override { return m_changed; }
    sc_dt::uint64 next_wake() const override {
        return std::min(m_dec.armed_at(), m_hdec.armed_at());
    }
    void wake_slots(std::vector<const local_time::wake_slot*>& out) const override {
        out.push_back(m_dec.armed_at_slot());
        out.push_back(m_hdec.armed_at_slot());
    }

    decrementer& dec() { return m_dec; }
    hypervisor_decrementer& hdec() { return m_hdec; }

private:
    void forward();  // SC_METHOD: either model's line changed -> m_changed

    decrementer m_dec;
    hypervisor_decrementer m_hdec;
    sc_core::sc_event m_changed;
};

}  // namespace nestvp
