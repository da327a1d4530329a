#include "models/hcall_initiator.h"

#include <stdexcept>

namespace nestvp {

hcall_initiator::hcall_initiator(const char* socket_name, std::string owner)
    : socket(socket_name), m_owner(std::move(owner)), m_ext(new hcall_extension) {
    m_gp.set_extension(m_ext);  // the payload frees it
}

sc_core::sc_time hcall_initiator::call(hcall_frame& frame, unsigned thread_id) {
    if (m_in_flight) throw std::logic_error(m_owner + ": hcall issued while another is in flight");
    m_in_flight = true;
    m_ext->frame = frame;
    m_ext->thread_id = thread_id;
    m_gp.set_command(tlm::TLM_WRITE_COMMAND);
    m_gp.set_address(frame.r[3]);
    m_gp.set_data_ptr(nullptr);
    m_gp.set_data_length(0);
    m_gp.set_streaming_width(0);
    m_gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    try {
        socket->b_transport(m_gp, delay);
    } catch (...) {
        m_in_flight = false;
        throw;
    }
    m_in_flight = false;
    frame = m_ext->frame;
    if (m_gp.get_response_status() != tlm::TLM_OK_RESPONSE)
        frame.r[3] = static_cast<uint64_t>(-2);  // H_FUNCTION
    return delay;
}

}  // namespace nestvp
