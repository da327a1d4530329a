// hardware_thread: the hcall initiator, `sc 1` from L1 to the firmware over TLM-2.0
// (docs/hcall-protocol.md).
#include "models/hardware_thread.h"

#include <stdexcept>
#include <string>

namespace nestvp {

void hardware_thread::hcall(hcall_frame& frame) {
    // `sc 1` from L1: the call runs L0 firmware on this thread in hypervisor state.
    settle();
    const uint64_t m = m_irq.msr();
    const context_level lvl = m_level;
    const uint64_t offset = m_tbr.offset();
    m_irq.set_srr(current_nia() + 4, m & ~msr::srr1_cleared);
    m_irq.set_msr(msr::sf | msr::hv | (m & (msr::me | msr::ri)));
    m_level = context_level::l0;
    m_tbr.set_offset(0);
    if (hcall_socket.size() == 0) {
        frame.r[3] = static_cast<uint64_t>(-2);  // H_FUNCTION: no firmware behind the thread
        m_level = lvl;
        m_tbr.set_offset(offset);
        m_irq.set_msr(m);
        return;
    }
    // One payload per thread, reused (models/hcall_protocol.h): built per call it allocated its
    // extension array each time. Only one context runs on the thread, so calls cannot overlap.
    if (m_hcall_in_flight)
        throw std::logic_error(std::string(name()) + ": hcall issued while another is in flight");
    m_hcall_in_flight = true;
    tlm::tlm_generic_payload& gp = m_hcall_gp;
    m_hcall_ext->frame = frame;
    m_hcall_ext->thread_id = id();
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_address(frame.r[3]);
    gp.set_data_ptr(nullptr);
    gp.set_data_length(0);
    gp.set_streaming_width(0);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    trace();
    try {
        hcall_socket->b_transport(gp, delay);
    } catch (...) {
        m_hcall_in_flight = false;
        throw;
    }
    m_hcall_in_flight = false;
    frame = m_hcall_ext->frame;
    // The initiator honours the annotated delay: the thread stalls for it (run-ahead kept).
    if (delay > sc_core::SC_ZERO_TIME) stall(delay);
    if (gp.get_response_status() != tlm::TLM_OK_RESPONSE) frame.r[3] = static_cast<uint64_t>(-2);
    // Return to L1 (hrfid with HSRR1 = the caller's MSR).
    m_level = lvl;
    m_tbr.set_offset(offset);
    m_irq.set_msr(m);
}

}  // namespace nestvp
