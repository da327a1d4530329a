#pragma once
// The lockstep implementation of timer_unit_if (docs/lockstep-checker.md): a reference unit
// (the native tlm model) and a unit under test (the RTL) see every write, LPCR change,
// acknowledge and time step (both derive time from the same time_base). Every read value and
// every pending query is compared, and so is each interrupt assert/deassert: whenever either
// unit reports a pending change, both lines are compared at that tick. The first mismatch
// throws lockstep_mismatch with the tick, the operation, both values and the last 16
// operations. Built over any two timer_unit_if, so the checker can be tested with a faulty unit.
// With a native reference and an RTL unit it also compares the predicted next edge ticks
// after every operation and edge, and then lets the reference's edges time the RTL (no
// sc_event of its own), which halves the kernel work of the pair. Between two edges neither
// unit's lines can change without an operation, so compared lines are held (and returned
// to pending queries without asking again) until the earlier predicted edge or the next
// operation.
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

#include <systemc>

#include "models/time_base.h"
#include "models/timer_unit_if.h"

namespace nestvp {

class native_timer_unit;
class rtl_timer_unit;

class lockstep_mismatch : public std::runtime_error {
public:
    lockstep_mismatch(const std::string& what, uint64_t tick, std::string op, uint64_t ref_value,
                      uint64_t dut_value)
        : std::runtime_error(what),
          m_tick(tick),
          m_op(std::move(op)),
          m_ref(ref_value),
          m_dut(dut_value) {}
    uint64_t tick() const { return m_tick; }
    const std::string& op() const { return m_op; }
    uint64_t ref_value() const { return m_ref; }
    uint64_t dut_value() const { return m_dut; }

private:
    uint64_t m_tick;
    std::string m_op;
    uint64_t m_ref, m_dut;
};

class lockstep_timer_unit : public sc_core::sc_module, public timer_unit_if {
public:
    static constexpr size_t history_size = 16;

    // Builds one side; called inside the constructor, so the units become child modules named
    // after their side ("<name>.tlm", "<name>.rtl").
    using unit_maker = std::function<std::unique_ptr<timer_unit_if>(const char* name)>;

    SC_HAS_PROCESS(lockstep_timer_unit);
    // ref_name / dut_name label the two sides in reports and child names ("tlm", "rtl").
    lockstep_timer_unit(const sc_core::sc_module_name& name, time_base& tb,
                        const unit_maker& make_ref, const unit_maker& make_dut,
                        std::string ref_name = "tlm", std::string dut_name = "rtl");
    ~lockstep_timer_unit() override;

    void write_dec(uint64_t value) override;
    uint64_t read_dec() override;
    void write_hdec(uint64_t value) override;
    uint64_t read_hdec() override;
    void set_lpcr(bool ld, bool hdice) override;
    // Inline: ~48 queries per nested exit, nearly all answered from the held lines.
    bool dec_pending() override {
        if (!lines_held()) query_lines("dec_pending", false);
        return m_held_dec;
    }
    bool hdec_pending() override {
        if (!lines_held()) query_lines("hdec_pending", true);
        return m_held_hdec;
    }
    void ack_hdec() override;
    const sc_core::sc_event& pending_changed_event() const override { return m_changed; }
    sc_dt::uint64 next_wake() const override {
        return std::min(m_ref->next_wake(), m_dut->next_wake());
    }
    void wake_slots(std::vector<const local_time::wake_slot*>& out) const override {
        m_ref->wake_slots(out);
        m_dut->wake_slots(out);
    }

    timer_unit_if& ref() { return *m_ref; }
    timer_unit_if& dut() { return *m_dut; }
    // Operations and edge checks performed (each one compared).
    uint64_t comparisons() const { return m_comparisons; }
    // A mismatch was reported (the exception may have been caught by a caller).
    bool failed() const { return m_failed; }

private:
    struct record {
        uint64_t time = 0;    // sc_time value
        const char* op = "";  // a string literal: logging allocates nothing
        uint64_t arg = 0;
        bool has_arg = false;
        uint64_t result = 0;
        bool has_result = false;
    };

    void on_change();  // SC_METHOD: either unit reported a pending change
    void check_after_op(uint64_t edge);
    bool lines_held() const {
        const sc_dt::uint64 now = local_time::now_value();
        return now >= m_held_from && now < m_held_until;
    }
    // A pending query outside the held span: both units' lines compared and held anew.
    void query_lines(const char* op, bool hdec);
    // Holds the lines just compared (native reference and RTL unit), up to `edge` at most.
    void hold(bool rd, bool rh, uint64_t edge);
    // Native reference and RTL unit: compare the predicted next DEC and HDEC edge ticks;
    // returns the earlier (0 for other pairs).
    uint64_t compare_edges(const char* after);
    void log(const char* op, uint64_t arg, bool has_arg);
    void result(uint64_t value);
    // Compares one value; throws lockstep_mismatch (with the history) when they differ.
    void compare(const char* what, uint64_t ref_value, uint64_t dut_value);
    // Compares the reference's lines (rd, rh) with the dut's, and traces the reference's.
    void compare_lines(const char* when, bool rd, bool rh);
    [[noreturn]] void fail(const std::string& what, uint64_t ref_value, uint64_t dut_value);

    time_base& m_tb;
    std::unique_ptr<timer_unit_if> m_ref;
    std::unique_ptr<timer_unit_if> m_dut;
    std::string m_ref_name, m_dut_name;
    native_timer_unit* m_native_ref = nullptr;  // set when ref is native and dut is RTL
    rtl_timer_unit* m_rtl_dut = nullptr;
    rtl_timer_unit* m_tracer = nullptr;  // the dut when it is a tracing rtl_timer_unit
    int m_trace_dec = -1, m_trace_hdec = -1;
    std::array<record, history_size> m_history{};
    size_t m_history_count = 0;  // total operations logged
    bool m_dec_line = false, m_hdec_line = false;
    uint64_t m_comparisons = 0;
    bool m_failed = false;
    // Native reference and RTL unit: the lines last compared (at a query, after an operation,
    // at a change report), held over [m_held_from, m_held_until) (sc_time values): up to the
    // earlier of the next DEC and HDEC edges both units predicted (compare_edges). The next
    // operation or change report ends the span.
    bool m_held_dec = false, m_held_hdec = false;
    sc_dt::uint64 m_held_from = 0, m_held_until = 0;
    sc_core::sc_event m_changed;
};

}  // namespace nestvp
