#include "sw/l0/l0_firmware.h"

#include <algorithm>

#include "models/log.h"
#include "sw/papr/gsb_ids.h"
#include "sw/papr/hv_guest_state.h"
#include "sw/papr/nested_pt_regs.h"

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

l0_firmware::l0_firmware(tlm_memory_port& m_memory, run_output_policy policy, const l0_costs& costs,
                         nested_probe& probe)
    : m_memory(m_memory), m_policy(policy), m_costs(costs), m_probe(probe) {}

unsigned l2_state_registers() {
    static const unsigned n = [] {
        unsigned count = 0;
        for (const gsb_id_info& info : gsb_all_ids())
            if (info.scope == gsb_scope::thread && (info.size == 4 || info.size == 8) &&
                info.id != gsid::DEC_EXPIRY_TB && info.id != gsid::HDEC_EXPIRY_TB &&
                info.id != gsid::LPCR)
                ++count;
        return count;
    }();
    return n;
}

unsigned exit_reason_registers(uint32_t vector) {
    switch (vector) {
        case papr::EXIT_HDSI:
            return 3;  // HDAR, HDSISR, ASDR
        case papr::EXIT_HISI:
            return 2;  // HDAR, ASDR
        case papr::EXIT_HEA:
        case papr::EXIT_HFAC:
            return 1;  // HEIR / HFSCR
        default:
            return 0;
    }
}

void l0_firmware::charge_memory(hv_thread_if& t) {
    // Guest-memory latency (TLM annotated delay): the thread stalls in L0 for it.
    t.stall(m_memory.take_delay());
}

void l0_firmware::mark(hv_thread_if& t, path_step s) {
    m_probe.step(t.id(), s, t.step_time());
}

void l0_firmware::trace_buffers(hv_thread_if& t, uint64_t opcode, const hcall_result& r) {
    if (!m_probe.tracing()) return;
    tracepoint_event e(tracepoint::gsb_buffer, t.id(), t.step_time());
    e.opcode = opcode;
    e.elements_in = r.elements_in, e.bytes_in = r.bytes_in;
    e.elements_out = r.elements_out, e.bytes_out = r.bytes_out;
    m_probe.tracepoint(e);
}

void l0_firmware::charge_buffer(hv_thread_if& t, uint64_t elements, uint64_t bytes) {
    charge_memory(t);
    t.charge(m_costs.gsb_element.cycles * static_cast<double>(elements) +
             m_costs.gsb_byte.cycles * static_cast<double>(bytes));
}

void l0_firmware::hcall(hv_thread_if& t, hcall_frame& f) {
    NESTVP_LOG(log::module::l0, log::level::debug,
               "thread " << t.id() << ": hcall 0x" << std::hex << f.r[3] << " ("
                         << papr::hcall_name(f.r[3]) << ")");
    const bool run = f.r[3] == papr::H_GUEST_RUN_VCPU || f.r[3] == papr::H_ENTER_NESTED;
    if (run) mark(t, path_step::l0_hcall_entry);
    m_probe.count(counter::l0_hcalls, t.id());
    m_probe.hcall(t.id(), f.r[3]);
    t.charge(m_costs.hcall_entry.cycles);
    dispatch(t, f);
    // The return cost joins whatever L1 does next with interrupts off (hardware_thread::charge).
    if (run) mark(t, path_step::l0_return_to_l1);
    t.charge(m_costs.hcall_return.cycles);
}

void l0_firmware::dispatch(hv_thread_if& t, hcall_frame& f) {
    switch (f.r[3]) {
        case papr::H_CEDE:
            return h_cede(t, f);
        case papr::H_GUEST_RUN_VCPU:
            return h_guest_run_vcpu(t, f);
        case papr::H_ENTER_NESTED:
            return h_enter_nested(t, f);
        default:
            if (l0_guest_table::handles(f.r[3])) return h_guest_state_hcall(t, f);
            f.r[3] = static_cast<uint64_t>(papr::H_FUNCTION);
    }
}

