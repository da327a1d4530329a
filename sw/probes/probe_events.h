#pragma once
// What the software and the hardware announce through a probe (sw/probes/nested_probe.h): the
// counted events, the steps of the nested path, the latencies measured on it and their reasons.
// Plain declarations; the observers (sw/metrics) give them meaning.
#include <cstdint>

namespace nestvp {

enum class counter : unsigned {
    // L0
    l0_hcalls,
    l0_get_state,  // H_GUEST_GET_STATE handled (probe:kvmppc_gsb_recv on the L1 side)
    l0_set_state,
    l0_run_vcpu,         // H_GUEST_RUN_VCPU
    l0_enter_nested,     // H_ENTER_NESTED
    l0_l2_entries,       // L2 really entered
    l0_immediate_exits,  // HDEC expiry already passed at run: exit at once (0x980)
    l0_gsb_elements_in,
    l0_gsb_elements_out,
    l0_l1_cedes,  // an L1 vCPU ceded its thread (inactive)
    // L1
    l1_guest_exits,       // kvm_guest_exit tracepoint: once per run-loop pass
    l1_early_returns,     // passes that returned without entering (timer due)
    l1_lazy_irq_returns,  // ... (an L1 interrupt pending: kvmhv_vcpu_entry_nestedv2)
    l1_cedes,             // kvmppc_cede
    l1_dec_dequeued,      // cancel check dequeued the DEC
    l1_blocks,            // vCPU went to sleep
    l1_timer_wakes,       // DEC hrtimer fired and queued a DEC
    l1_set_timer,
    l1_cache_reloads,  // element reloads (GET_STATE) by the state cache
    // ... issued inside the guest-state window (kvmhv_p9_guest_entry), where a function-entry
    // kprobe on kvmppc_gsb_recv does not fire (get-state-deduction.md §2b)
    l1_get_state_unprobed,
    l1_ticks,
    l1_timer_interrupts,
    l1_halt_poll_successes,  // cancel-poll: woken while polling, no block
    l1_halt_poll_misses,     // ... the window passed, then it blocked
    l1_mmio_emulations,      // kvmppc_hv_emulate_mmio after an HDSI exit
    l1_mmio_gpr_reloads,     // ... whose store source GPR came by GET_STATE (not in the output)
    l1_ipis,                 // H_IPI that raised an IPI (kvmppc_h_ipi -> icp_deliver_irq)
    l1_ipi_wakes,            // ... whose target slept in the cede path (woken by a host IPI)
    l1_ipi_kicks,            // ... whose target was on its CPU (kvmppc_ipi_thread)
    l1_icp_hcalls,           // XICS hcalls emulated (H_IPI, H_XIRR, H_EOI)
    l1_host_ipis,            // host IPIs taken by an L1 CPU (0x500)
    l1_device_irqs,          // device interrupts the VMM raised (KVM_INTERRUPT)
    l1_userspace_mmio,       // KVM_EXIT_MMIO round trips to the VMM (emulated XIVE)
    // L2
    l2_timer_interrupts,
    l2_early_timer_interrupts,
    l2_ticks,
    l2_housekeeping,
    l2_cedes,
    l2_snoozes,               // snooze_loop entered (cpuidle-pseries state 0)
    l2_snooze_timeouts,       // snoozes that ended at their time limit, not at need_resched
    l2_device_interrupts,     // device interrupts handled
    l2_irqchip_accesses,      // loads and stores to XIVE pages (HDSI exits, emulated XIVE)
    l2_ipis_sent,             // IPIs sent to another vCPU (H_IPI or a XIVE trigger store)
    l2_ipis_skipped_polling,  // wake-ups of a snoozing vCPU: need_resched only, no IPI
    l2_ipis_received,         // IPIs handled (XICS external, 0x500 by LPCR[MER])
    l2_set_dec,
    count_
};
const char* counter_name(counter c);

enum class path_step : uint8_t {
    other,  // before the first mark, or older than the log holds
    // L0 entry: H_GUEST_RUN_VCPU / H_ENTER_NESTED
    l0_hcall_entry,
    l0_read_input,
    l0_load_regs,
    l0_switch_to_l2,
    l0_load_timers,
    l0_return_to_l2,
    l2_running,
    l2_interrupt_entry,  // exception entry and the prolog into an L2 handler
    l0_dispatch,         // L0 dispatches a ceded L1 vCPU again (prod)
    // L0 exit
    l0_exit_interrupt,
    l0_save_regs,
    l0_write_output,
    l0_restore_l1,
    l0_return_to_l1,
    // L1 run loop (kvmhv_run_single_vcpu)
    l1_parse_output,
    l1_cede,
    l1_interrupts,
    l1_dec_policy,
    l1_trace_exit,
    l1_handle_exit,
    l1_set_timer,
    l1_halt_poll,  // cancel-poll: spinning before blocking (kvm_vcpu_halt's polling)
    l1_blocked,
    l1_wake,
    l1_prepare,  // kvmhv_run_single_vcpu up to the guest-state window
    l1_dtl,
    l1_guest_state_enter,
    l1_vcpu_entry,  // kvmhv_p9_guest_entry up to the flush (nestedv1: with the PMU switch)
    l1_flush,
    l1_vcpu_exit,  // after the run hcall (nestedv1: with the PMU switch)
    l1_guest_state_exit,
    l1_pass_end,
    l1_vmm_exit,      // KVM_EXIT_MMIO: out of KVM_RUN to the VMM in L1 userspace
    l1_vmm_dispatch,  // the VMM's handling of the access
    l1_vmm_entry,     // KVM_RUN back into the run loop
    l1_get_state,     // one H_GUEST_GET_STATE round trip, inside whichever L1 step needed it
    count_
};
const char* path_step_name(path_step s);
constexpr unsigned path_step_count = static_cast<unsigned>(path_step::count_);
// A step as a bit of a set of steps (nested_probe::latency's `skip`).
constexpr uint64_t path_step_bit(path_step s) {
    return 1ull << static_cast<unsigned>(s);
}

enum class latency_kind : uint8_t {
    nested_entry,     // run hcall issued -> L2's first cycle
    nested_exit,      // L2 trap -> L1 resuming
    l1_handling,      // L1 resuming -> next run hcall, time blocked left out
    round_trip,       // L2 trap -> L2 running again, exits that do not block
    timer_interrupt,  // L2 DEC edge -> L2 timer handler
    wake,             // L1 hrtimer expiry -> L2 running
    l0_dispatch,      // a ceded L1 vCPU's DEC or IPI -> L1 running again
    count_
};
const char* latency_kind_name(latency_kind k);  // "nested_entry_latency_ns", ...
constexpr unsigned latency_kind_count = static_cast<unsigned>(latency_kind::count_);

// Sample keys besides exit vectors.
namespace latency_reason {
constexpr uint32_t cede_flag = 0x10000;  // 0xc00 | cede_flag: an H_CEDE exit
constexpr uint32_t in_l2 = 1;            // timer edge while the vCPU ran in L2
constexpr uint32_t in_l0_l1 = 2;         // ... while it was in L0 or L1
constexpr uint32_t blocked_in_l1 = 3;    // ... while it slept in L1 (ceded)
constexpr uint32_t hrtimer = 4;          // wake latency
constexpr uint32_t by_dec = 5;           // L0 dispatch: woken by its DEC
constexpr uint32_t by_ipi = 6;           // ... by an interrupt-controller message
}  // namespace latency_reason
// "0x980 HDEC", "0xc00 H_CEDE", "in L2", ...
const char* latency_reason_label(uint32_t reason, char (&buf)[32]);

// What a kernel tracepoint (or kprobe) would record, announced only while a trace writer
// listens (nested_probe::tracing): the L1 kernel's, as `perf record` names them, and two
// trace-only details of L0 and L2 (docs/perf-script.md, docs/trace-events.md).
enum class tracepoint : uint8_t {
    kvm_guest_enter,  // kvm_hv:kvm_guest_enter (trace_hv.h), in kvmhv_run_single_vcpu
    kvm_guest_exit,   // kvm_hv:kvm_guest_exit
    hcall_entry,      // powerpc:hcall_entry (asm/trace.h), every L1 hcall
    hcall_exit,       // powerpc:hcall_exit
    gsb_recv,         // probe:kvmppc_gsb_recv, a function-entry kprobe
    gsb_buffer,       // L0 read and wrote guest-state buffers for an hcall (elements, bytes)
    l2_idle_enter,    // L2's cpuidle state entered: snooze (0) or Shared Cede (1)
    l2_idle_exit,
    count_
};
const char* tracepoint_name(tracepoint p);  // "kvm_hv:kvm_guest_exit", ...

struct tracepoint_event {
    tracepoint_event(tracepoint p, unsigned th, uint64_t time) : point(p), thread(th), t(time) {}
    tracepoint point;
    unsigned thread = 0;   // the hardware thread, which is also the L1 CPU and the vCPU
    uint64_t t = 0;        // sc_time value
    uint32_t trap = 0;     // kvm_guest_exit: vcpu->arch.trap
    bool ceded = false;    // kvm_guest_*: vcpu->arch.ceded
    uint64_t pc = 0;       // kvm_guest_*: kvmppc_get_pc
    uint64_t msr = 0;      // kvm_guest_exit: shregs.msr
    uint64_t pending = 0;  // kvm_guest_enter: pending_exceptions
    uint64_t opcode = 0;   // hcall_*: r3 at entry
    int64_t retval = 0;    // hcall_exit: r3 at return
    // gsb_buffer: what L0 read from L1's input and wrote to its output, for the hcall `opcode`
    uint64_t elements_in = 0, bytes_in = 0, elements_out = 0, bytes_out = 0;
    unsigned idle_state = 0;  // l2_idle_*: 0 snooze, 1 Shared Cede
};

}  // namespace nestvp
