#include "models/lockstep_timer_unit.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "models/local_time.h"
#include "models/native_timer_unit.h"
#include "models/rtl_timer_unit.h"

namespace nestvp {

namespace {
std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%016" PRIx64, v);
    return buf;
}
}  // namespace

lockstep_timer_unit::lockstep_timer_unit(const sc_core::sc_module_name& name, time_base& tb,
                                         const unit_maker& make_ref, const unit_maker& make_dut,
                                         std::string ref_name, std::string dut_name)
    : sc_core::sc_module(name),
      m_tb(tb),
      m_ref_name(std::move(ref_name)),
      m_dut_name(std::move(dut_name)) {
    m_ref = make_ref(m_ref_name.c_str());
    m_dut = make_dut(m_dut_name.c_str());
    if (!m_ref || !m_dut)
        throw std::invalid_argument(std::string(this->name()) + ": a unit maker returned null");
    m_native_ref = dynamic_cast<native_timer_unit*>(m_ref.get());
    m_rtl_dut = dynamic_cast<rtl_timer_unit*>(m_dut.get());
    if (m_native_ref && m_rtl_dut) {
        m_rtl_dut->set_self_timed(false);  // compare_edges() checks its edges instead
    } else {
        m_native_ref = nullptr;
        m_rtl_dut = nullptr;
    }
    // Waveforms: the reference's interrupt lines go into the RTL unit's VCD.
    m_tracer = dynamic_cast<rtl_timer_unit*>(m_dut.get());
    if (m_tracer && m_tracer->tracing()) {
        m_trace_dec = m_tracer->add_trace_line(m_ref_name, "dec_irq");
        m_trace_hdec = m_tracer->add_trace_line(m_ref_name, "hdec_irq");
    } else {
        m_tracer = nullptr;
    }
    SC_METHOD(on_change);
    sensitive << m_ref->pending_changed_event() << m_dut->pending_changed_event();
    dont_initialize();
}

lockstep_timer_unit::~lockstep_timer_unit() = default;

void lockstep_timer_unit::log(const char* op, uint64_t arg, bool has_arg) {
    record& r = m_history[m_history_count % history_size];
    r.time = local_time::now_value();  // converted to ticks only in a report
    r.op = op;
    r.arg = arg;
    r.has_arg = has_arg;
    r.has_result = false;
    ++m_history_count;
}

void lockstep_timer_unit::result(uint64_t value) {
    record& r = m_history[(m_history_count - 1) % history_size];
    r.result = value;
    r.has_result = true;
}

void lockstep_timer_unit::compare(const char* what, uint64_t ref_value, uint64_t dut_value) {
    ++m_comparisons;
    if (ref_value != dut_value) fail(what, ref_value, dut_value);
}

void lockstep_timer_unit::compare_lines(const char* when, bool rd, bool rh) {
    const bool dd = m_dut->dec_pending(), dh = m_dut->hdec_pending();
    if (m_tracer) {
        m_tracer->trace_line(m_trace_dec, rd);
        m_tracer->trace_line(m_trace_hdec, rh);
    }
    m_comparisons += 2;
    if (rd != dd) fail(std::string("DEC interrupt line ") + when, rd, dd);
    if (rh != dh) fail(std::string("HDEC interrupt line ") + when, rh, dh);
}

void lockstep_timer_unit::fail(const std::string& what, uint64_t ref_value, uint64_t dut_value) {
    m_failed = true;
    const uint64_t tick = m_tb.ticks();
    std::string msg = std::string(name()) + ": lockstep mismatch at tick " + std::to_string(tick) +
                      " (" + local_time::now().to_string() + "): " + what + ": " + m_ref_name +
                      "=" + hex(ref_value) + " " + m_dut_name + "=" + hex(dut_value) + "\n";
    const size_t n = m_history_count < history_size ? m_history_count : history_size;
    msg += "last " + std::to_string(n) + " operations (oldest first):\n";
    for (size_t i = m_history_count - n; i < m_history_count; ++i) {
        const record& r = m_history[i % history_size];
        msg += "  tick " + std::to_string(m_tb.ticks_at(sc_core::sc_time::from_value(r.time))) +
               ": " + r.op;
        if (std::strcmp(r.op, "set_lpcr") == 0)
            msg += std::string("(LD=") + ((r.arg & 2) ? "1" : "0") +
                   ", HDICE=" + ((r.arg & 1) ? "1" : "0") + ")";
        else if (r.has_arg)
            msg += "(" + hex(r.arg) + ")";
        else if (std::strstr(r.op, "_irq ") == nullptr)  // line changes are events, not calls
            msg += "()";
        if (r.has_result) msg += " -> " + hex(r.result);
        msg += "\n";
    }
    throw lockstep_mismatch(msg, tick, what, ref_value, dut_value);
}

uint64_t lockstep_timer_unit::compare_edges(const char* after) {
    if (!m_rtl_dut) return 0;
    m_comparisons += 2;
    const uint64_t rd = m_native_ref->dec().next_edge_tick(), dd = m_rtl_dut->next_dec_edge_tick();
    if (rd != dd) fail(std::string("next DEC edge tick after ") + after, rd, dd);
    const uint64_t rh = m_native_ref->hdec().next_edge_tick(),
                   dh = m_rtl_dut->next_hdec_edge_tick();
    if (rh != dh) fail(std::string("next HDEC edge tick after ") + after, rh, dh);
    return std::min(rd, rh);
}

