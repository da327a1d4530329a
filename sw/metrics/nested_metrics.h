#pragma once
// Measurement hooks of the nested machine: counters per level and per hardware thread,
// exits by reason, and per-event timestamps from which nested entry and exit latency
// distributions are computed (path_recorder.h). Hot counters are enum-indexed arrays.
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sw/metrics/exit_timeline.h"
#include "sw/metrics/path_recorder.h"

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

class nested_metrics {
public:
    // units_per_ns: SystemC time-value units per ns (the path recorder's clock).
    explicit nested_metrics(unsigned threads = 0, double units_per_ns = 1000.0)
        : m_per_thread(threads), m_paths(threads, units_per_ns) {}

    void add(counter c, unsigned thread, uint64_t n = 1) {
        m_totals[static_cast<unsigned>(c)] += n;
        if (thread < m_per_thread.size()) m_per_thread[thread][static_cast<unsigned>(c)] += n;
    }
    uint64_t total(counter c) const { return m_totals[static_cast<unsigned>(c)]; }
    uint64_t on_thread(counter c, unsigned thread) const {
        return m_per_thread.at(thread)[static_cast<unsigned>(c)];
    }
    unsigned threads() const { return static_cast<unsigned>(m_per_thread.size()); }

    void add_exit(uint32_t vector) { ++m_exits[vector]; }
    // The kvm_guest_exit tracepoint's trap (trace_hv.h): 0 for an L2 H_CEDE consumed in
    // kvmhv_p9_guest_entry or a lazy-irq return, 0x980 also for a pass that never entered.
    void add_guest_exit(uint32_t trap) { ++m_guest_exit_traps[trap]; }
    const std::map<uint32_t, uint64_t>& guest_exits_by_trap() const { return m_guest_exit_traps; }
    void add_hcall(uint64_t number) { ++m_hcalls[number]; }
    const std::map<uint64_t, uint64_t>& hcalls_by_number() const { return m_hcalls; }
    const std::map<uint32_t, uint64_t>& exits_by_reason() const { return m_exits; }

    // The nested entry/exit path of each vCPU and the latencies measured on it.
    path_recorder& paths() { return m_paths; }
    const path_recorder& paths() const { return m_paths; }

    // Exit timeline (kept only when asked for): exits per vCPU in bounded time bins over a run
    // of `span_s`.
    void keep_exit_timeline(double span_s) { m_timeline = exit_timeline(threads(), span_s); }
    void record_exit(double t_s, unsigned vcpu) {
        if (m_timeline.active()) m_timeline.add(t_s, vcpu);
    }
    const exit_timeline& timeline() const { return m_timeline; }

private:
    using counter_array = std::array<uint64_t, static_cast<unsigned>(counter::count_)>;
    counter_array m_totals{};
    std::vector<counter_array> m_per_thread;
    std::map<uint32_t, uint64_t> m_exits;
    std::map<uint32_t, uint64_t> m_guest_exit_traps;
    std::map<uint64_t, uint64_t> m_hcalls;
    path_recorder m_paths;
    exit_timeline m_timeline;
};

}  // namespace nestvp
