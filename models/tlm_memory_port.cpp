// memory_port over TLM-2.0: DMI when granted, b_transport otherwise; delays accumulate.
#include "models/tlm_memory_port.h"

#include "models/guest_memory.h"

#include <cstring>
#include <vector>

namespace nestvp {

tlm_memory_port::tlm_memory_port(const sc_core::sc_module_name& name, bool use_dmi)
    : sc_core::sc_module(name), socket("socket"), m_use_dmi(use_dmi) {
    socket.register_invalidate_direct_mem_ptr(this, &tlm_memory_port::invalidate_direct_mem_ptr);
    m_dmi.init();
}

sc_core::sc_time tlm_memory_port::take_delay() {
    const sc_core::sc_time t = m_delay;
    m_delay = sc_core::SC_ZERO_TIME;
    return t;
}

void tlm_memory_port::set_use_dmi(bool use) {
    m_use_dmi = use;
    if (!use) m_dmi_valid = false;
}

void tlm_memory_port::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
    if (m_dmi_valid && start <= m_dmi.get_end_address() && end >= m_dmi.get_start_address())
        m_dmi_valid = false;
}

bool tlm_memory_port::dmi_covers(tlm::tlm_command cmd, uint64_t addr, size_t len) const {
    if (!m_dmi_valid || len == 0) return false;
    const bool perm =
        cmd == tlm::TLM_READ_COMMAND ? m_dmi.is_read_allowed() : m_dmi.is_write_allowed();
    const uint64_t last = addr + len - 1;
    return perm && last >= addr && addr >= m_dmi.get_start_address() &&
           last <= m_dmi.get_end_address();
}

bool tlm_memory_port::access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, size_t len) {
    if (len == 0) return true;
    if (addr + len - 1 < addr) return false;  // wraps the address space
    if (dmi_covers(cmd, addr, len)) {
        uint8_t* p = m_dmi.get_dmi_ptr() + (addr - m_dmi.get_start_address());
        if (cmd == tlm::TLM_READ_COMMAND)
            std::memcpy(data, p, len);
        else
            std::memcpy(p, data, len);
        m_delay +=
            (cmd == tlm::TLM_READ_COMMAND ? m_dmi.get_read_latency() : m_dmi.get_write_latency()) *
            static_cast<double>(guest_memory::cache_lines(addr, len));
        ++m_dmi_accesses;
        return true;
    }
    // One transaction for the whole range: the target answers address errors without moving
    // any byte, so a failed access never writes partially.
    tlm::tlm_generic_payload trans;
    trans.set_command(cmd);
    trans.set_address(addr);
    trans.set_data_ptr(data);
    trans.set_data_length(static_cast<unsigned>(len));
    trans.set_streaming_width(static_cast<unsigned>(len));
    trans.set_byte_enable_ptr(nullptr);
    trans.set_dmi_allowed(false);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(trans, delay);
    ++m_transport_calls;
    if (!trans.is_response_ok()) return false;
    m_delay += delay;
    if (m_use_dmi && trans.is_dmi_allowed() && !m_dmi_valid) {
        tlm::tlm_generic_payload req;
        req.set_command(tlm::TLM_READ_COMMAND);
        req.set_address(addr);
        tlm::tlm_dmi dmi;
        if (socket->get_direct_mem_ptr(req, dmi)) {
            m_dmi = dmi;
            m_dmi_valid = true;
        }
    }
    return true;
}

bool tlm_memory_port::read(uint64_t addr, void* dst, size_t len) {
    return access(tlm::TLM_READ_COMMAND, addr, static_cast<uint8_t*>(dst), len);
}

bool tlm_memory_port::write(uint64_t addr, const void* src, size_t len) {
    if (dmi_covers(tlm::TLM_WRITE_COMMAND, addr, len)) {  // hot path: no copy
        std::memcpy(m_dmi.get_dmi_ptr() + (addr - m_dmi.get_start_address()), src, len);
        m_delay +=
            m_dmi.get_write_latency() * static_cast<double>(guest_memory::cache_lines(addr, len));
        ++m_dmi_accesses;
        return true;
    }
    // b_transport takes a non-const data pointer; copy so that `src` is never written.
    std::vector<uint8_t> tmp(static_cast<const uint8_t*>(src),
                             static_cast<const uint8_t*>(src) + len);
    return access(tlm::TLM_WRITE_COMMAND, addr, tmp.data(), len);
}

}  // namespace nestvp