// Native reference and RTL unit: a line changes only at an operation (which ends the span) or
// at an edge (timer-facilities.md §2.2, §3), and both units predicted the same next edges
// (compare_edges, after every operation and line change). So lines just compared hold until the
// earlier of `edge` (the reference's next DEC or HDEC edge) and the tick up to which the RTL's
// last clock says its lines hold (rtl_timer_unit::lines_hold_until_tick): a comparison before
// then would compare the same values. Other pairs compare at every query; a traced RTL unit is
// asked at every query, so that its waveform shows each one.
void lockstep_timer_unit::hold(bool rd, bool rh, uint64_t edge) {
    m_held_dec = rd;
    m_held_hdec = rh;
    if (!m_rtl_dut || m_tracer) return;
    m_held_from = local_time::now_value();
    m_held_until = m_tb.value_of(std::min(edge, m_rtl_dut->lines_hold_until_tick()));
}

// After a state-changing operation: both units evaluate lazily at the current tick, so their
// lines now are what the next delta cycle would see; they are compared at once, at the caller's
// (local) time, and held. A change the operation made also reaches on_change() through the
// units' own reports, which tells the consumers.
void lockstep_timer_unit::check_after_op(uint64_t edge) {
    m_held_until = 0;
    const auto s = sc_core::sc_get_status();
    if (s != sc_core::SC_RUNNING && s != sc_core::SC_PAUSED) return;
    const bool rd = m_ref->dec_pending(), rh = m_ref->hdec_pending();
    compare_lines("(assert/deassert tick)", rd, rh);
    hold(rd, rh, edge);
}

void lockstep_timer_unit::query_lines(const char* op, bool hdec) {
    log(op, 0, false);
    const bool rd = m_ref->dec_pending(), dd = m_dut->dec_pending();
    const bool rh = m_ref->hdec_pending(), dh = m_dut->hdec_pending();
    result(hdec ? rh : rd);
    compare("dec_pending", rd, dd);
    compare("hdec_pending", rh, dh);
    hold(rd, rh,
         m_rtl_dut
             ? std::min(m_native_ref->dec().next_edge_tick(), m_native_ref->hdec().next_edge_tick())
             : 0);
}

void lockstep_timer_unit::on_change() {
    // A unit reported a pending change: an assert or deassert must happen at the same tick in
    // both (both evaluate lazily at the current tick, so a mismatch here is an edge at a
    // different tick, or a missing or extra edge).
    m_held_until = 0;
    const bool rd = m_ref->dec_pending(), rh = m_ref->hdec_pending();
    const bool changed = rd != m_dec_line || rh != m_hdec_line;
    if (rd != m_dec_line) log(rd ? "dec_irq assert" : "dec_irq deassert", 0, false);
    if (rh != m_hdec_line) log(rh ? "hdec_irq assert" : "hdec_irq deassert", 0, false);
    m_dec_line = rd;
    m_hdec_line = rh;
    compare_lines("(assert/deassert tick)", rd, rh);
    hold(rd, rh, compare_edges("an edge"));
    // Consumers see the reference's lines: tell them only when those changed.
    if (changed) m_changed.notify();
}

// State-changing operations compare the lines at once (check_after_op); reads are compared at
// once; pending queries compare, or return the lines held since the last comparison.
void lockstep_timer_unit::write_dec(uint64_t value) {
    log("write_dec", value, true);
    m_ref->write_dec(value);
    m_dut->write_dec(value);
    check_after_op(compare_edges("write_dec"));
}

uint64_t lockstep_timer_unit::read_dec() {
    log("read_dec", 0, false);
    const uint64_t a = m_ref->read_dec(), b = m_dut->read_dec();
    result(a);
    compare("read_dec", a, b);
    return a;
}

void lockstep_timer_unit::write_hdec(uint64_t value) {
    log("write_hdec", value, true);
    m_ref->write_hdec(value);
    m_dut->write_hdec(value);
    check_after_op(compare_edges("write_hdec"));
}

uint64_t lockstep_timer_unit::read_hdec() {
    log("read_hdec", 0, false);
    const uint64_t a = m_ref->read_hdec(), b = m_dut->read_hdec();
    result(a);
    compare("read_hdec", a, b);
    return a;
}

void lockstep_timer_unit::set_lpcr(bool ld, bool hdice) {
    log("set_lpcr", (ld ? 2u : 0u) | (hdice ? 1u : 0u), true);
    m_ref->set_lpcr(ld, hdice);
    m_dut->set_lpcr(ld, hdice);
    check_after_op(compare_edges("set_lpcr"));
}

void lockstep_timer_unit::ack_hdec() {
    log("ack_hdec", 0, false);
    m_ref->ack_hdec();
    m_dut->ack_hdec();
    check_after_op(compare_edges("ack_hdec"));
}

}  // namespace nestvp
