#include "platforms/config/cost_catalog.h"

#include <stdexcept>

namespace nestvp {

namespace {
// P9 = N. Piggin, "KVM: PPC: Book3S HV P9: entry/exit optimisations" (nested-virtualization.md §9):
// native KVM-HV NULL hcall entry+exit about 4,700 cycles after the series.
const char* const p9_null_hcall =
    "P9 NULL-hcall entry+exit ~4700 cycles, split in halves (nested-virtualization.md §9)";
}  // namespace

const std::vector<cost_def>& cost_catalog() {
    static const std::vector<cost_def> catalog = {
        // L0 firmware (PowerVM-like). Entry and exit are sums of these steps times what each
        // carries (docs/nested-entry-exit.md); no cost stands for a whole entry or exit.
        {"l0", "hcall_entry", 2350, p9_null_hcall, "sc 1 from L1 into L0: trap, save, dispatch"},
        {"l0", "hcall_return", 2350, p9_null_hcall, "return from L0 to L1 after an hcall"},
        {"l0",
         "gsb_element",
         60,
         "assumption: a bounds check, a table lookup and a 64-bit copy",
         "read and validate, or compose, one guest state buffer element",
         {20, 200}},
        {"l0",
         "gsb_byte",
         1,
         "assumption: a checked copy moves about one byte per cycle",
         "one byte of a guest state buffer (or v1 hv_guest_state/pt_regs) moved",
         {0, 4}},
        {"l0",
         "reg_move",
         10,
         "assumption: a ld/std of a GPR is ~1-2 cycles, an mtspr/mfspr of a context SPR 10-40",
         "one register between L0's copy of the L2 state and the thread",
         {2, 40}},
        {"l0",
         "partition_switch",
         1500,
         "assumption: LPIDR, PIDR, LPCR and TB offset writes with the isync/ptesync they need; "
         "the sync alone was ~300 cycles of the P9 entry/exit (nested-virtualization.md §9)",
         "switching the thread between the L1 and the L2 partition (each way)",
         {500, 5000}},
        {"l0",
         "timer_write",
         40,
         "assumption: mtDEC/mtHDEC, a non-serialising SPR write",
         "one DEC or HDEC write through the timer unit",
         {10, 200}},
        {"l0",
         "return_to_guest",
         300,
         "assumption: hrfid and the pipeline refill",
         "hrfid from L0 into L2",
         {100, 1000}},
        {"l0",
         "exit_interrupt",
         500,
         "assumption: HV interrupt entry: HSRR0/1, vector fetch, scratch registers saved",
         "an L2 interrupt into L0 (HDEC, hcall, HDSI, ...)",
         {200, 2000}},
        {"l0",
         "get_state",
         1500,
         "assumption: hcall dispatch plus buffer lookup",
         "H_GUEST_GET_STATE handling, excluding elements",
         {500, 5000}},
        {"l0",
         "set_state",
         1500,
         "assumption: hcall dispatch plus buffer lookup",
         "H_GUEST_SET_STATE handling, excluding elements",
         {500, 5000}},
        {"l0",
         "guest_create",
         50000,
         "assumption: one-time set-up, not on any measured path",
         "H_GUEST_CREATE / CREATE_VCPU / DELETE",
         {10000, 500000}},
        {"l0",
         "cede",
         1000,
         "assumption: L0 marks the virtual processor idle",
         "H_CEDE from an L1 vCPU: give up the thread",
         {300, 5000}},
        {"l0",
         "prod",
         3000,
         "assumption: wake-up IPI delivery to a ceded virtual processor",
         "waking a ceded L1 vCPU",
         {1000, 10000}},
        // L1 KVM host
        {"l1", "run_loop_pass", 6000,
         "assumption: kvmhv_run_single_vcpu outside hcalls, tracing enabled",
         "one pass of the run loop"},
        {"l1", "gsb_element", 40, "assumption: kvmppc_gse_put/parse of one element",
         "encode or decode one element"},
        {"l1", "handle_exit", 2000,
         "assumption: kvmppc_handle_exit_hv switch, counters and tracing",
         "exit handling by reason"},
        {"l1", "mmio_emulate", 8000,
         "assumption: kvmppc_hv_emulate_mmio: instruction decode, kvmppc_emulate_loadstore and "
         "the in-kernel device's handling (an ioeventfd kick); range 3000-30000",
         "an emulated MMIO access after an HDSI exit"},
        {"l1", "ipi_emulate", 3000,
         "assumption: kvmppc_h_ipi: ICP lookup and MFRR update under its lock, "
         "kvmppc_book3s_queue_irqprio and kvmppc_fast_vcpu_kick_hv with its host IPI (a XIVE "
         "ESB store); range 1500-8000",
         "an H_IPI that raises an IPI"},
        {"l1", "icp_hcall", 1000,
         "assumption: kvmppc_h_xirr / kvmppc_h_eoi / an H_IPI that clears the MFRR: an ICP "
         "state update; range 500-3000",
         "an XICS hcall that raises nothing"},
        {"l1", "host_ipi", 2000,
         "assumption: an L1 CPU's IPI interrupt: XIVE ack, smp_ipi_demux, a reschedule, "
         "return; range 1000-5000",
         "the host IPI's handler"},
        {"l1", "cede", 300, "assumption: kvmppc_cede sets MSR[EE] and ceded", "kvmppc_cede"},
        {"l1", "set_timer", 600, "assumption: hrtimer_start", "kvmppc_set_timer"},
        {"l1", "block", 3000, "assumption: schedule() out of the vCPU thread",
         "blocking on the vCPU rcuwait"},
        {"l1", "wake", 4000,
         "assumption: hrtimer expiry, kvmppc_decrementer_func, wake-up and schedule() in",
         "timer wake of a blocked vCPU"},
        {"l1", "timer_interrupt", 1500,
         "assumption: timer_interrupt entry, hrtimer dispatch and exit; the same Linux path as "
         "l2.costs.timer_interrupt",
         "L1 DEC interrupt"},
        {"l1", "tick", 2000, "assumption: scheduler tick on an L1 CPU",
         "L1 periodic timer interrupt"},
        // L2 guest kernel
        {"l2", "timer_interrupt", 1500,
         "assumption: timer_interrupt entry, clockevent handler dispatch, exit",
         "L2 DEC interrupt"},
        {"l2", "tick", 3000, "assumption: scheduler tick, RCU and accounting",
         "periodic tick work"},
        {"l2", "device_event", 5000,
         "assumption: a device driver's work around one MMIO store (a virtio notify); range "
         "1000-20000",
         "device work that ends in a store to emulated MMIO"},
        {"l2", "ipi_handler", 3000,
         "assumption: the IPI's action past its three hcalls: smp_ipi_demux, scheduler_ipi "
         "and irq entry/exit; range 1500-8000",
         "an L2 IPI's handler"},
        {"l2", "housekeeping", 20000,
         "assumption: a short timer callback (vmstat, RCU, writeback timer)",
         "one housekeeping timer"},
        {"l2", "idle_enter", 6000, "assumption: cpuidle, NO_HZ stop-tick and the cede path",
         "idle entry up to H_CEDE"},
        {"l2", "idle_exit", 4000,
         "assumption: return from H_CEDE, tick restart, need_resched check",
         "after H_CEDE returns"},
        {"l2", "set_dec", 100, "assumption: mtspr DEC and bookkeeping",
         "programming the clockevent"},
        // Workloads
        {"workload", "arithoh_iteration", 9,
         "derived: reference-result.md cancel run, 340.3 M iterations/s at 3.0 GHz -> 8.8 cycles",
         "one arithoh loop iteration"},
    };
    return catalog;
}

cost_table default_costs(const std::string& level) {
    cost_table t;
    for (const auto& d : cost_catalog())
        if (d.level == level) t[d.name] = cost_param{d.cycles, d.source, d.range};
    return t;
}

uint64_t cost_cycles(const cost_table& table, const std::string& name) {
    auto it = table.find(name);
    if (it == table.end()) throw std::out_of_range("cost '" + name + "' is not in the cost table");
    return it->second.cycles;
}

}  // namespace nestvp
