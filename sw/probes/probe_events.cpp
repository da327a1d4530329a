#include "sw/probes/probe_events.h"

#include <cstdio>

#include "sw/papr/papr.h"

namespace nestvp {

const char* counter_name(counter c) {
    static const char* const names[] = {"l0.hcalls",
                                        "l0.get_state",
                                        "l0.set_state",
                                        "l0.run_vcpu",
                                        "l0.enter_nested",
                                        "l0.l2_entries",
                                        "l0.immediate_exits",
                                        "l0.gsb_elements_in",
                                        "l0.gsb_elements_out",
                                        "l0.l1_cedes",
                                        "l1.guest_exits",
                                        "l1.early_returns",
                                        "l1.lazy_irq_returns",
                                        "l1.cedes",
                                        "l1.dec_dequeued",
                                        "l1.blocks",
                                        "l1.timer_wakes",
                                        "l1.set_timer",
                                        "l1.cache_reloads",
                                        "l1.get_state_unprobed",
                                        "l1.ticks",
                                        "l1.timer_interrupts",
                                        "l1.halt_poll_successes",
                                        "l1.halt_poll_misses",
                                        "l1.mmio_emulations",
                                        "l1.mmio_gpr_reloads",
                                        "l1.ipis",
                                        "l1.ipi_wakes",
                                        "l1.ipi_kicks",
                                        "l1.icp_hcalls",
                                        "l1.host_ipis",
                                        "l1.device_irqs",
                                        "l1.userspace_mmio",
                                        "l2.timer_interrupts",
                                        "l2.early_timer_interrupts",
                                        "l2.ticks",
                                        "l2.housekeeping",
                                        "l2.cedes",
                                        "l2.snoozes",
                                        "l2.snooze_timeouts",
                                        "l2.device_interrupts",
                                        "l2.irqchip_accesses",
                                        "l2.ipis_sent",
                                        "l2.ipis_skipped_polling",
                                        "l2.ipis_received",
                                        "l2.set_dec"};
    static_assert(sizeof(names) / sizeof(names[0]) == static_cast<unsigned>(counter::count_),
                  "every counter has a name");
    return names[static_cast<unsigned>(c)];
}

const char* path_step_name(path_step s) {
    static const char* const names[] = {"other",
                                        "L0 hcall entry",
                                        "L0 read input",
                                        "L0 load L2 registers",
                                        "L0 switch to L2",
                                        "L0 load DEC/HDEC",
                                        "L0 return to L2",
                                        "L2 running",
                                        "L2 interrupt entry",
                                        "L0 dispatch",
                                        "L0 exit interrupt",
                                        "L0 save L2 registers",
                                        "L0 write output",
                                        "L0 restore L1",
                                        "L0 return to L1",
                                        "L1 parse output",
                                        "L1 kvmppc_cede",
                                        "L1 interrupts",
                                        "L1 DEC policy",
                                        "L1 kvm_guest_exit trace",
                                        "L1 handle_exit",
                                        "L1 set_timer",
                                        "L1 halt poll",
                                        "L1 blocked",
                                        "L1 wake",
                                        "L1 prepare entry",
                                        "L1 DTL entry",
                                        "L1 guest_state_enter",
                                        "L1 vCPU entry",
                                        "L1 flush",
                                        "L1 vCPU exit",
                                        "L1 guest_state_exit",
                                        "L1 pass end",
                                        "L1 exit to VMM",
                                        "L1 VMM dispatch",
                                        "L1 KVM_RUN entry",
                                        "L1 GET_STATE"};
    static_assert(sizeof(names) / sizeof(names[0]) == path_step_count, "every step has a name");
    return names[static_cast<unsigned>(s)];
}

const char* latency_kind_name(latency_kind k) {
    static const char* const names[] = {"nested_entry_latency_ns",    "nested_exit_latency_ns",
                                        "l1_handling_latency_ns",     "round_trip_latency_ns",
                                        "timer_interrupt_latency_ns", "wake_latency_ns",
                                        "l0_dispatch_latency_ns"};
    static_assert(sizeof(names) / sizeof(names[0]) == latency_kind_count, "every kind has a name");
    return names[static_cast<unsigned>(k)];
}

const char* latency_reason_label(uint32_t reason, char (&buf)[32]) {
    switch (reason) {
        case latency_reason::in_l2:
            return "in L2";
        case latency_reason::in_l0_l1:
            return "in L0/L1";
        case latency_reason::blocked_in_l1:
            return "blocked in L1";
        case latency_reason::hrtimer:
            return "hrtimer";
        case latency_reason::by_dec:
            return "by DEC";
        case latency_reason::by_ipi:
            return "by IPI";
        case 0xC00 | latency_reason::cede_flag:
            return "0xc00 H_CEDE";
        default:  // an exit vector: its label from papr.h, the one list of names
            std::snprintf(buf, sizeof(buf), "%s", papr::exit_label(reason).c_str());
            return buf;
    }
}

const char* tracepoint_name(tracepoint p) {
    switch (p) {
        case tracepoint::kvm_guest_enter:
            return "kvm_hv:kvm_guest_enter";
        case tracepoint::kvm_guest_exit:
            return "kvm_hv:kvm_guest_exit";
        case tracepoint::hcall_entry:
            return "powerpc:hcall_entry";
        case tracepoint::hcall_exit:
            return "powerpc:hcall_exit";
        case tracepoint::gsb_recv:
            return "probe:kvmppc_gsb_recv";
        case tracepoint::gsb_buffer:
            return "l0:gsb_buffer";
        case tracepoint::l2_idle_enter:
            return "l2:idle_enter";
        case tracepoint::l2_idle_exit:
            return "l2:idle_exit";
        case tracepoint::count_:
            break;
    }
    return "?";
}

}  // namespace nestvp
