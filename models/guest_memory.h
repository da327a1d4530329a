#pragma once
// Modelled guest (L1 real) memory: a TLM-2.0 target holding `size` bytes from address 0.
// b_transport checks bounds (TLM_ADDRESS_ERROR_RESPONSE past the end, never overruns), byte
// enables and streaming are refused (TLM_BYTE_ENABLE_ERROR_RESPONSE / TLM_BURST_ERROR_RESPONSE),
// and each access adds the configured latency per 128-byte cache line it touches to the annotated
// delay, so an access costs what it moves. DMI is granted for the whole memory with the same
// per-line latency as read/write latency (initiators count the lines: cache_lines()). See
// docs/guest-memory.md.
#include <cstdint>
#include <vector>

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <systemc>
#include <tlm>

namespace nestvp {

class guest_memory : public sc_core::sc_module {
public:
    // Any number of initiators (L0 firmware, each L1 vCPU's data port) bind here.
    tlm_utils::multi_passthrough_target_socket<guest_memory> socket;

    guest_memory(const sc_core::sc_module_name& name, uint64_t size_bytes,
                 const sc_core::sc_time& latency = sc_core::SC_ZERO_TIME, bool allow_dmi = true);

    static constexpr uint64_t line_bytes = 128;  // POWER cache line
    // The cache lines [addr, addr + len) touches.
    static uint64_t cache_lines(uint64_t addr, uint64_t len) {
        return len ? (addr + len - 1) / line_bytes - addr / line_bytes + 1 : 0;
    }

    uint64_t size() const { return m_bytes.size(); }
    const sc_core::sc_time& latency() const { return m_latency; }
    void set_latency(const sc_core::sc_time& t) { m_latency = t; }
    // Enables/disables DMI; disabling invalidates any pointer handed out.
    void set_dmi_allowed(bool allowed);
    bool dmi_allowed() const { return m_allow_dmi; }

    // Backdoor for loaders and tests (no timing). False when out of range.
    bool peek(uint64_t addr, void* dst, size_t len) const;
    bool poke(uint64_t addr, const void* src, size_t len);

    uint64_t transactions() const { return m_transactions; }
    uint64_t dmi_grants() const { return m_dmi_grants; }

private:
    void b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
    unsigned int transport_dbg(int id, tlm::tlm_generic_payload& trans);
    bool in_range(uint64_t addr, uint64_t len) const;
    // Shared by b_transport and transport_dbg: status of the access, data moved on success.
    tlm::tlm_response_status access(tlm::tlm_generic_payload& trans);

    std::vector<uint8_t> m_bytes;
    sc_core::sc_time m_latency;
    bool m_allow_dmi;
    uint64_t m_transactions = 0;
    uint64_t m_dmi_grants = 0;
};

}  // namespace nestvp
