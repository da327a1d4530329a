#pragma once
// The parameters of the L2 guest kernel (l2_kernel.h): its tick, idle and device behaviour,
// mounted at `l2.`, and the costs of its paths, mounted at `l2.costs.`.
#include <string>

#include "models/params.h"

namespace nestvp {

struct l2_config {
    unsigned hz = 100;      // periodic tick while busy
    bool nohz_idle = true;  // idle vCPUs program the next timer event only
    // L2 registered a dispatch trace log: every entry reads NIA for the DTL entry
    // (kvmppc_update_vpa_dispatch_p9, nested-virtualization.md §2.5).
    bool dtl = true;
    double housekeeping_hz = 2.0;  // timer events per second on an idle vCPU
    // The pseries idle states (cpuidle-pseries.c shared_states): snooze, then Shared Cede.
    bool snooze = true;
    double cede_target_residency_us = 100;  // also snooze_timeout
    double cede_exit_latency_us = 10;
    // The decrementer clockevent's minimum delta in TB ticks: time.c registers it with
    // clockevents_config_and_register(dec, ppc_tb_freq, 2, decrementer_max) (§6).
    unsigned clockevent_min_delta = 2;
    // Every vCPU idled (one Shared Cede) before its work started, as a booted guest's vCPUs have:
    // what L1 queued for a vCPU then (a DEC) is there when the run starts.
    bool booted_idle = false;
    // The interrupt controller the guest drives (docs/interrupt-controller.md):
    // emulated-xive (the VMM's XIVE in L1 userspace: TIMA and ESB accesses are HDSI exits) or
    // in-kernel-xics (KVM's ICP: H_XIRR, H_EOI, H_IPI hcalls).
    std::string irqchip = "in-kernel-xics";
    // Device interrupts per second in all, raised by the VMM: a multi-queue device's managed
    // vectors, queue i on vCPU i. vCPU 0 sends IPIs to the others in turn at ipi_hz.
    double devices_irq_hz = 0;
    double devices_ipi_hz = 0;

    static void describe(param_list<l2_config>& p) {
        using c = l2_config;
        p.add_uint("hz", &c::hz, 1, 10000, "Hz", "L2 periodic tick while busy");
        p.add_bool("nohz_idle", &c::nohz_idle,
                   "idle vCPUs program only the next timer event (NO_HZ)");
        p.add_bool("dtl", &c::dtl,
                   "L2 registered a dispatch trace log: each entry reads NIA "
                   "(kvmppc_update_vpa_dispatch_p9, nested-virtualization.md §2.5)");
        p.add_real("housekeeping_hz", &c::housekeeping_hz, 0, 10000, false, "Hz",
                   "housekeeping timer events per second on an idle vCPU");
        p.add_bool("snooze", &c::snooze,
                   "the pseries idle loop may snooze (spin at low SMT priority, no exit) before "
                   "Shared Cede (cpuidle-pseries.c); false: every idle period cedes");
        p.add_real("cede_target_residency_us", &c::cede_target_residency_us, 0, 1e6, true, "us",
                   "Shared Cede target residency; also the snooze timeout "
                   "(cpuidle-pseries.c shared_states: 100 us)");
        p.add_real("cede_exit_latency_us", &c::cede_exit_latency_us, 0, 1e6, false, "us",
                   "Shared Cede exit latency, the governor's latency bound "
                   "(cpuidle-pseries.c shared_states: 10 us)");
        p.add_uint("clockevent_min_delta", &c::clockevent_min_delta, 1, 1e9, "ticks",
                   "the shortest DEC event the guest programs (arch/powerpc/kernel/time.c "
                   "registers the decrementer clockevent with a minimum of 2 ticks, "
                   "timer-facilities.md §6)");
        p.add_bool("booted_idle", &c::booted_idle,
                   "every vCPU cedes once before its work starts, as after a boot: state L1 "
                   "queued then (a DEC) is there at the start of the run");
        p.add_text("irqchip", &c::irqchip, {"emulated-xive", "in-kernel-xics"},
                   "the guest's interrupt controller: the VMM's XIVE in L1 userspace (each TIMA "
                   "or ESB access an HDSI exit) or KVM's in-kernel XICS (hcalls)");
        p.add_real("devices.irq_hz", &c::devices_irq_hz, 0, 1e6, false, "Hz",
                   "device interrupts per second over all vCPUs, raised by the VMM in L1 (a "
                   "multi-queue device: queue i's vector on vCPU i, docs/interrupt-controller.md)");
        p.add_real("devices.ipi_hz", &c::devices_ipi_hz, 0, 1e6, false, "Hz",
                   "IPIs per second from the device interrupt's vCPU to the other vCPUs in "
                   "turn; >0 turns run.run_ahead off (docs/ipi.md)");
    }
};

struct l2_costs {
    cost_param interrupt_entry{
        300,
        "assumption: exception entry, the prolog's register save (exceptions-64s.S "
        "EXCEPTION_PROLOG, interrupt_64.S) and the pipeline refill; range 150-800"};
    cost_param timer_interrupt{
        1500, "assumption: timer_interrupt entry, clockevent handler dispatch, exit"};
    cost_param tick{3000, "assumption: scheduler tick, RCU and accounting"};
    cost_param device_event{5000,
                            "assumption: a device driver's work around one MMIO store (a virtio "
                            "notify); range 1000-20000"};
    cost_param ipi_handler{3000,
                           "assumption: the IPI's action past its three hcalls: smp_ipi_demux, "
                           "scheduler_ipi and irq entry/exit; range 1500-8000"};
    cost_param housekeeping{20000,
                            "assumption: a short timer callback (vmstat, RCU, writeback timer)"};
    cost_param idle_enter{6000, "assumption: cpuidle, NO_HZ stop-tick and the cede path"};
    cost_param idle_exit{4000, "assumption: return from H_CEDE, tick restart, need_resched check"};
    cost_param set_dec{100, "assumption: mtspr DEC and bookkeeping"};

    static void describe(param_list<l2_costs>& p) {
        using c = l2_costs;
        p.add_cost("interrupt_entry", &c::interrupt_entry,
                   "taking an interrupt into an L2 handler: entry, register save, refill");
        p.add_cost("timer_interrupt", &c::timer_interrupt, "L2 DEC interrupt");
        p.add_cost("tick", &c::tick, "periodic tick work");
        p.add_cost("device_event", &c::device_event,
                   "device work that ends in a store to emulated MMIO");
        p.add_cost("ipi_handler", &c::ipi_handler, "an L2 IPI's handler");
        p.add_cost("housekeeping", &c::housekeeping, "one housekeeping timer");
        p.add_cost("idle_enter", &c::idle_enter, "idle entry up to H_CEDE");
        p.add_cost("idle_exit", &c::idle_exit, "after H_CEDE returns");
        p.add_cost("set_dec", &c::set_dec, "programming the clockevent");
    }
};

}  // namespace nestvp
