#pragma once
// What one platform run reports (SCC-style statistics plus the nested-virtualization metrics).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace nestvp {

struct latency_summary {
    uint64_t count = 0;
    double p50 = 0, p99 = 0, max = 0;  // ns
};

struct run_metrics {
    uint64_t kvm_guest_exit = 0;  // L1 run-loop passes (kvm_hv:kvm_guest_exit)
    uint64_t gsb_recv = 0;        // H_GUEST_GET_STATE calls (probe:kvmppc_gsb_recv)
    uint64_t gsb_send = 0;        // H_GUEST_SET_STATE calls
    uint64_t h_guest_run_vcpu = 0;
    uint64_t h_enter_nested = 0;
    std::map<std::string, uint64_t> exits_by_reason;  // "0x980", "0xc00", ...
    uint64_t arithoh_count = 0;
    latency_summary nested_entry_latency_ns;
    latency_summary nested_exit_latency_ns;
    std::vector<double> nested_entry_samples_ns;  // for histograms; not written to JSON
    std::vector<double> nested_exit_samples_ns;
    // Counts per level, keyed "l0.hcalls", "l1.blocks", "l2.timer_interrupts", ...
    std::map<std::string, uint64_t> counters;
    // The same counters per L2 vCPU (index v: L2 vCPU v, its L1 vCPU and hardware thread v);
    // only the ones that are not zero.
    std::vector<std::map<std::string, uint64_t>> vcpu_counters;
};

// One exit as seen from L1, for timelines: when, which vCPU, which reason.
struct exit_event {
    double t_s;
    unsigned vcpu;
    unsigned reason;
};

struct run_result {
    double sim_seconds = 0;
    double wall_seconds = 0;
    uint64_t sc_events = 0;  // SystemC timed notifications + process activations
    bool partial = false;    // interrupted (SIGINT) before the end
    run_metrics metrics;
    std::vector<exit_event> exits;  // kept only when a plot is asked for
};

}  // namespace nestvp
