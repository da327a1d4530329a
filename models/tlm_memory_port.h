#pragma once
// memory_port over a TLM-2.0 initiator socket: how L0 firmware reads and writes guest state
// buffers. Uses DMI when the target grants it (latency from the DMI descriptor per access) and
// b_transport otherwise. The annotated delay of every access accumulates; the caller charges it
// (take_delay) at its next synchronisation point. Bind `socket` to guest_memory::socket.
#include <cstdint>

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "models/memory_port.h"

namespace nestvp {

class tlm_memory_port : public sc_core::sc_module, public memory_port {
public:
    tlm_utils::simple_initiator_socket<tlm_memory_port> socket;

    explicit tlm_memory_port(const sc_core::sc_module_name& name, bool use_dmi = true);

    bool read(uint64_t addr, void* dst, size_t len) override;
    bool write(uint64_t addr, const void* src, size_t len) override;

    // Delay accumulated since the last take_delay()/reset_delay().
    const sc_core::sc_time& pending_delay() const { return m_delay; }
    sc_core::sc_time take_delay();
    void reset_delay() { m_delay = sc_core::SC_ZERO_TIME; }

    void set_use_dmi(bool use);
    bool has_dmi() const { return m_dmi_valid; }
    uint64_t transport_calls() const { return m_transport_calls; }
    uint64_t dmi_accesses() const { return m_dmi_accesses; }

private:
    bool access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, size_t len);
    bool dmi_covers(tlm::tlm_command cmd, uint64_t addr, size_t len) const;
    void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);

    bool m_use_dmi;
    bool m_dmi_valid = false;
    tlm::tlm_dmi m_dmi;
    sc_core::sc_time m_delay;
    uint64_t m_transport_calls = 0;
    uint64_t m_dmi_accesses = 0;
};

}  // namespace nestvp
