#pragma once
// The parameters of the L1 KVM host: its DEC policy, tick and exit-path options, mounted at
// `l1.`, and the costs of its run loop (kvm_run_loop.h) and CPU paths (l1_cpu.h), mounted at
// `l1.costs.`.
#include <string>
#include <vector>

#include "models/params.h"

namespace nestvp {

std::vector<std::string> dec_policy_names();  // dec_policy.h, which needs l1_cpu.h

struct l1_config {
    std::string dec_policy = "cancel";  // dec_policy.h
    unsigned hz = 100;                  // L1 periodic tick; bounds each L2 run through HDEC
    // The kvm_hv:kvm_guest_exit tracepoint is enabled (perf counting it enables it); it reads
    // the L2 PC after every exit (arch/powerpc/kvm/trace_hv.h, nested-virtualization.md §2.5).
    bool trace_guest_exit = true;
    // cancel-poll's polling window before a ceded vCPU blocks (kvm_vcpu_halt).
    double halt_poll_ns = 200000;  // KVM_HALT_POLL_NS_DEFAULT on x86

    static void describe(param_list<l1_config>& p) {
        using c = l1_config;
        p.add_text("dec_policy", &c::dec_policy, dec_policy_names(),
                   "queued-DEC handling after an L2 exit (cancel: 7be6ce7043b4, no-cancel: "
                   "180c6b072bf3, cancel-poll: cancel with halt polling)");
        p.add_uint("hz", &c::hz, 1, 10000, "Hz", "L1 periodic tick; bounds each L2 run via HDEC");
        p.add_bool("trace_guest_exit", &c::trace_guest_exit,
                   "the kvm_hv:kvm_guest_exit tracepoint is enabled: after each exit it reads "
                   "the L2 PC (trace_hv.h; a NIA reload in nestedv2, §2.5)");
        p.add_real("halt_poll_ns", &c::halt_poll_ns, 0, 1e9, false, "ns",
                   "with l1.dec_policy=cancel-poll: how long a ceded vCPU polls before it "
                   "blocks (KVM's halt_poll_ns, virt/kvm/kvm_main.c; the default is x86's "
                   "KVM_HALT_POLL_NS_DEFAULT, 200 us)");
    }
};

// The run loop's steps, in the order kvmhv_run_single_vcpu runs them (docs/l1-kvm-run-loop.md):
// a pass costs their sum. The H_GUEST_RUN_VCPU itself is L0's hcall_entry/hcall_return.
struct l1_costs {
    cost_param prepare_entry{
        800,
        "assumption: kvmhv_run_single_vcpu up to the DTL: kvmppc_update_vpas, preempt and "
        "PMU-irq save, the signal and need_resched checks, kvmppc_core_prepare_to_enter, the "
        "dec_timer cancel; range 400-1600"};
    cost_param guest_state_enter{
        300,
        "assumption: trace_kvm_guest_enter, guest_timing_enter_irqoff, srcu_read_lock, "
        "guest_state_enter_irqoff (context tracking), this_cpu_disable_ftrace; range 150-800"};
    cost_param vcpu_entry{
        300,
        "assumption: kvmhv_p9_guest_entry up to the flush: vcpu_vpa_increment_dispatch, "
        "kvmppc_msr_hard_disable_set_facilities (an mtmsrd), lazy_irq_pending; range 150-800"};
    cost_param vcpu_exit{
        200,
        "assumption: after H_GUEST_RUN_VCPU: accumulate_time, the message reset and "
        "timer_rearm_host_dec (an mtDEC); range 100-500"};
    cost_param pmu_to_guest{270,
                            "sourced: nestedv1 only (switch_pmu_to_guest): half of the "
                            "~540-cycle PMU save of a nested-capable entry/exit "
                            "(get-state-deduction.md §5)"};
    cost_param pmu_to_host{270,
                           "sourced: nestedv1 only (switch_pmu_to_host): half of the "
                           "~540-cycle PMU save of a nested-capable entry/exit "
                           "(get-state-deduction.md §5)"};
    cost_param guest_state_exit{
        400,
        "assumption: this_cpu_enable_ftrace, guest_state_exit_irqoff, srcu_read_unlock, the "
        "irq restore, guest_timing_exit_irqoff, PMU-irq restore, preempt_enable; range "
        "200-1000"};
    cost_param trace_exit{
        400,
        "assumption: the kvm_guest_exit tracepoint with a perf counting event attached; range "
        "200-1000"};
    cost_param pass_end{
        500,
        "assumption: after handle_exit: the RESUME_GUEST check, kvmppc_vcpu_check_block and the "
        "loop in kvmppc_vcpu_run_hv; range 250-1000"};
    cost_param gsb_element{40, "assumption: kvmppc_gse_put/parse of one element"};
    cost_param handle_exit{2000, "assumption: kvmppc_handle_exit_hv switch, counters and tracing"};
    cost_param mmio_emulate{
        8000,
        "assumption: kvmppc_hv_emulate_mmio: instruction decode, kvmppc_emulate_loadstore and "
        "the in-kernel device's handling (an ioeventfd kick); range 3000-30000"};
    cost_param ipi_emulate{
        3000,
        "assumption: kvmppc_h_ipi: ICP lookup and MFRR update under its lock, "
        "kvmppc_book3s_queue_irqprio and kvmppc_fast_vcpu_kick_hv with its host IPI (a XIVE "
        "ESB store); range 1500-8000"};
    cost_param icp_hcall{1000,
                         "assumption: kvmppc_h_xirr / kvmppc_h_eoi / an H_IPI that clears the "
                         "MFRR: an ICP state update; range 500-3000"};
    // A KVM_EXIT_MMIO round trip to the VMM in L1 userspace, in three steps.
    cost_param vmm_exit{4000,
                        "assumption: kvmppc_emulate_mmio returns RESUME_HOST, vcpu_put and the "
                        "KVM_RUN ioctl returns to QEMU (a syscall exit); range 2000-10000"};
    cost_param vmm_dispatch{
        6000,
        "assumption: QEMU's kvm_cpu_exec: the BQL, address_space_rw to the XIVE TIMA/ESB "
        "ops and their state update; range 2000-30000"};
    cost_param vmm_entry{5000,
                         "assumption: KVM_RUN again: syscall entry, vcpu_load, "
                         "kvmppc_complete_mmio_load, kvmppc_vcpu_run_hv; range 2000-15000"};
    cost_param vmm_device_irq{
        6000,
        "assumption: the VMM's device completion on an L1 CPU: QEMU's event loop, the "
        "virtqueue update and the KVM_INTERRUPT ioctl; range 3000-20000"};
    cost_param host_ipi{2000,
                        "assumption: an L1 CPU's IPI interrupt: XIVE ack, smp_ipi_demux, a "
                        "reschedule, return; range 1000-5000"};
    cost_param cede{300, "assumption: kvmppc_cede sets MSR[EE] and ceded"};
    cost_param set_timer{600, "assumption: hrtimer_start"};
    cost_param block{3000, "assumption: schedule() out of the vCPU thread"};
    cost_param wake{4000,
                    "assumption: hrtimer expiry, kvmppc_decrementer_func, wake-up and schedule() "
                    "in"};
    cost_param timer_interrupt{1500,
                               "assumption: timer_interrupt entry, hrtimer dispatch and exit; the "
                               "same Linux path as l2.costs.timer_interrupt"};
    cost_param tick{2000, "assumption: scheduler tick on an L1 CPU"};

