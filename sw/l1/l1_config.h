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

struct l1_costs {
    cost_param run_loop_pass{6000,
                             "assumption: kvmhv_run_single_vcpu outside hcalls, tracing enabled"};
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
        p.add_cost("run_loop_pass", &c::run_loop_pass, "one pass of the run loop");
        p.add_cost("gsb_element", &c::gsb_element, "encode or decode one element");
        p.add_cost("handle_exit", &c::handle_exit, "exit handling by reason");
        p.add_cost("mmio_emulate", &c::mmio_emulate, "an emulated MMIO access after an HDSI exit");
        p.add_cost("ipi_emulate", &c::ipi_emulate, "an H_IPI that raises an IPI");
        p.add_cost("icp_hcall", &c::icp_hcall, "an XICS hcall that raises nothing");
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
