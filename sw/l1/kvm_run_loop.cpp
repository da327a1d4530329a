#include "sw/l1/kvm_run_loop.h"

#include <stdexcept>
#include <string>

#include "models/log.h"
#include "sw/l1/plpar_hcall.h"
#include "sw/papr/gsb_codec.h"
#include "sw/papr/gsb_ids.h"
#include "sw/papr/hv_guest_state.h"
#include "sw/papr/nested_pt_regs.h"
#include "sw/papr/papr.h"

namespace nestvp {

namespace {
constexpr uint32_t trap_syscall = 0xC00;
constexpr uint32_t trap_hdec = 0x980;

std::string exit_text(uint32_t reason) {
    if (reason == 0) return "no entry (L1's timer was due)";
    char buf[32];
    return std::string("exit ") + latency_reason_label(reason, buf);
}
}  // namespace

kvm_run_loop::kvm_run_loop(l1_cpu& cpu, kvm_guest& guest, unsigned vcpu_id,
                           const dec_policy& policy, memory_port& mem, const vcpu_buffers& buffers,
                           const l1_costs& costs, nested_probe& probe, const l2_vcpu_setup& setup)
    : m_cpu(cpu),
      m_guest(guest),
      m_policy(policy),
      m_mem(mem),
      m_buf(buffers),
      m_costs(costs),
      m_probe(probe),
      m_cache(cpu.cpu(), mem, probe, l1_gsb_costs{costs.gsb_element.cycles}),
      m_setup(setup),
      m_device_rng(setup.seed * 0xBF58476D1CE4E5B9ull + vcpu_id + 1) {
    m_vcpu.id = vcpu_id;
    m_vcpu.irqs = setup.irqs;
    m_device_timer.callback = [this] { device_irq(); };
    m_vcpu.cpu = &cpu.cpu();
    if (m_guest.vcpus.size() <= vcpu_id) m_guest.vcpus.resize(vcpu_id + 1, nullptr);
    m_guest.vcpus[vcpu_id] = &m_vcpu;
    m_vcpu.dec_timer.callback = [this] {
        // kvmppc_decrementer_wakeup -> kvmppc_decrementer_func: queue DEC, kick (§3.3).
        m_vcpu.dec_queued = true;
        // The wake latency starts at the expiry (L1 TB -> host ticks -> time).
        const uint64_t host = m_vcpu.dec_timer.expiry - m_cpu.context().tb_offset;
        m_wake_from = m_cpu.cpu().time_of_host_ticks(host);
        m_probe.count(counter::l1_timer_wakes, m_cpu.id());
    };
}

uint64_t kvm_run_loop::hcall(uint64_t nr, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7,
                             uint64_t a8, uint64_t* r4) {
    hcall_frame f;
    f.r[3] = nr, f.r[4] = a4, f.r[5] = a5, f.r[6] = a6, f.r[7] = a7, f.r[8] = a8;
    plpar_hcall(m_cpu.cpu(), m_probe, f);
    if (r4) *r4 = f.r[4];
    return f.r[3];
}

void kvm_run_loop::main() {
    cpu_if& t = m_cpu.cpu();
    t.set_level(context_level::l1);
    t.set_active(true);
    m_cpu.start();
    if (m_guest.nestedv2) {
        if (m_vcpu.id == 0) {
            create_guest();
            m_guest.created = true;
            m_guest.created_signal.raise();
        }
        while (!m_guest.created) t.wait_signal(m_guest.created_signal);
        create_vcpu();
    } else {
        m_vcpu.v1_msr = m_setup.boot_msr;
        m_vcpu.v1_nia = m_setup.boot_nia;
        m_vcpu.v1_dec_expires = m_cpu.mftb() + 0x7FFFFFFF;
        m_guest.id = 1;  // nestedv1: the L2 LPID L1 allocated
    }
    m_vcpu.guest_id = m_guest.id;
    arm_device_irq();
    for (;;) run_single_vcpu();
}

bool kvm_run_loop::vcpu_woken() const {
    // kvmppc_vcpu_woken: any pending exception (DEC, external), prodded, doorbell (§2.2
    // step 10).
    return m_vcpu.dec_queued || m_vcpu.ext_pending || m_vcpu.prodded;
}

bool kvm_run_loop::check_block() const {
    return !m_vcpu.ceded || vcpu_woken();
}

uint64_t kvm_run_loop::dec_expires_host_tb() {
    // nestedv2: DEC_EXPIRY_TB (L1 TB) from the output buffer or one GET_STATE; v1: local.
    return m_guest.nestedv2 ? m_cache.get(gsid::DEC_EXPIRY_TB) : m_vcpu.v1_dec_expires;
}

uint64_t kvm_run_loop::hcall_number() {
    return gpr(3);
}

void kvm_run_loop::kvmppc_cede() {
    // kvmppc_cede: MSR[EE] := 1 in the vCPU's MSR, ceded := 1 (cleared if prodded), r3 := 0.
    mark(path_step::l1_cede);
    exec(m_costs.cede.cycles);
    m_probe.count(counter::l1_cedes, m_cpu.id());
    if (m_guest.nestedv2) {
        m_cache.set(gsid::MSR, m_cache.get(gsid::MSR) | msr::ee);
        m_cache.set(gsid::GPR3, papr::H_SUCCESS);
    } else {
        m_vcpu.v1_msr |= msr::ee;
        m_vcpu.v1_gpr[3] = papr::H_SUCCESS;
    }
    m_vcpu.ceded = true;
    if (m_vcpu.prodded) m_vcpu.prodded = m_vcpu.ceded = false;
}

void kvm_run_loop::set_timer() {
    // kvmppc_set_timer (§3.3): queue the DEC at once if already expired, else arm the hrtimer.
    mark(path_step::l1_set_timer);
    exec(m_costs.set_timer.cycles);
    m_probe.count(counter::l1_set_timer, m_cpu.id());
    const uint64_t now = m_cpu.mftb();
    const uint64_t expiry = dec_expires_host_tb();
    if (now > expiry)
        m_vcpu.dec_queued = true;
    else
        m_cpu.start_hrtimer(m_vcpu.dec_timer, expiry);
}

uint32_t kvm_run_loop::enter_nestedv2(uint64_t time_limit, uint64_t& tb, bool& entered) {
    // kvmhv_vcpu_entry_nestedv2 (§2.5): an L1 interrupt that came in since the hard-disable
    // (lazy_irq_pending) returns trap 0 before anything is sent: no hcall, the cache is kept.
    if (m_cpu.irq_pending()) {
        m_probe.count(counter::l1_lazy_irq_returns, m_cpu.id());
        entered = false;
        return 0;
    }
    // Flush, run, invalidate, parse the output buffer.
    mark(path_step::l1_flush);
    m_cache.flush(time_limit, entry_lpcr());
    uint64_t r4 = 0;
    run_hcall_issued();
    const uint64_t rc = hcall(papr::H_GUEST_RUN_VCPU, 0, m_guest.id, m_vcpu.id, 0, 0, &r4);
    run_hcall_returned();
    tb = m_cpu.mftb();
    if (rc != papr::H_SUCCESS)
        throw std::runtime_error("L1: H_GUEST_RUN_VCPU failed with " +
                                 std::to_string(static_cast<int64_t>(rc)) + ", index " +
                                 std::to_string(r4));
    m_cache.after_run();
    entered = true;
    return static_cast<uint32_t>(r4);
}

uint32_t kvm_run_loop::enter_nestedv1(uint64_t time_limit, uint64_t& tb) {
    // kvmhv_vcpu_entry_p9_nested (§2.3): L1 puts L2's DEC in its own DEC register, passes
    // hv_guest_state (hdec_expiry = time_limit) and pt_regs, and reads the DEC back after.
    cpu_if& t = m_cpu.cpu();
    mark(path_step::l1_flush);
    const uint64_t now = m_cpu.mftb();
    t.write_dec(m_vcpu.v1_dec_expires - now);
    hv_guest_state hv;
    hv.lpid = static_cast<uint32_t>(m_guest.id);
    hv.vcpu_token = m_vcpu.id;
    hv.lpcr = entry_lpcr();
    hv.hdec_expiry = time_limit;
    hv.tb_offset = static_cast<int64_t>(m_guest.tb_offset);
    hv.amor = ~0ull;
    nested_pt_regs regs;
    for (unsigned n = 0; n < 32; ++n) regs.gpr[n] = m_vcpu.v1_gpr[n];
    regs.nip = m_vcpu.v1_nia;
    regs.msr = m_vcpu.v1_msr;
    uint8_t hvbuf[HV_GUEST_STATE_MAX_SIZE];
    hv_guest_state_encode(hv, hvbuf);
    m_mem.write(m_buf.hv_state, hvbuf, hv_guest_state_size(hv.version));
    nested_pt_regs_write(m_mem, m_buf.pt_regs, regs);
    exec(m_costs.gsb_element.cycles * 8);
    run_hcall_issued();
    const uint64_t trap = hcall(papr::H_ENTER_NESTED, m_buf.hv_state, m_buf.pt_regs);
    run_hcall_returned();
    tb = m_cpu.mftb();
    const uint64_t lpcr_now = t.lpcr();
    const uint64_t raw = t.read_dec();
    const int64_t dec = (lpcr_now & lpcr::ld) ? static_cast<int64_t>(raw)
                                              : static_cast<int64_t>(static_cast<int32_t>(raw));
    m_vcpu.v1_dec_expires = tb + dec;
    nested_pt_regs_read(m_mem, m_buf.pt_regs, regs);
    // The fault registers of an HDSI come back in hv_guest_state (kvmhv_enter_nested_guest).
    if (m_mem.read(m_buf.hv_state, hvbuf, hv_guest_state_size(hv.version)) &&
        hv_guest_state_decode(hvbuf, hv_guest_state_size(hv.version), hv)) {
        m_vcpu.v1_hdar = hv.hdar;
        m_vcpu.v1_hdsisr = hv.hdsisr;
    }
    for (unsigned n = 0; n < 32; ++n) m_vcpu.v1_gpr[n] = regs.gpr[n];
    m_vcpu.v1_nia = regs.nip;
    m_vcpu.v1_msr = regs.msr;
    exec(m_costs.gsb_element.cycles * 8);
    m_cpu.program_dec();  // timer_rearm_host_dec
    if (trap >= 0x8000000000000000ull)
        throw std::runtime_error("L1: H_ENTER_NESTED failed with " +
                                 std::to_string(static_cast<int64_t>(trap)));
    return static_cast<uint32_t>(trap);
}

// kvm_hv:kvm_guest_enter and kvm_guest_exit as the tracepoints record them (trace_hv.h):
// vcpu_id, kvmppc_get_pc (nestedv2: the cached NIA, which an enabled exit tracepoint has just
// reloaded), pending_exceptions (BOOK3S_IRQPRIO_EXTERNAL = 14, _DECREMENTER = 15, kvm_book3s.h),
// shregs.msr and ceded.
void kvm_run_loop::trace_guest_enter() {
    if (!m_probe.tracing()) return;
    tracepoint_event e(tracepoint::kvm_guest_enter, m_cpu.id(), m_cpu.cpu().step_time());
    e.pc = m_guest.nestedv2 ? m_cache.peek(gsid::NIA) : m_vcpu.v1_nia;
    e.pending = (m_vcpu.ext_pending ? 1ull << 14 : 0) | (m_vcpu.dec_queued ? 1ull << 15 : 0);
    e.ceded = m_vcpu.ceded;
    m_probe.tracepoint(e);
}

void kvm_run_loop::trace_guest_exit(uint32_t trap) {
    if (!m_probe.tracing()) return;
    tracepoint_event e(tracepoint::kvm_guest_exit, m_cpu.id(), m_cpu.cpu().step_time());
    e.trap = trap;
    e.pc = m_guest.nestedv2 ? m_cache.peek(gsid::NIA) : m_vcpu.v1_nia;
    e.msr = m_guest.nestedv2 ? m_cache.peek(gsid::MSR) : m_vcpu.v1_msr;
    e.ceded = m_vcpu.ceded;
    m_probe.tracepoint(e);
}

void kvm_run_loop::run_single_vcpu() {
    const unsigned ti = m_cpu.id();
    // kvmhv_run_single_vcpu up to the guest-state window: trap and ceded reset,
    // kvmppc_core_prepare_to_enter, hard-disable, the time limit (docs/l1-kvm-run-loop.md).
    mark(path_step::l1_prepare);
    exec(m_costs.prepare_entry.cycles);
    m_vcpu.trap = 0;
    m_vcpu.ceded = false;
    m_cpu.irq_disable();
    m_vcpu.on_cpu = true;  // vcpu->arch.thread_cpu: a kick now IPIs this thread
    // nestedv2 never injects DEC (df938a5576f3); the policy may clear it here.
    m_policy.on_entry(m_vcpu, m_guest.nestedv2);
    m_cpu.cancel_hrtimer(m_vcpu.dec_timer);
    uint64_t tb = m_cpu.mftb();
    const uint64_t time_limit = m_cpu.next_timer_event();
    // kvmppc_update_vpa_dispatch_p9: the DTL entry records the PC; nestedv2 reloads NIA with a
    // GET_STATE when the last exit did not return it (§2.5).
    mark(path_step::l1_dtl);
    if (m_setup.dtl && m_guest.nestedv2) m_cache.get(gsid::NIA);
    trace_guest_enter();
    mark(path_step::l1_guest_state_enter);
    exec(m_costs.guest_state_enter.cycles);
    // kvmhv_p9_guest_entry runs inside the window: a kprobe on kvmppc_gsb_recv misses it.
    m_cache.set_in_guest_state_window(true);
    uint32_t trap = trap_hdec;
    uint32_t reason = 0;  // the exit, for the log: 0 when L2 was not entered
    const uint64_t reloads_before = m_cache.reloads();
    if (time_limit <= tb) {
        // kvmhv_p9_guest_entry: hdec < 0 -> BOOK3S_INTERRUPT_HV_DECREMENTER, no hcall.
        m_probe.count(counter::l1_early_returns, ti);
    } else {
        // ceded := 0, vcpu_vpa_increment_dispatch, hard-disable; nestedv1 also switches the
        // PMU (switch_pmu_to_guest), nestedv2 does not.
        mark(path_step::l1_vcpu_entry);
        exec(m_costs.vcpu_entry.cycles);
        if (!m_guest.nestedv2) exec(m_costs.pmu_to_guest.cycles);
        bool entered = true;
        if (m_guest.nestedv2)
            trap = enter_nestedv2(time_limit, tb, entered);
        else
            trap = enter_nestedv1(time_limit, tb);
        m_vcpu.on_cpu = false;
        if (entered) {
            m_probe.run_returned(m_vcpu.id, m_cpu.cpu().now_seconds());
            mark(path_step::l1_vcpu_exit);
            exec(m_costs.vcpu_exit.cycles);
            if (!m_guest.nestedv2) exec(m_costs.pmu_to_host.cycles);
            // An L2 H_CEDE is consumed here: kvmppc_cede, then trap := 0.
            const bool cede = trap == trap_syscall && hcall_number() == papr::H_CEDE;
            reason = cede ? trap | latency_reason::cede_flag : trap;
            sample_after_run(reason);
            if (cede) {
                kvmppc_cede();
                trap = 0;
            }
        }
    }
    m_cache.set_in_guest_state_window(false);
    mark(path_step::l1_guest_state_exit);
    exec(m_costs.guest_state_exit.cycles);
    m_vcpu.on_cpu = false;
    m_vcpu.trap = trap;
    // Interrupts back on: L1 services its own timer here.
    mark(path_step::l1_interrupts);
    m_cpu.irq_enable();
    // The DEC cancel check of the selected policy.
    mark(path_step::l1_dec_policy);
    const bool was_queued = m_vcpu.dec_queued;
    m_policy.after_exit(m_vcpu, m_guest.nestedv2, tb, [this] { return dec_expires_host_tb(); });
    if (was_queued && !m_vcpu.dec_queued) m_probe.count(counter::l1_dec_dequeued, ti);
    // Tracepoint kvm_guest_exit, once per pass. Enabled, its fast-assign reads the PC with
    // kvmppc_get_pc (arch/powerpc/kvm/trace_hv.h): a NIA reload in nestedv2 (§2.5).
    mark(path_step::l1_trace_exit);
    m_probe.count(counter::l1_guest_exits, ti);
    m_probe.guest_exit_tracepoint(ti, trap);
    trace_guest_exit(trap);
    if (m_setup.l1.trace_guest_exit) {
        exec(m_costs.trace_exit.cycles);
        if (m_guest.nestedv2) m_cache.get(gsid::NIA);
    }
    // kvmppc_handle_exit_hv.
    if (trap != 0) {
        mark(path_step::l1_handle_exit);
        exec(m_costs.handle_exit.cycles);
        if (trap == papr::EXIT_HDSI) emulate_mmio();
        if (trap == trap_syscall) {
            const uint64_t nr = hcall_number();
            if (nr == papr::H_IPI || nr == papr::H_XIRR || nr == papr::H_EOI) xics_hcall(nr);
        }
    }
    NESTVP_LOG(log::module::l1, log::level::debug,
               "vcpu " << m_vcpu.id << ": " << exit_text(reason) << "; DEC "
                       << (!was_queued         ? "not queued"
                           : m_vcpu.dec_queued ? "queued, kept (" + m_policy.name() + ")"
                                               : "queued, dequeued (" + m_policy.name() + ")")
                       << "; " << m_cache.reloads() - reloads_before << " GET_STATE; "
                       << (check_block() ? "runs again" : "blocks"));
    mark(path_step::l1_pass_end);
    exec(m_costs.pass_end.cycles);
    // The cede path: kvmppc_vcpu_check_block, then sleep until woken.
    if (!check_block()) {
        set_timer();
        // cancel-poll: kvm_vcpu_halt polls before it schedules out; a wake-up inside the
        // window (the DEC hrtimer firing) saves the block and the wake.
        m_vcpu.sleeping = true;  // polling or on the rcuwait: a kick wakes it
        const bool polled = !check_block() && m_policy.halt_polls() &&
                            m_setup.l1.halt_poll_ns > 0 &&
                            m_cpu.poll_until([this] { return check_block(); },
                                             static_cast<double>(m_setup.l1.halt_poll_ns));
        if (!polled && !check_block()) {
            ++m_blocks;
            m_cpu.block_until([this] { return check_block(); });
        }
        m_vcpu.sleeping = false;
    }
    m_vcpu.ceded = false;
}

}  // namespace nestvp
