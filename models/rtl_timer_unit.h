#pragma once
// The rtl implementation of timer_unit_if: the Verilated rtl/decrementer_unit.v behind a
// SystemC wrapper (docs/rtl-decrementer.md). Nothing is clocked per TB tick: the wrapper keeps
// the host tick it last evaluated the RTL at, and every access (read, write, LPCR change,
// acknowledge, pending query) or its own edge event first advances the RTL by the ticks since
// then in one evaluation (the RTL's `adv` port), then performs the operation. After each
// operation it arms one sc_event at the next edge the RTL reports (`next_edge_ticks`).
//
// Only the .cpp includes Verilated headers (pimpl; toolchain.md §5, field-anchors.md §2.2).
#include <cstdint>
#include <memory>
#include <string>

#include <systemc>

#include "models/edge_scheduler.h"
#include "models/time_base.h"
#include "models/timer_unit_if.h"

namespace nestvp {

class rtl_timer_unit : public sc_core::sc_module, public timer_unit_if {
public:
    SC_HAS_PROCESS(rtl_timer_unit);
    // dec_bits: the implemented large-decrementer width, 32..64 (the RTL's `dec_bits` strap;
    // std::invalid_argument otherwise). trace_path: VCD of the unit's ports and state at
    // TB-tick resolution; empty: no trace (no cost).
    rtl_timer_unit(const sc_core::sc_module_name& name, time_base& tb, unsigned dec_bits = 56,
                   const std::string& trace_path = "");
    ~rtl_timer_unit() override;

    void write_dec(uint64_t value) override;
    uint64_t read_dec() override;
    void write_hdec(uint64_t value) override;
    uint64_t read_hdec() override;
    void set_lpcr(bool ld, bool hdice) override;
    bool dec_pending() override;
    bool hdec_pending() override;
    void ack_hdec() override;
    const sc_core::sc_event& pending_changed_event() const override { return m_changed; }
    sc_dt::uint64 next_wake() const override { return m_edges.armed_at(); }
    void wake_slots(std::vector<const local_time::wake_slot*>& out) const override {
        out.push_back(m_edges.armed_at_slot());
    }

    // Bench figures: clock cycles of the RTL model (one per evaluation) and the TB ticks they
    // jumped across through `adv`.
    uint64_t evaluations() const { return m_evaluations; }
    uint64_t ticks_skipped() const { return m_ticks_skipped; }
    // The same, summed over every rtl_timer_unit of this process (for whole-platform benches).
    static uint64_t total_evaluations() { return s_total_evaluations; }
    static uint64_t total_ticks_skipped() { return s_total_ticks_skipped; }
    // The host tick the RTL state corresponds to.
    uint64_t evaluated_tick() const { return m_last_tick; }

    // Absolute host tick of the next DEC level change / HDEC 0 -> -1 crossing (time_base::never
    // beyond 2^64), after catching up; the same quantities as decrementer::next_edge_tick() and
    // hypervisor_decrementer::next_edge_tick().
    uint64_t next_dec_edge_tick();
    uint64_t next_hdec_edge_tick();
    // The host tick before which dec_irq and hdec_irq keep the values of the last clock (the
    // design's next_edge_ticks from there; time_base::never beyond 2^64). Clocks nothing.
    uint64_t lines_hold_until_tick() const;
    // Self-timing (default on): arm an sc_event at each edge the RTL reports. The lockstep
    // checker turns it off when it compares predicted edges against a native reference and
    // evaluates the RTL at the reference's edges instead.
    void set_self_timed(bool on);

    // Extra 1-bit lines in the VCD (e.g. the native model's interrupt lines in lockstep).
    // add_trace_line returns an id (or -1 when not tracing); trace_line records its value at
    // the current TB tick. Lines must be added before the first operation.
    int add_trace_line(const std::string& scope, const std::string& name);
    void trace_line(int id, bool value);
    bool tracing() const;
    // Writes pending VCD output (also done by the destructor).
    void flush_trace();

private:
    struct impl;

    void start_of_simulation() override;
    void on_edge();  // SC_METHOD on m_edges.event()
    void sync();     // advance the RTL to the current host tick (one evaluation if needed)
    // After an operation: notify a pending change, re-arm the edge event (only if something
    // was evaluated since the last settle).
    void settle();
    void resettle();   // settle() even so: the edge event was disarmed or self-timing turned on
    void clock();      // one RTL clock cycle with the inputs as set
    void evaluate();   // the outputs after an input change, without a clock edge
    void evaluated();  // bookkeeping after either
    bool lines_hold() const;  // dec_irq and hdec_irq cannot have changed since the last clock

    time_base& m_tb;
    std::unique_ptr<impl> m_impl;
    uint64_t m_last_tick = 0;
    edge_scheduler m_edges;  // the next edge the RTL reports, one pending notification
    bool m_self_timed = true;
    bool m_settled = false;  // settle() has seen the last evaluation
    bool m_dec_irq = false;
    bool m_hdec_irq = false;
    uint64_t m_evaluations = 0;
    uint64_t m_ticks_skipped = 0;
    static uint64_t s_total_evaluations;  // SystemC runs on one OS thread
    static uint64_t s_total_ticks_skipped;
    sc_core::sc_event m_changed;
};

}  // namespace nestvp
