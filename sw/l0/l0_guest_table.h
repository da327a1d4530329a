#pragma once
// L0 firmware state and hcall semantics for the nestedv2 (PAPR API v2) interface, independent
// of timing (nested-virtualization.md §2.5, §2.6, §5, §6; QEMU hw/ppc/spapr_nested.c).
// Every handler validates fully before it changes anything: an error leaves every guest as it was.
// Guest-state buffers are read and written through a memory_port (TLM in the machine).
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/memory_port.h"
#include "sw/l0/gsb_value_store.h"
#include "sw/l0/run_output_policy.h"
#include "sw/papr/gsb_codec.h"
#include "sw/papr/papr.h"

namespace nestvp {

struct hcall_result {
    int64_t r3 = papr::H_SUCCESS;
    uint64_t r4 = 0;
    uint64_t r5 = 0;
    unsigned elements_in = 0;   // GSB elements L0 decoded from L1 memory
    unsigned elements_out = 0;  // GSB elements L0 encoded into L1 memory
    uint64_t bytes_in = 0;      // buffer bytes L0 read and validated
    uint64_t bytes_out = 0;     // buffer bytes L0 wrote
    bool ok() const { return r3 == papr::H_SUCCESS; }
};

// The registers L0 moves between its copy of an L2 vCPU and the hardware thread at the partition
// switch (nested-virtualization.md §6: nested_papr_load_l2 / exit_nested_store_l2).
struct l2_switch_regs {
    std::array<uint64_t, 13> gpr{};  // r0..r12
    uint64_t nia = 0, msr = 0, lpcr = 0, hdec_expiry_tb = 0, dec_expiry_tb = 0;
};

class l0_guest_table {
public:
    struct config {
        // Processor modes this L0 offers (H_GUEST_GET_CAPABILITIES).
        uint64_t capabilities = papr::H_GUEST_CAP_POWER9 | papr::H_GUEST_CAP_POWER10;
        uint32_t logical_pvr = 0x0f000006;  // CPU_POWERPC_LOGICAL_3_10 (default LOGICAL_PVR)
        uint64_t max_guests = papr::PAPR_NESTED_GUEST_MAX;      // ids 1..max_guests-1
        uint64_t max_vcpus = papr::PAPR_NESTED_GUEST_VCPU_MAX;  // ids 0..max_vcpus-1
        uint64_t host_state_size = 4096;  // HOST_STATE_SIZE (0x0001) reported to L1
        // QEMU refuses to run a guest without a partition table (h_guest_run_vcpu).
        bool require_partition_table = true;
    };

    l0_guest_table();
    explicit l0_guest_table(const config& cfg);
    ~l0_guest_table();

    // ---- hcalls (arguments r4.. in order, §5.4) ----
    hcall_result h_guest_get_capabilities(uint64_t flags);
    hcall_result h_guest_set_capabilities(uint64_t flags, uint64_t bitmap);
    hcall_result h_guest_create(uint64_t flags, uint64_t continue_token);
    hcall_result h_guest_create_vcpu(uint64_t flags, uint64_t guest, uint64_t vcpu);
    hcall_result h_guest_get_state(uint64_t flags, uint64_t guest, uint64_t vcpu, uint64_t addr,
                                   uint64_t size, memory_port& mem);
    hcall_result h_guest_set_state(uint64_t flags, uint64_t guest, uint64_t vcpu, uint64_t addr,
                                   uint64_t size, memory_port& mem);
    hcall_result h_guest_delete(uint64_t flags, uint64_t guest);

    // H_GUEST_RUN_VCPU, first half: checks and applies the run-input buffer (thread-wide SET).
    // On success r3 = H_SUCCESS and the vCPU may be dispatched; the exit vector comes from
    // end_run. Errors: flags != 0 -> H_PARAMETER; unknown guest -> H_P2; unknown vCPU -> H_P3;
    // buffers not registered -> H_INPUT/OUTPUT_BUFFER_NOT_DEFINED; no partition table ->
    // H_PARTITION_PAGE_TABLE_NOT_DEFINED; bad input buffer -> element code + index in r4.
    hcall_result begin_run(uint64_t guest, uint64_t vcpu, uint64_t flags, memory_port& mem);
    // Second half: fills the run-output buffer for `exit_vector` per policy; r3 = H_SUCCESS,
    // r4 = exit vector. If the output buffer cannot be written: r3 = H_P2 (QEMU).
    hcall_result end_run(uint64_t guest, uint64_t vcpu, uint64_t exit_vector,
                         run_output_policy policy, memory_port& mem);

