#include "sw/l0/l0_firmware.h"

#include <algorithm>

#include "models/local_time.h"
#include "sw/gsb/gsb_ids.h"
#include "sw/l0/hv_guest_state.h"
#include "sw/l0/nested_pt_regs.h"

namespace nestvp {

namespace {
constexpr uint64_t hdec_max = 0x007FFFFFFFFFFFFFull;  // positive 56-bit (§3: HDEC >= DEC)

// The signed DEC value of a formatted read: LD=1 reads are already sign-extended (§2.1);
// LD=0 reads are zero-extended and KVM casts them to s32 (§2.1, L-kvm exit path).
int64_t signed_dec(uint64_t raw, uint64_t lpcr_value) {
    return (lpcr_value & lpcr::ld) ? static_cast<int64_t>(raw)
                                   : static_cast<int64_t>(static_cast<int32_t>(raw));
}
}  // namespace

l0_firmware::l0_firmware(const sc_core::sc_module_name& name, run_output_policy policy,
                         const l0_costs& costs, nested_metrics& metrics)
    : sc_core::sc_module(name),
      hcall_socket("hcall_socket"),
      memory("memory"),
      m_policy(policy),
      m_costs(costs),
      m_metrics(metrics) {
    hcall_socket.register_b_transport(this, &l0_firmware::b_transport);
}

void l0_firmware::charge_memory(hardware_thread& t) {
    // Guest-memory latency (TLM annotated delay) is time the thread spends in L0.
    const sc_core::sc_time d = memory.take_delay();
    if (d == sc_core::SC_ZERO_TIME) return;
    t.wait_for(d);
}

void l0_firmware::b_transport(int, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    if (gp.get_data_length() != sizeof(hcall_frame) || !gp.get_data_ptr()) {
        gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    auto& f = *reinterpret_cast<hcall_frame*>(gp.get_data_ptr());
    if (!f.thread) {
        gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    if (delay > sc_core::SC_ZERO_TIME) {
        f.thread->wait_for(delay);
        delay = sc_core::SC_ZERO_TIME;
    }
    m_metrics.add(counter::l0_hcalls, f.thread->id());
    m_metrics.add_hcall(f.r[3]);
    f.thread->charge(m_costs.hcall_entry);
    dispatch(f);
    // The return cost joins whatever L1 does next with interrupts off (hardware_thread::charge).
    f.thread->charge(m_costs.hcall_return);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

void l0_firmware::dispatch(hcall_frame& f) {
    switch (f.r[3]) {
        case papr::H_CEDE:
            return h_cede(f);
        case papr::H_GUEST_RUN_VCPU:
            return h_guest_run_vcpu(f);
        case papr::H_ENTER_NESTED:
            return h_enter_nested(f);
        default:
            if (l0_guest_table::handles(f.r[3])) return h_guest_state_hcall(f);
            f.r[3] = static_cast<uint64_t>(papr::H_FUNCTION);
    }
}

void l0_firmware::h_guest_state_hcall(hcall_frame& f) {
    hardware_thread& t = *f.thread;
    const uint64_t op = f.r[3];
    const hcall_result r = m_table.dispatch(op, &f.r[4], memory);
    charge_memory(t);
    uint64_t cost = m_costs.guest_create;
    if (op == papr::H_GUEST_GET_STATE) {
        m_metrics.add(counter::l0_get_state, t.id());
        cost = m_costs.get_state;
    } else if (op == papr::H_GUEST_SET_STATE) {
        m_metrics.add(counter::l0_set_state, t.id());
        cost = m_costs.set_state;
    }
    m_metrics.add(counter::l0_gsb_elements_in, t.id(), r.elements_in);
    m_metrics.add(counter::l0_gsb_elements_out, t.id(), r.elements_out);
    t.charge(cost + m_costs.gsb_element * (r.elements_in + r.elements_out));
    if (r.ok() && op == papr::H_GUEST_CREATE_VCPU) context_for(f.r[5], f.r[6]);
    f.r[3] = static_cast<uint64_t>(r.r3);
    f.r[4] = r.r4;
    f.r[5] = r.r5;
}

sw_context* l0_firmware::context_for(uint64_t guest, uint64_t vcpu) {
    const auto key = std::make_pair(guest, vcpu);
    auto it = m_contexts.find(key);
    if (it != m_contexts.end()) return it->second;
    sw_context* ctx = m_provider ? m_provider(guest, vcpu) : nullptr;
    if (ctx) m_contexts[key] = ctx;
    return ctx;
}

void l0_firmware::h_cede(hcall_frame& f) {
    // An L1 vCPU with nothing to run gives up its thread until its next interrupt (its DEC):
    // the thread is inactive meanwhile, so its SMT siblings speed up.
    hardware_thread& t = *f.thread;
    t.charge(m_costs.cede);
    m_metrics.add(counter::l0_l1_cedes, t.id());
    t.set_active(false);  // retires the cede cost first
    local_time::sync();   // set_active caught up only if the activity changed; waits need it
    while (!t.timers().dec_pending()) sc_core::wait(t.timers().pending_changed_event());
    t.set_active(true);
    t.charge(m_costs.prod);
    f.r[3] = papr::H_SUCCESS;
}

trap_info l0_firmware::run_l2(hardware_thread& t, sw_context& l2, const l2_timing& in,
                              uint64_t& dec_expiry_out) {
    timer_unit_if& timers = t.timers();  // retires everything charged before the TB read
    const uint64_t l1_offset = t.host() ? t.host()->tb_offset : 0;
    const uint64_t host_now = t.owner().tb().ticks();
    const uint64_t now_l1 = host_now + l1_offset;
    const uint64_t l1_lpcr = t.irq().lpcr();
    const uint64_t l1_dec_host = host_now + signed_dec(timers.read_dec(), l1_lpcr);

    // §6 nested_papr_load_l2 / timer-facilities.md §3 step 3: guest LPCR (HDICE forced) before
    // HDEC; then DEC from the stored expiry (v2). In v1 L1 left L2's DEC in the register.
    t.irq().set_lpcr(in.lpcr | lpcr::hdice);
    if (in.load_dec) timers.write_dec(in.dec_expiry_l1 - now_l1);
    const int64_t hdec = static_cast<int64_t>(in.hdec_expiry_l1 - now_l1);
    trap_info trap{vector::hdecrementer, l2.nia, l2.msr};
    if (hdec < 0) {
        // The L1 time limit already passed: exit at once with 0x980, L2 not entered.
        m_metrics.add(counter::l0_immediate_exits, t.id());
    } else {
        timers.write_hdec(static_cast<uint64_t>(hdec));
        l2.tb_offset = l1_offset + in.l2_offset;  // offsets add up across levels (§2.4)
        m_metrics.add(counter::l0_l2_entries, t.id());
        trap = t.enter(l2);
    }
    // Exit (§6 exit_nested_store_l2): L2's DEC read at the trap and its expiry kept in L1 TB,
    // offset removed; then the switch back to L1 is charged.
    const uint64_t host_exit = t.owner().tb().ticks();
    dec_expiry_out = host_exit + l1_offset + signed_dec(timers.read_dec(), t.irq().lpcr());
    if (hdec >= 0) t.charge(m_costs.l2_exit);
    timers.write_hdec(hdec_max);
    if (timers.hdec_pending()) timers.ack_hdec();  // a stray HDEC edge is consumed by L0
    t.irq().set_lpcr(l1_lpcr);
    // L1's DEC from its expiry at the instant of the write (the LPCR access above retired the
    // exit cost, so time has moved since host_exit).
    if (in.restore_l1_dec) timers.write_dec(l1_dec_host - t.owner().tb().ticks());
    return trap;
}

void l0_firmware::h_guest_run_vcpu(hcall_frame& f) {
    hardware_thread& t = *f.thread;
    const uint64_t flags = f.r[4], guest = f.r[5], vcpu = f.r[6];
    m_metrics.add(counter::l0_run_vcpu, t.id());
    const hcall_result in = m_table.begin_run(guest, vcpu, flags, memory);
    charge_memory(t);
    m_metrics.add(counter::l0_gsb_elements_in, t.id(), in.elements_in);
    t.charge(m_costs.gsb_element * in.elements_in);
    sw_context* l2 = in.ok() ? context_for(guest, vcpu) : nullptr;
    if (!in.ok() || !l2) {
        f.r[3] = static_cast<uint64_t>(in.ok() ? papr::H_HARDWARE : in.r3);
        f.r[4] = in.r4;
        return;
    }
    t.charge(m_costs.run_vcpu);
    // Load L2's registers from L0's copy (§2.5: L0 keeps all L2 state between runs).
    l2_switch_regs regs;
    m_table.load_switch_regs(guest, vcpu, regs);
    std::copy(regs.gpr.begin(), regs.gpr.end(), l2->gpr.begin());
    l2->nia = regs.nia;
    l2->msr = regs.msr;
    l2_timing timing;
    timing.lpcr = regs.lpcr;
    timing.hdec_expiry_l1 = regs.hdec_expiry_tb;
    timing.dec_expiry_l1 = regs.dec_expiry_tb;
    timing.l2_offset = m_table.tb_offset(guest);
    const trap_info trap = run_l2(t, *l2, timing, regs.dec_expiry_tb);
    // Store what the hardware produced (§6): registers, NIA/MSR from (H)SRR0/1, DEC expiry.
    std::copy_n(l2->gpr.begin(), regs.gpr.size(), regs.gpr.begin());
    regs.nia = trap.nia;
    regs.msr = trap.msr;
    m_table.store_exit_regs(guest, vcpu, regs);
    const hcall_result out = m_table.end_run(guest, vcpu, trap.vector, m_policy, memory);
    charge_memory(t);
    m_metrics.add(counter::l0_gsb_elements_out, t.id(), out.elements_out);
    t.charge(m_costs.gsb_element * out.elements_out);
    m_metrics.add_exit(trap.vector);
    f.r[3] = static_cast<uint64_t>(out.r3);
    f.r[4] = out.r4;
}

void l0_firmware::h_enter_nested(hcall_frame& f) {
    // nestedv1 (§2.3, §2.4): the whole L2 state travels in hv_guest_state + pt_regs in L1
    // memory; hdec_expiry is L1's time limit; the DEC register carries L2's DEC both ways.
    hardware_thread& t = *f.thread;
    m_metrics.add(counter::l0_enter_nested, t.id());
    const uint64_t hv_addr = f.r[4], regs_addr = f.r[5];
    hv_guest_state hv;
    int64_t rc = hv_guest_state_read(memory, hv_addr, hv);
    nested_pt_regs regs;
    if (rc == papr::H_SUCCESS) rc = nested_pt_regs_read(memory, regs_addr, regs);
    charge_memory(t);
    sw_context* l2 = rc == papr::H_SUCCESS ? context_for(hv.lpid, hv.vcpu_token) : nullptr;
    if (rc != papr::H_SUCCESS || !l2) {
        f.r[3] = static_cast<uint64_t>(rc != papr::H_SUCCESS ? rc : papr::H_PARAMETER);
        return;
    }
    t.charge(m_costs.run_vcpu + m_costs.enter_nested);  // the same partition switch, plus the copy
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
    const trap_info trap = run_l2(t, *l2, timing, dec_expiry);
    for (unsigned n = 0; n < 32; ++n) regs.gpr[n] = l2->gpr[n];
    regs.nip = trap.nia;
    regs.msr = trap.msr;
    if (trap.vector == vector::hdecrementer) hv.hdar = 0;
    rc = hv_guest_state_write(memory, hv_addr, hv);
    if (rc == papr::H_SUCCESS) rc = nested_pt_regs_write(memory, regs_addr, regs);
    charge_memory(t);
    m_metrics.add_exit(trap.vector);
    // The trap vector is the hcall's return value (§2.3).
    f.r[3] = rc == papr::H_SUCCESS ? trap.vector : static_cast<uint64_t>(rc);
}

}  // namespace nestvp