void l0_firmware::h_guest_state_hcall(hv_thread_if& t, hcall_frame& f) {
    const uint64_t op = f.r[3];
    const hcall_result r = m_table.dispatch(op, &f.r[4], m_memory);
    charge_memory(t);
    double cost = m_costs.guest_create.cycles;
    if (op == papr::H_GUEST_GET_STATE) {
        m_probe.count(counter::l0_get_state, t.id());
        cost = m_costs.get_state.cycles;
    } else if (op == papr::H_GUEST_SET_STATE) {
        m_probe.count(counter::l0_set_state, t.id());
        cost = m_costs.set_state.cycles;
    }
    NESTVP_LOG(log::module::l0, log::level::debug,
               "thread " << t.id() << ": " << papr::hcall_name(op) << " -> " << r.r3 << ", "
                         << r.elements_in << " GSB elements in, " << r.elements_out << " out");
    m_probe.count(counter::l0_gsb_elements_in, t.id(), r.elements_in);
    m_probe.count(counter::l0_gsb_elements_out, t.id(), r.elements_out);
    trace_buffers(t, op, r);
    t.charge(cost +
             m_costs.gsb_element.cycles * static_cast<double>(r.elements_in + r.elements_out) +
             m_costs.gsb_byte.cycles * static_cast<double>(r.bytes_in + r.bytes_out));
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

void l0_firmware::h_cede(hv_thread_if& t, hcall_frame& f) {
    // An L1 vCPU with nothing to run gives up its thread until its next interrupt (its DEC):
    // the thread is inactive meanwhile, so its SMT siblings speed up.
    t.charge(m_costs.cede.cycles);
    m_probe.count(counter::l0_l1_cedes, t.id());
    t.set_active(false);  // retires the cede cost first
    // ... or an interrupt-controller message to the partition (a host IPI: L0 prods it).
    t.wait_for_wake();
    // The dispatch of the ceded virtual processor: from its DEC (or IPI) to its first cycle
    // again (l0_dispatch_latency_ns; docs/calibration.md compares it with PowerVM's DTL).
    const bool by_dec = t.timers().dec_pending();
    const uint64_t woken = t.step_time();
    mark(t, path_step::l0_dispatch);
    t.set_active(true);
    t.charge(m_costs.prod.cycles);
    m_probe.latency(latency_kind::l0_dispatch, t.id(),
                    by_dec ? latency_reason::by_dec : latency_reason::by_ipi, woken, t.step_time());
    f.r[3] = papr::H_SUCCESS;
}

trap_info l0_firmware::run_l2(hv_thread_if& t, sw_context& l2, const l2_timing& in,
                              uint64_t& dec_expiry_out, l1_saved& l1) {
    const uint64_t l1_offset = t.host_tb_offset();
    const auto l1_now = [&t, l1_offset] { return t.host_ticks() + l1_offset; };
    // The first access retires what L0 charged so far (hardware_thread::timers()).
    l1.lpcr = t.irq().lpcr();
    // An expiry from a DEC read (l0.dec_expiry): now + DEC, or QEMU's now - DEC.
    const auto expiry = [this](uint64_t now, int64_t dec) {
        return m_dec_mirrored ? now - dec : now + dec;
    };
    l1.dec_host = expiry(t.host_ticks(), signed_dec(t.timers().read_dec(), l1.lpcr));
    trap_info trap{vector::hdecrementer, l2.nia, l2.msr};
    if (static_cast<int64_t>(in.hdec_expiry_l1 - l1_now()) < 0) {
        // The L1 time limit already passed: exit at once with 0x980, no switch, L2 not entered.
        m_probe.count(counter::l0_immediate_exits, t.id());
        l1.switched = false;
        dec_expiry_out = in.dec_expiry_l1;
        return trap;
    }
    // §6 nested_papr_load_l2: the partition switch (LPIDR, PIDR, LPCR with HDICE forced, TB
    // offset), DEC from the stored expiry (v2; in v1 L1 left L2's DEC in the register) and HDEC
    // from L1's time limit, through the timer unit (timer-facilities.md §3). The registers are
    // written at the start of the switch and its cost follows: each value comes from an expiry,
    // so every edge lands at the same time whichever cycle of the switch wrote it, and the
    // thread retires the switch in one step.
    // HVICE forced too (QEMU nested_papr_load_l2): a host IPI to L1 then exits L2 with 0xEA0.
    t.irq().set_lpcr(in.lpcr | lpcr::hdice | lpcr::hvice);
    if (in.load_dec) t.timers().write_dec(in.dec_expiry_l1 - l1_now());
    // HDEC < 0 if the limit passes during the switch: L2 then traps at once (§3).
    t.timers().write_hdec(in.hdec_expiry_l1 - l1_now());
    l2.tb_offset = l1_offset + in.l2_offset;  // offsets add up across levels (§2.4)
    mark(t, path_step::l0_switch_to_l2);
    t.charge(m_costs.partition_switch.cycles);
    mark(t, path_step::l0_load_timers);
    t.charge(m_costs.timer_write.cycles * (in.load_dec ? 2 : 1));
    m_probe.count(counter::l0_l2_entries, t.id());
    mark(t, path_step::l0_return_to_l2);
    t.charge(m_costs.return_to_guest.cycles);
    mark(t, path_step::l2_running);  // where the hrfid ends: L2's first cycle
    trap = t.enter(l2);              // retires the switch; L2 runs from entry_time() to trap_time()
    // §6 exit_nested_store_l2: L2's DEC read at the trap and its expiry kept in L1 TB, offset
    // removed; then L1's partition state back (HDEC parked, a stray HDEC edge consumed, L1's
    // LPCR and, v2, its DEC from its expiry). As at entry, the registers are accessed at once
    // and the exit's steps are charged after them.
    dec_expiry_out = expiry(l1_now(), signed_dec(t.timers().read_dec(), t.irq().lpcr()));
    t.timers().write_hdec(hdec_max);
    if (t.timers().hdec_pending()) t.timers().ack_hdec();
    t.irq().set_lpcr(l1.lpcr);
    if (in.restore_l1_dec) t.timers().write_dec(l1.dec_host - t.host_ticks());
    m_probe.step(t.id(), path_step::l0_exit_interrupt, t.trap_time().value());
    t.charge(m_costs.exit_interrupt.cycles);
    // The registers L0 keeps, plus those of the exit reason.
    mark(t, path_step::l0_save_regs);
    t.charge(m_costs.reg_move.cycles * (l2_state_registers() + exit_reason_registers(trap.vector)));
    l1.switched = true;
    return trap;
}

void l0_firmware::restore_l1(hv_thread_if& t, const l2_timing& in, const l1_saved& l1) {
    // The switch back to L1 (registers written at the trap, run_l2): its cost.
    if (!l1.switched) return;
    mark(t, path_step::l0_restore_l1);
    t.charge(m_costs.partition_switch.cycles +
             m_costs.timer_write.cycles * (in.restore_l1_dec ? 2 : 1));
}

void l0_firmware::h_guest_run_vcpu(hv_thread_if& t, hcall_frame& f) {
    const uint64_t flags = f.r[4], guest = f.r[5], vcpu = f.r[6];
    m_probe.count(counter::l0_run_vcpu, t.id());
    mark(t, path_step::l0_read_input);
    const hcall_result in = m_table.begin_run(guest, vcpu, flags, m_memory);
    m_probe.count(counter::l0_gsb_elements_in, t.id(), in.elements_in);
    trace_buffers(t, papr::H_GUEST_RUN_VCPU, in);
    charge_buffer(t, in.elements_in, in.bytes_in);
    sw_context* l2 = in.ok() ? context_for(guest, vcpu) : nullptr;
    if (!in.ok() || !l2) {
        f.r[3] = static_cast<uint64_t>(in.ok() ? papr::H_HARDWARE : in.r3);
        f.r[4] = in.r4;
        return;
    }
    // Load L2's registers from L0's copy (§2.5: L0 keeps all L2 state between runs).
    mark(t, path_step::l0_load_regs);
    t.charge(m_costs.reg_move.cycles * l2_state_registers());
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
    l1_saved l1;
    const trap_info trap = run_l2(t, *l2, timing, regs.dec_expiry_tb, l1);
    // Store what the hardware produced (§6): registers, NIA/MSR from (H)SRR0/1, DEC expiry.
    std::copy_n(l2->gpr.begin(), regs.gpr.size(), regs.gpr.begin());
    regs.nia = trap.nia;
    regs.msr = trap.msr;
    m_table.store_exit_regs(guest, vcpu, regs);
    if (trap.vector == papr::EXIT_HDSI) {  // the fault registers the output reports (§6)
        m_table.set_u64(guest, vcpu, gsid::HDAR, trap.hdar);
        m_table.set_u64(guest, vcpu, gsid::HDSISR, trap.hdsisr);
        m_table.set_u64(guest, vcpu, gsid::ASDR, trap.asdr);
    }
    // The run-output buffer for this exit reason under l0.run_output (§2.6).
    mark(t, path_step::l0_write_output);
    const hcall_result out = m_table.end_run(guest, vcpu, trap.vector, m_policy, m_memory);
    m_probe.count(counter::l0_gsb_elements_out, t.id(), out.elements_out);
    NESTVP_LOG(log::module::l0, log::level::debug,
               "thread " << t.id() << ": L2 exit 0x" << std::hex << trap.vector << std::dec << ", "
                         << out.elements_out << " GSB elements in the run output");
    trace_buffers(t, papr::H_GUEST_RUN_VCPU, out);
    charge_buffer(t, out.elements_out, out.bytes_out);
    restore_l1(t, timing, l1);
    m_probe.exit_vector(t.id(), trap.vector);
    f.r[3] = static_cast<uint64_t>(out.r3);
    f.r[4] = out.r4;
}

}  // namespace nestvp