    // Dispatch by opcode with args[0..5] = r4..r9. H_GUEST_RUN_VCPU is not dispatched here (the
    // machine calls begin_run/end_run): it and unknown opcodes return H_FUNCTION.
    hcall_result dispatch(uint64_t opcode, const uint64_t* args, memory_port& mem);
    static bool handles(uint64_t opcode);

    // ---- queries and typed accessors for the machine model ----
    bool capabilities_set() const { return m_caps_set; }
    uint64_t selected_capabilities() const { return m_caps; }
    bool guest_exists(uint64_t guest) const;
    bool vcpu_exists(uint64_t guest, uint64_t vcpu) const;
    size_t guest_count() const;
    std::vector<uint64_t> guest_ids() const;

    // Thread-wide scalar (4- or 8-byte) IDs of a vCPU. get: false when the guest/vCPU or ID is
    // unknown or not a scalar; an ID never written reads 0. set: no masking, no read-only check
    // (the machine writes what the hardware produced, e.g. HDAR or DEC_EXPIRY_TB on exit).
    bool get_u64(uint64_t guest, uint64_t vcpu, uint16_t id, uint64_t& value) const;
    bool set_u64(uint64_t guest, uint64_t vcpu, uint16_t id, uint64_t value);
    // Convenience: value or 0 when absent.
    uint64_t vcpu_u64(uint64_t guest, uint64_t vcpu, uint16_t id) const;
    // The switch registers in one lookup (the run path's get_u64/set_u64); false for an unknown
    // guest or vCPU. store_exit_regs writes GPRs, NIA, MSR and DEC_EXPIRY_TB (what an exit
    // produces), not LPCR or HDEC_EXPIRY_TB (L1's inputs).
    bool load_switch_regs(uint64_t guest, uint64_t vcpu, l2_switch_regs& out) const;
    bool store_exit_regs(uint64_t guest, uint64_t vcpu, const l2_switch_regs& in);
    // Guest-wide TB_OFFSET (L2 TB - L1 TB, §3.1). Returns false for an unknown guest.
    bool get_tb_offset(uint64_t guest, uint64_t& value) const;
    bool set_tb_offset(uint64_t guest, uint64_t value);
    uint64_t tb_offset(uint64_t guest) const;
    // Registered run buffers (address, size); false when not registered.
    bool run_input_buffer(uint64_t guest, uint64_t vcpu, uint64_t& addr, uint64_t& size) const;
    bool run_output_buffer(uint64_t guest, uint64_t vcpu, uint64_t& addr, uint64_t& size) const;

    // A deterministic text dump of the whole L0 state (tests compare snapshots).
    std::string snapshot() const;

private:
    struct vcpu_state;
    struct guest_state;

    guest_state* find_guest(uint64_t guest);
    const guest_state* find_guest(uint64_t guest) const;
    vcpu_state* find_vcpu(uint64_t guest, uint64_t vcpu);
    const vcpu_state* find_vcpu(uint64_t guest, uint64_t vcpu) const;

    hcall_result getset(bool set, uint64_t flags, uint64_t guest, uint64_t vcpu, uint64_t addr,
                        uint64_t size, memory_port& mem);
    // Validates every element value of a SET against L0 rules and the buffer ranges; applies
    // nothing. Returns r3/r4 on the first failure.
    hcall_result check_set(const guest_state& g, const vcpu_state* v,
                           const std::vector<uint8_t>& buf,
                           const std::vector<gsb_element>& elems) const;
    void apply_set(guest_state& g, vcpu_state* v, const std::vector<uint8_t>& buf,
                   const std::vector<gsb_element>& elems);
    gsb_value read_value(const guest_state& g, const vcpu_state* v, uint16_t id) const;
    // The same value without a copy: the stored one, or `scratch` holding a computed or zero one.
    const gsb_value& value_ref(const guest_state& g, const vcpu_state* v, uint16_t id,
                               gsb_value& scratch) const;

    config m_cfg;
    bool m_caps_set = false;
    uint64_t m_caps = 0;
    std::map<uint64_t, std::unique_ptr<guest_state>> m_guests;
    // Scratch reused by GET/SET and the run path so that a warm call allocates nothing (bench/
    // README.md, profile). Contents never outlive one call.
    std::vector<uint8_t> m_buf;
    std::vector<gsb_element> m_elems;
    std::vector<uint8_t> m_out;  // the run-output buffer: largest_run_output() bytes and a value
    std::vector<uint16_t> m_out_ids;
};

}  // namespace nestvp
