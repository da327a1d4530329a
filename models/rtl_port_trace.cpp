// Verilated headers first: with SYSTEMC_VERSION defined they would call an unqualified
// sc_time_stamp() (toolchain.md §5).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"  // verilated_types.h under -Wextra
#include "Vdecrementer_unit.h"
#include "verilated.h"
#pragma GCC diagnostic pop

#include "models/rtl_port_trace.h"

#include <stdexcept>

#include "models/vcd_writer.h"

namespace nestvp {

rtl_port_trace::rtl_port_trace(const std::string& path, const std::string& scope, uint64_t freq_hz,
                               unsigned dec_bits) {
    // One time unit is one TB tick: the RTL has no finer time.
    try {
        m_vcd = std::make_unique<vcd_writer>(
            path, "nestvp rtl_timer_unit (rtl/decrementer_unit.v)",
            "One time unit is one TB tick (f_TB = " + std::to_string(freq_hz) +
                " Hz): timestamps are TB ticks, not nanoseconds.",
            "1 ns");
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("rtl_timer_unit: ") + e.what());
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(std::string("rtl_timer_unit: ") + e.what());
    }
    const struct {
        const char* name;
        unsigned width;
        bool pulse;
    } ports[s_count] = {
        {"rst", 1, true},
        {"dec_bits", 7, false},
        {"adv", 64, true},
        {"wr_dec", 1, true},
        {"dec_wdata", 64, false},
        {"wr_hdec", 1, true},
        {"hdec_wdata", 64, false},
        {"lpcr_ld", 1, false},
        {"lpcr_hdice", 1, false},
        {"hdec_ack", 1, true},
        {"pm_enter", 1, true},
        {"dec_rd", 64, false},
        {"hdec_rd", 64, false},
        {"dec_irq", 1, false},
        {"hdec_irq", 1, false},
        {"dec_edge_ticks", 64, false},
        {"hdec_edge_ticks", 64, false},
        {"next_edge_ticks", 64, false},
        {"dec_state", dec_bits, false},
        {"hdec_state", dec_bits, false},
    };
    for (int i = 0; i < s_count; ++i)
        m_ids[i] = m_vcd->add(scope, ports[i].name, ports[i].width, ports[i].pulse);
}

rtl_port_trace::~rtl_port_trace() = default;

bool rtl_port_trace::started() const {
    return m_vcd->started();
}

void rtl_port_trace::sample(const Vdecrementer_unit& top, uint64_t tick) {
    m_vcd->at(tick);
    const uint64_t v[s_count] = {
        top.rst,
        top.dec_bits,
        top.adv,
        top.wr_dec,
        top.dec_wdata,
        top.wr_hdec,
        top.hdec_wdata,
        top.lpcr_ld,
        top.lpcr_hdice,
        top.hdec_ack,
        top.pm_enter,
        top.dec_rd,
        top.hdec_rd,
        top.dec_irq,
        top.hdec_irq,
        top.dec_edge_ticks,
        top.hdec_edge_ticks,
        top.next_edge_ticks,
        top.dec_state,
        top.hdec_state,
    };
    for (int i = 0; i < s_count; ++i) m_vcd->set(m_ids[i], v[i]);
}

void rtl_port_trace::start(const Vdecrementer_unit& top, uint64_t tick) {
    if (!m_vcd->started()) sample(top, tick);
}

int rtl_port_trace::add_line(const std::string& scope, const std::string& name) {
    return m_vcd->add(scope, name, 1, false);
}

void rtl_port_trace::line(const Vdecrementer_unit& top, int id, bool value, uint64_t tick) {
    start(top, tick);
    m_vcd->at(tick);
    m_vcd->set(id, value);
}

void rtl_port_trace::flush() {
    m_vcd->flush();
}

}  // namespace nestvp
