// Verilated headers first: with SYSTEMC_VERSION defined they would call an unqualified
// sc_time_stamp() (toolchain.md §5).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"  // verilated_types.h under -Wextra
#include "Vdecrementer_unit.h"
#include "verilated.h"
#if VM_COVERAGE
#include "verilated_cov.h"
#endif
#pragma GCC diagnostic pop

#include "models/rtl_timer_unit.h"

#include <stdexcept>
#include <string>
#if VM_COVERAGE
#include <unistd.h>

#include <cstdlib>
#endif

#include "models/local_time.h"
#include "models/rtl_port_trace.h"

namespace nestvp {

namespace {

// now + delta, or time_base::never when that lies beyond 2^64.
uint64_t absolute(uint64_t now, uint64_t delta) {
    return now + delta < now ? time_base::never : now + delta;
}

// The wrapper advances at most 2^56 ticks per clock (the RTL accepts any 64-bit adv).
constexpr uint64_t max_advance = 1ull << 56;

#if VM_COVERAGE
// Coverage builds only (make coverage): a unit's counts live in its own VerilatedContext and
// point into the model, so they are written before the model goes, one file per unit in
// $NESTVP_RTL_COVERAGE_DIR (pid and sequence number keep the names apart), for
// verilator_coverage to merge.
void write_coverage(VerilatedContext& ctx) {
    const char* dir = std::getenv("NESTVP_RTL_COVERAGE_DIR");
    if (!dir || !*dir) return;
    static unsigned seq = 0;  // SystemC runs on one OS thread
    const std::string path =
        std::string(dir) + "/" + std::to_string(::getpid()) + "-" + std::to_string(seq++) + ".dat";
    ctx.coveragep()->write(path.c_str());
}
#endif

}  // namespace

uint64_t rtl_timer_unit::s_total_evaluations = 0;
uint64_t rtl_timer_unit::s_total_ticks_skipped = 0;

struct rtl_timer_unit::impl {
    VerilatedContext ctx;
    Vdecrementer_unit top;
    std::unique_ptr<rtl_port_trace> trace;  // the unit's VCD, when asked for

