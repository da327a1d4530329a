#pragma once
// The waveform of rtl/decrementer_unit.v for rtl_timer_unit (docs/rtl-decrementer.md): its
// ports and state in a VCD, one time unit per TB tick, plus extra 1-bit lines a checker adds.
// Only the .cpp includes Verilated headers (toolchain.md §5).
#include <array>
#include <cstdint>
#include <memory>
#include <string>

class Vdecrementer_unit;

namespace nestvp {

class vcd_writer;

class rtl_port_trace {
public:
    // Opens `path` and declares the unit's ports under `scope`; dec_bits is the state width.
    // Throws std::runtime_error / std::invalid_argument (from vcd_writer) naming the unit.
    rtl_port_trace(const std::string& path, const std::string& scope, uint64_t freq_hz,
                   unsigned dec_bits);
    ~rtl_port_trace();
    rtl_port_trace(const rtl_port_trace&) = delete;
    rtl_port_trace& operator=(const rtl_port_trace&) = delete;

    bool started() const;
    // Records every port of `top` at TB tick `tick`.
    void sample(const Vdecrementer_unit& top, uint64_t tick);
    // sample() if nothing was written yet: the first values, at the start of simulation.
    void start(const Vdecrementer_unit& top, uint64_t tick);
    // An extra 1-bit line (before the first sample); its id for line().
    int add_line(const std::string& scope, const std::string& name);
    // Records line `id` at `tick`; the ports are sampled first if nothing was written yet.
    void line(const Vdecrementer_unit& top, int id, bool value, uint64_t tick);
    void flush();

private:
    enum sig {
        s_rst,
        s_dec_bits,
        s_adv,
        s_wr_dec,
        s_dec_wdata,
        s_wr_hdec,
        s_hdec_wdata,
        s_lpcr_ld,
        s_lpcr_hdice,
        s_hdec_ack,
        s_pm_enter,
        s_dec_rd,
        s_hdec_rd,
        s_dec_irq,
        s_hdec_irq,
        s_dec_edge,
        s_hdec_edge,
        s_next_edge,
        s_dec_state,
        s_hdec_state,
        s_count
    };
    std::unique_ptr<vcd_writer> m_vcd;
    std::array<int, s_count> m_ids{};  // VCD ids of the ports and state, in port order
};

}  // namespace nestvp
