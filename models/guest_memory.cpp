// Guest (L1 real) memory target: bounds-checked b_transport, DMI and debug transport.
#include "models/guest_memory.h"

#include <cstring>

namespace nestvp {

guest_memory::guest_memory(const sc_core::sc_module_name& name, uint64_t size_bytes,
                           const sc_core::sc_time& latency, bool allow_dmi)
    : sc_core::sc_module(name),
      socket("socket"),
      m_bytes(size_bytes, 0),
      m_latency(latency),
      m_allow_dmi(allow_dmi) {
    socket.register_b_transport(this, &guest_memory::b_transport);
    socket.register_get_direct_mem_ptr(this, &guest_memory::get_direct_mem_ptr);
    socket.register_transport_dbg(this, &guest_memory::transport_dbg);
}

bool guest_memory::in_range(uint64_t addr, uint64_t len) const {
    return addr <= m_bytes.size() && len <= m_bytes.size() - addr;  // overflow-safe
}

bool guest_memory::peek(uint64_t addr, void* dst, size_t len) const {
    if (!in_range(addr, len)) return false;
    if (len) std::memcpy(dst, m_bytes.data() + addr, len);
    return true;
}

bool guest_memory::poke(uint64_t addr, const void* src, size_t len) {
    if (!in_range(addr, len)) return false;
    if (len) std::memcpy(m_bytes.data() + addr, src, len);
    return true;
}

void guest_memory::set_dmi_allowed(bool allowed) {
    if (m_allow_dmi && !allowed) socket->invalidate_direct_mem_ptr(0, ~sc_dt::uint64{0});
    m_allow_dmi = allowed;
}

tlm::tlm_response_status guest_memory::access(tlm::tlm_generic_payload& trans) {
    const uint64_t addr = trans.get_address();
    const unsigned len = trans.get_data_length();
    if (trans.get_byte_enable_ptr()) return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
    if (trans.get_streaming_width() < len) return tlm::TLM_BURST_ERROR_RESPONSE;
    if (!in_range(addr, len)) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    if (len && !trans.get_data_ptr()) return tlm::TLM_GENERIC_ERROR_RESPONSE;
    switch (trans.get_command()) {
        case tlm::TLM_READ_COMMAND:
            if (len) std::memcpy(trans.get_data_ptr(), m_bytes.data() + addr, len);
            break;
        case tlm::TLM_WRITE_COMMAND:
            if (len) std::memcpy(m_bytes.data() + addr, trans.get_data_ptr(), len);
            break;
        case tlm::TLM_IGNORE_COMMAND:
            break;
        default:
            return tlm::TLM_COMMAND_ERROR_RESPONSE;
    }
    return tlm::TLM_OK_RESPONSE;
}

void guest_memory::b_transport(int, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    ++m_transactions;
    const tlm::tlm_response_status st = access(trans);
    trans.set_response_status(st);
    if (st == tlm::TLM_OK_RESPONSE) {
        delay += m_latency *
                 static_cast<double>(cache_lines(trans.get_address(), trans.get_data_length()));
        trans.set_dmi_allowed(m_allow_dmi);
    }
}

unsigned int guest_memory::transport_dbg(int, tlm::tlm_generic_payload& trans) {
    const tlm::tlm_response_status st = access(trans);
    trans.set_response_status(st);
    return st == tlm::TLM_OK_RESPONSE ? trans.get_data_length() : 0;
}

bool guest_memory::get_direct_mem_ptr(int, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
    dmi.init();
    if (!m_allow_dmi || m_bytes.empty() || trans.get_address() >= m_bytes.size()) {
        // Deny: tell the initiator the whole address space (it may ask again later).
        dmi.set_start_address(0);
        dmi.set_end_address(~sc_dt::uint64{0});
        return false;
    }
    ++m_dmi_grants;
    dmi.set_dmi_ptr(m_bytes.data());
    dmi.set_start_address(0);
    dmi.set_end_address(m_bytes.size() - 1);
    dmi.allow_read_write();
    dmi.set_read_latency(m_latency);
    dmi.set_write_latency(m_latency);
    return true;
}

}  // namespace nestvp