    explicit impl(const char* name) : top(&ctx, name) {}
#if VM_COVERAGE
    ~impl() {
        write_coverage(ctx);
    }
#endif
};

rtl_timer_unit::rtl_timer_unit(const sc_core::sc_module_name& name, time_base& tb,
                               unsigned dec_bits, const std::string& trace_path)
    : sc_core::sc_module(name), m_tb(tb), m_edges(tb) {
    // §2.1 / models/decrementer.cpp: ibm,dec-bits is accepted in 32..64.
    if (dec_bits < 32 || dec_bits > 64)
        throw std::invalid_argument(std::string(this->name()) + ": dec_bits must be 32..64, got " +
                                    std::to_string(dec_bits));
    m_impl = std::make_unique<impl>(this->name());
    if (!trace_path.empty())
        m_impl->trace =
            std::make_unique<rtl_port_trace>(trace_path, basename(), tb.freq_hz(), dec_bits);

    // Width strap, then a synchronous reset to the defined values (DEC 0x7FFF_FFFF, HDEC max
    // positive, LD=0, HDICE=0), as the native models start.
    auto& t = m_impl->top;
    t.clk = 0;
    t.dec_bits = static_cast<uint8_t>(dec_bits);
    t.rst = 1;
    t.lpcr_ld = 0;
    t.lpcr_hdice = 0;
    clock();
    m_last_tick = m_tb.ticks();

    SC_METHOD(on_edge);
    sensitive << m_edges.event();
    dont_initialize();
}

rtl_timer_unit::~rtl_timer_unit() {
    m_impl->top.final();
    flush_trace();
}

void rtl_timer_unit::clock() {
    auto& t = m_impl->top;
    t.clk = 0;
    t.eval();
    t.clk = 1;
    t.eval();
    ++m_evaluations;
    ++s_total_evaluations;
    m_ticks_skipped += t.adv;
    s_total_ticks_skipped += t.adv;
    evaluated();
    t.rst = 0;
    t.adv = 0;
    t.wr_dec = 0;
    t.wr_hdec = 0;
    t.hdec_ack = 0;
    t.pm_enter = 0;
}

void rtl_timer_unit::evaluate() {
    m_impl->top.eval();  // clk stays high: no edge, the combinational logic only
    evaluated();
}

// After any evaluation: the next settle() has work, and a waveform samples the ports.
void rtl_timer_unit::evaluated() {
    m_settled = false;
    if (m_impl->trace && m_impl->trace->started()) m_impl->trace->sample(m_impl->top, m_tb.ticks());
}

void rtl_timer_unit::sync() {
    const uint64_t now = m_tb.ticks();
    if (now <= m_last_tick) return;
    uint64_t n = now - m_last_tick;
    while (n) {
        const uint64_t step = n < max_advance ? n : max_advance;
        m_impl->top.adv = step;
        clock();
        n -= step;
    }
    m_last_tick = now;
}

void rtl_timer_unit::settle() {
    // Nothing was evaluated since the last settle: the lines and the next edge are what it left
    // (the lockstep checker asks for the edges after each operation).
    if (m_settled) return;
    m_settled = !systemc_elaborating();  // start_of_simulation() settles again
    auto& t = m_impl->top;
    const bool d = t.dec_irq, h = t.hdec_irq;
    if (d != m_dec_irq || h != m_hdec_irq) {
        m_dec_irq = d;
        m_hdec_irq = h;
        if (!systemc_elaborating()) {
            local_time::sync();  // consumers see the change at the accessing thread's time
            m_changed.notify(sc_core::SC_ZERO_TIME);
        }
    }
    if (!m_self_timed || systemc_elaborating())
        return;  // start_of_simulation() arms the first edge
    // One pending notification at most, re-armed only when the edge moves earlier (the
    // edge_scheduler the native models use); on_edge() re-aims after an early wake-up.
    m_edges.aim(absolute(m_last_tick, t.next_edge_ticks));
}

void rtl_timer_unit::resettle() {
    m_settled = false;
    settle();
}

void rtl_timer_unit::start_of_simulation() {
    if (m_impl->trace) m_impl->trace->start(m_impl->top, m_tb.ticks());
    sync();
    resettle();
}

void rtl_timer_unit::on_edge() {
    m_edges.disarm();  // the notification has fired
    sync();
    resettle();  // re-aim even if nothing was clocked
}

void rtl_timer_unit::write_dec(uint64_t value) {
    // A DEC write needs no separate catch-up clock: the write replaces the DEC's last tick and
    // the HDEC sees all of them (the RTL's "write wins over a simultaneous tick", §7.2).
    const uint64_t now = m_tb.ticks();
    auto& t = m_impl->top;
    uint64_t n = now > m_last_tick ? now - m_last_tick : 0;
    while (n > max_advance) {  // only beyond 2^56 ticks: catch up in whole chunks first
        t.adv = max_advance;
        clock();
        n -= max_advance;
    }
    t.adv = n;
    t.wr_dec = 1;
    t.dec_wdata = value;
    clock();
    if (now > m_last_tick) m_last_tick = now;
    settle();
}

uint64_t rtl_timer_unit::read_dec() {
    sync();
    settle();
    return m_impl->top.dec_rd;
}

void rtl_timer_unit::write_hdec(uint64_t value) {
    // §3: the write edge compares with the value at the write tick, after any crossing up to
    // and including that tick is latched; so catch up first, then write.
    sync();
    auto& t = m_impl->top;
    t.wr_hdec = 1;
    t.hdec_wdata = value;
    clock();
    settle();
}

uint64_t rtl_timer_unit::read_hdec() {
    sync();
    settle();
    return m_impl->top.hdec_rd;
}

void rtl_timer_unit::set_lpcr(bool ld, bool hdice) {
    sync();  // crossings before the change see the old HDICE
    auto& t = m_impl->top;
    if (static_cast<bool>(t.lpcr_ld) != ld || static_cast<bool>(t.lpcr_hdice) != hdice) {
        t.lpcr_ld = ld;
        t.lpcr_hdice = hdice;
        // LD and HDICE feed only combinational logic and the next clock's HDEC latch enable
        // (decrementer_unit.v): a clock with no ticks and no strobes would leave every register
        // as it is, so the outputs are evaluated without one.
        evaluate();
    }
    settle();
}

// The design's next_edge_ticks is the nearest tick at which dec_irq or hdec_irq can change, and
// one clock with adv=N equals N one-tick clocks (decrementer_unit.v): before that tick the
// lines are what the last clock left, so a pending query clocks only at or past it. A unit
// with a waveform keeps clocking at every access, so that its VCD shows each one.
bool rtl_timer_unit::lines_hold() const {
    const uint64_t now = m_tb.ticks();
    return !m_impl->trace && (now <= m_last_tick || now < lines_hold_until_tick());
}

uint64_t rtl_timer_unit::lines_hold_until_tick() const {
    return absolute(m_last_tick, m_impl->top.next_edge_ticks);
}

bool rtl_timer_unit::dec_pending() {
    if (!lines_hold()) {
        sync();
        settle();
    }
    return m_impl->top.dec_irq;
}

bool rtl_timer_unit::hdec_pending() {
    if (!lines_hold()) {
        sync();
        settle();
    }
    return m_impl->top.hdec_irq;
}

void rtl_timer_unit::ack_hdec() {
    sync();
    auto& t = m_impl->top;
    if (t.hdec_irq) {
        t.hdec_ack = 1;
        clock();
    }
    settle();
}

uint64_t rtl_timer_unit::next_dec_edge_tick() {
    sync();
    settle();
    return absolute(m_last_tick, m_impl->top.dec_edge_ticks);
}

uint64_t rtl_timer_unit::next_hdec_edge_tick() {
    sync();
    settle();
    return absolute(m_last_tick, m_impl->top.hdec_edge_ticks);
}

void rtl_timer_unit::set_self_timed(bool on) {
    m_self_timed = on;
    if (!on) {
        m_edges.cancel();
    } else {
        resettle();
    }
}

int rtl_timer_unit::add_trace_line(const std::string& scope, const std::string& name) {
    if (!m_impl->trace) return -1;
    return m_impl->trace->add_line(scope, name);
}

void rtl_timer_unit::trace_line(int id, bool value) {
    if (id < 0 || !m_impl->trace) return;
    m_impl->trace->line(m_impl->top, id, value, m_tb.ticks());
}

bool rtl_timer_unit::tracing() const {
    return m_impl->trace != nullptr;
}

void rtl_timer_unit::flush_trace() {
    if (m_impl && m_impl->trace) m_impl->trace->flush();
}

}  // namespace nestvp