    static void describe(param_list<l1_costs>& p) {
        using c = l1_costs;
        p.add_cost("prepare_entry", &c::prepare_entry, "the run loop up to the guest entry");
        p.add_cost("guest_state_enter", &c::guest_state_enter, "guest_state_enter_irqoff");
        p.add_cost("vcpu_entry", &c::vcpu_entry, "kvmhv_p9_guest_entry up to the flush");
        p.add_cost("vcpu_exit", &c::vcpu_exit, "kvmhv_vcpu_entry_nestedv2 after the hcall");
        p.add_cost("pmu_to_guest", &c::pmu_to_guest, "switch_pmu_to_guest");
        p.add_cost("pmu_to_host", &c::pmu_to_host, "switch_pmu_to_host");
        p.add_cost("guest_state_exit", &c::guest_state_exit, "guest_state_exit_irqoff");
        p.add_cost("trace_exit", &c::trace_exit, "the kvm_guest_exit tracepoint");
        p.add_cost("pass_end", &c::pass_end, "the end of one pass of the run loop");
        p.add_cost("gsb_element", &c::gsb_element, "encode or decode one element");
        p.add_cost("handle_exit", &c::handle_exit, "exit handling by reason");
        p.add_cost("mmio_emulate", &c::mmio_emulate, "an emulated MMIO access after an HDSI exit");
        p.add_cost("ipi_emulate", &c::ipi_emulate, "an H_IPI that raises an IPI");
        p.add_cost("icp_hcall", &c::icp_hcall, "an XICS hcall that raises nothing");
        p.add_cost("vmm_exit", &c::vmm_exit, "KVM_EXIT_MMIO: out of KVM_RUN to the VMM");
        p.add_cost("vmm_dispatch", &c::vmm_dispatch, "the VMM's handling of the access");
        p.add_cost("vmm_entry", &c::vmm_entry, "KVM_RUN back into the run loop");
        p.add_cost("vmm_device_irq", &c::vmm_device_irq,
                   "the VMM raising a device interrupt (KVM_INTERRUPT)");
        p.add_cost("host_ipi", &c::host_ipi, "the host IPI's handler");
        p.add_cost("cede", &c::cede, "kvmppc_cede");
        p.add_cost("set_timer", &c::set_timer, "kvmppc_set_timer");
        p.add_cost("block", &c::block, "blocking on the vCPU rcuwait");
        p.add_cost("wake", &c::wake, "timer wake of a blocked vCPU");
        p.add_cost("timer_interrupt", &c::timer_interrupt, "L1 DEC interrupt");
        p.add_cost("tick", &c::tick, "L1 periodic timer interrupt");
    }
};

}  // namespace nestvp
