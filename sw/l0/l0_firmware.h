#pragma once
// L0 firmware (PowerVM-like): the handler of every `sc 1` from L1, which reaches it as a TLM-2.0
// transaction through the platform's hcall_target (models/hcall_target.h). It keeps L2 state in an
// l0_guest_table, moves every guest state buffer through TLM (tlm_memory_port -> guest_memory),
// switches the hardware thread into and out of L2 (nested-virtualization.md §2.4, §2.5, §6) and
// charges each step its cost in cycles from the platform file.
#include <cstdint>
#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "models/hcall_protocol.h"
#include "models/tlm_memory_port.h"
#include "sw/l0/l0_config.h"
#include "sw/l0/l0_guest_table.h"
#include "sw/probes/nested_probe.h"

namespace nestvp {

// How many registers L0 moves per partition switch: the L2 register state it keeps (the
// thread-wide 4- and 8-byte register elements, nested-virtualization.md §5.3), and the extra
// registers an exit reason reports (HDAR/HDSISR/ASDR for HDSI, §3 of
// l2-idle-and-get-state-paths.md).
unsigned l2_state_registers();
unsigned exit_reason_registers(uint32_t vector);

class l0_firmware : public hcall_handler_if {
public:
    // The software context of an L2 vCPU, asked for when L1 creates it.
    using context_provider = std::function<sw_context*(uint64_t guest, uint64_t vcpu)>;

    // `memory`: L0's port to the L1 partition's memory, where the guest state buffers are.
    l0_firmware(tlm_memory_port& memory, run_output_policy policy, const l0_costs& costs,
                nested_probe& probe);

    // One hcall on the thread that made it: entry cost, the call, return cost.
    void hcall(hv_thread_if& t, hcall_frame& f) override;

    void set_context_provider(context_provider p) { m_provider = std::move(p); }
    // l0.dec_expiry: true when a saved DEC becomes the expiry now - DEC (QEMU spapr_nested.c).
    void set_dec_expiry_mirrored(bool mirrored) { m_dec_mirrored = mirrored; }
    l0_guest_table& table() { return m_table; }
    run_output_policy policy() const { return m_policy; }

private:
    void dispatch(hv_thread_if& t, hcall_frame& f);
    void charge_memory(hv_thread_if& t);
    void mark(hv_thread_if& t, path_step s);
    // One buffer moved through memory: per-element and per-byte cost, and the memory's latency.
    void charge_buffer(hv_thread_if& t, uint64_t elements, uint64_t bytes);
    // The buffers an hcall moved, as a trace-only detail (tracepoint::gsb_buffer).
    void trace_buffers(hv_thread_if& t, uint64_t opcode, const hcall_result& r);

    void h_cede(hv_thread_if& t, hcall_frame& f);
    void h_guest_run_vcpu(hv_thread_if& t, hcall_frame& f);
    void h_enter_nested(hv_thread_if& t, hcall_frame& f);
    void h_guest_state_hcall(hv_thread_if& t, hcall_frame& f);
    sw_context* context_for(uint64_t guest, uint64_t vcpu);

    // What L0 loads into the thread for one L2 run. Expiries are in L1 TB; l2_offset is
    // L2 TB - L1 TB (GSB TB_OFFSET, hv_guest_state.tb_offset).
    struct l2_timing {
        uint64_t lpcr = 0;
        uint64_t hdec_expiry_l1 = 0;
        uint64_t dec_expiry_l1 = 0;
        uint64_t l2_offset = 0;
        bool load_dec = true;        // v2: DEC from the stored expiry; v1: L1 left it in DEC
        bool restore_l1_dec = true;  // v2: L0 puts L1's DEC back; v1: L1 does it itself
    };
    // What run_l2 saves of L1 before the switch, for restore_l1.
    struct l1_saved {
        uint64_t lpcr = 0, dec_host = 0;
        bool switched = false;  // the partition was switched (L2 entered)
    };
    // Switches the thread to L2 and runs it until it traps (or exits at once, L2 not entered,
    // when the HDEC expiry has passed): the switch, DEC/HDEC load, hrfid, then the exit
    // interrupt and the register save. dec_expiry_out: L2's DEC expiry in L1 TB at the exit.
    trap_info run_l2(hv_thread_if& t, sw_context& l2, const l2_timing& in, uint64_t& dec_expiry_out,
                     l1_saved& l1);
    // The partition switch back to L1: HDEC parked, LPCR and (v2) L1's DEC restored.
    void restore_l1(hv_thread_if& t, const l2_timing& in, const l1_saved& l1);

    tlm_memory_port& m_memory;
    l0_guest_table m_table;
    run_output_policy m_policy;
    bool m_dec_mirrored = false;
    l0_costs m_costs;
    nested_probe& m_probe;
    context_provider m_provider;
    std::map<std::pair<uint64_t, uint64_t>, sw_context*> m_contexts;
};

}  // namespace nestvp
