#include "models/lockstep_timer_unit.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

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
    r.tick = m_tb.ticks();
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

void lockstep_timer_unit::compare_lines(const char* when) {
    const bool rd = m_ref->dec_pending(), dd = m_dut->dec_pending();
    const bool rh = m_ref->hdec_pending(), dh = m_dut->hdec_pending();
    if (m_tracer) {
        m_tracer->trace_line(m_trace_dec, rd);
        m_tracer->trace_line(m_trace_hdec, rh);
    }
    if (rd != dd) fail(std::string("DEC interrupt line ") + when, rd, dd);
    if (rh != dh) fail(std::string("HDEC interrupt line ") + when, rh, dh);
    m_comparisons += 2;
}

void lockstep_timer_unit::fail(const std::string& what, uint64_t ref_value, uint64_t dut_value) {
    m_failed = true;
    const uint64_t tick = m_tb.ticks();
    std::string msg = std::string(name()) + ": lockstep mismatch at tick " + std::to_string(tick) +
                      " (" + sc_core::sc_time_stamp().to_string() + "): " + what + ": " +
                      m_ref_name + "=" + hex(ref_value) + " " + m_dut_name + "=" + hex(dut_value) +
                      "\n";
    const size_t n = m_history_count < history_size ? m_history_count : history_size;
    msg += "last " + std::to_string(n) + " operations (oldest first):\n";
    for (size_t i = m_history_count - n; i < m_history_count; ++i) {
        const record& r = m_history[i % history_size];
        msg += "  tick " + std::to_string(r.tick) + ": " + r.op;
        if (std::strcmp(r.op, "set_lpcr") == 0)
            msg += std::string("(LD=") + ((r.arg & 2) ? "1" : "0") +
                   ", HDICE=" + ((r.arg & 1) ? "1" : "0") + ")";
        else if (r.has_arg)
            msg += "(" + hex(r.arg) + ")";
        else
            msg += "()";
        if (r.has_result) msg += " -> " + hex(r.result);
        msg += "\n";
    }
    throw lockstep_mismatch(msg, tick, what, ref_value, dut_value);
}

void lockstep_timer_unit::on_change() {
    // One of the units reported a pending change: an assert or deassert must happen at the
    // same tick in both (both evaluate lazily at the current tick, so a mismatch here is an
    // edge at a different tick, or a missing/extra edge).
    const bool rd = m_ref->dec_pending(), rh = m_ref->hdec_pending();
    if (rd != m_dec_line) log(rd ? "dec_irq assert" : "dec_irq deassert", 0, false);
    if (rh != m_hdec_line) log(rh ? "hdec_irq assert" : "hdec_irq deassert", 0, false);
    if (rd == m_dec_line && rh == m_hdec_line) log("pending change reported", 0, false);
    m_dec_line = rd;
    m_hdec_line = rh;
    compare_lines("(assert/deassert tick)");
    m_changed.notify();
}

void lockstep_timer_unit::write_dec(uint64_t value) {
    log("write_dec", value, true);
    m_ref->write_dec(value);
    m_dut->write_dec(value);
    compare_lines("after write_dec");
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
    compare_lines("after write_hdec");
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
    compare_lines("after set_lpcr");
}

bool lockstep_timer_unit::dec_pending() {
    log("dec_pending", 0, false);
    const bool a = m_ref->dec_pending(), b = m_dut->dec_pending();
    result(a);
    compare("dec_pending", a, b);
    return a;
}

bool lockstep_timer_unit::hdec_pending() {
    log("hdec_pending", 0, false);
    const bool a = m_ref->hdec_pending(), b = m_dut->hdec_pending();
    result(a);
    compare("hdec_pending", a, b);
    return a;
}

void lockstep_timer_unit::ack_hdec() {
    log("ack_hdec", 0, false);
    m_ref->ack_hdec();
    m_dut->ack_hdec();
    compare_lines("after ack_hdec");
}

}  // namespace nestvp
