// l0_firmware: H_ENTER_NESTED, the nestedv1 entry (nested-virtualization.md §2.3, §2.4): the
// whole L2 state travels in hv_guest_state and pt_regs in L1 memory, both ways.
#include "sw/l0/l0_firmware.h"
#include "sw/papr/hv_guest_state.h"
#include "sw/papr/nested_pt_regs.h"

namespace nestvp {

void l0_firmware::h_enter_nested(hv_thread_if& t, hcall_frame& f) {
    // nestedv1 (§2.3, §2.4): the whole L2 state travels in hv_guest_state + pt_regs in L1
    // memory, both ways; hdec_expiry is L1's time limit; the DEC register carries L2's DEC.
    m_probe.count(counter::l0_enter_nested, t.id());
    const uint64_t hv_addr = f.r[4], regs_addr = f.r[5];
    mark(t, path_step::l0_read_input);
    hv_guest_state hv;
    int64_t rc = hv_guest_state_read(m_memory, hv_addr, hv);
    nested_pt_regs regs;
    if (rc == papr::H_SUCCESS) rc = nested_pt_regs_read(m_memory, regs_addr, regs);
    const uint64_t state_bytes =
        rc == papr::H_SUCCESS ? hv_guest_state_size(hv.version) + NESTED_PT_REGS_SIZE : 0;
    charge_buffer(t, 0, state_bytes);
    sw_context* l2 = rc == papr::H_SUCCESS ? context_for(hv.lpid, hv.vcpu_token) : nullptr;
    if (rc != papr::H_SUCCESS || !l2) {
        f.r[3] = static_cast<uint64_t>(rc != papr::H_SUCCESS ? rc : papr::H_PARAMETER);
        return;
    }
    mark(t, path_step::l0_load_regs);
    t.charge(m_costs.reg_move.cycles * l2_state_registers());
    for (unsigned n = 0; n < 32; ++n) l2->gpr[n] = regs.gpr[n];
    l2->nia = regs.nip;
    l2->msr = regs.msr;
    l2_timing timing;
    timing.lpcr = hv.lpcr;
    timing.hdec_expiry_l1 = hv.hdec_expiry;
    timing.l2_offset = static_cast<uint64_t>(hv.tb_offset);
    timing.load_dec = false;
    timing.restore_l1_dec = false;
    uint64_t dec_expiry = 0;
    l1_saved l1;
    const trap_info trap = run_l2(t, *l2, timing, dec_expiry, l1);
    for (unsigned n = 0; n < 32; ++n) regs.gpr[n] = l2->gpr[n];
    regs.nip = trap.nia;
    regs.msr = trap.msr;
    if (trap.vector == vector::hdecrementer) hv.hdar = 0;
    if (trap.vector == papr::EXIT_HDSI)
        hv.hdar = trap.hdar, hv.hdsisr = trap.hdsisr, hv.asdr = trap.asdr;
    mark(t, path_step::l0_write_output);
    rc = hv_guest_state_write(m_memory, hv_addr, hv);
    if (rc == papr::H_SUCCESS) rc = nested_pt_regs_write(m_memory, regs_addr, regs);
    charge_buffer(t, 0, state_bytes);
    restore_l1(t, timing, l1);
    m_probe.exit_vector(t.id(), trap.vector);
    // The trap vector is the hcall's return value (§2.3).
    f.r[3] = rc == papr::H_SUCCESS ? trap.vector : static_cast<uint64_t>(rc);
}

}  // namespace nestvp
