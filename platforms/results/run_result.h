#pragma once
// What one platform run reports (SCC-style statistics plus the nested-virtualization metrics).
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace nestvp {

// One latency distribution, ns. Percentiles are nearest-rank over log-linear bins of 1/64
// octave (docs/nested-entry-exit.md); mean and max are exact.
struct latency_summary {
    uint64_t count = 0;
    double mean = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;
};

// One step of a latency path and the mean time it adds per sample (ns). The steps of a path
// sum to the path's mean.
struct latency_step {
    std::string step;
    double mean_ns = 0;
};

// One latency of the nested path (docs/nested-entry-exit.md, "What each latency measures").
struct latency_report {
    latency_summary all;
    // By exit reason ("0x980 HDEC", "0xc00 H_CEDE", ...); for the timer interrupt latency, by
    // where the vCPU was at the edge ("in L2", "in L0/L1", "blocked in L1").
    std::map<std::string, latency_summary> by_reason;
    std::vector<std::map<std::string, latency_summary>> by_vcpu;  // index: L2 vCPU
    std::vector<latency_step> breakdown;                          // path order
    // The distribution as (bin centre ns, count), ascending: CDFs are drawn from it.
    std::vector<std::pair<double, uint64_t>> histogram;
};

// The latencies, in report order.
inline const std::vector<std::string>& latency_kinds() {
    static const std::vector<std::string> kinds = {
        "nested_entry_latency_ns", "nested_exit_latency_ns",     "l1_handling_latency_ns",
        "round_trip_latency_ns",   "timer_interrupt_latency_ns", "wake_latency_ns",
        "l0_dispatch_latency_ns"};
    return kinds;
}

struct run_metrics {
    uint64_t kvm_guest_exit = 0;  // L1 run-loop passes (kvm_hv:kvm_guest_exit)
    // GET_STATEs a function-entry probe on kvmppc_gsb_recv sees (probe:kvmppc_gsb_recv): those
    // issued outside the guest-state window (docs/measurement-probes.md).
    uint64_t gsb_recv = 0;
    uint64_t h_guest_get_state = 0;  // every H_GUEST_GET_STATE hcall L0 handled
    uint64_t gsb_send = 0;           // H_GUEST_SET_STATE calls
    uint64_t h_guest_run_vcpu = 0;
    uint64_t h_enter_nested = 0;
    std::map<std::string, uint64_t> exits_by_reason;  // "0x980", "0xc00", ... (exits into L0)
    // kvm_guest_exit by its trap, as `hist:keys=trap` counts it in L1: "0x0" (an L2 H_CEDE
    // consumed in L1, or no entry), "0x980 HDEC" (also passes that never entered), ...
    std::map<std::string, uint64_t> kvm_guest_exit_by_trap;
    uint64_t arithoh_count = 0;
    // Keyed by latency_kinds(); a kind with no sample is present with count 0.
    std::map<std::string, latency_report> latencies;
    // Counts per level, keyed "l0.hcalls", "l1.blocks", "l2.timer_interrupts", ...
    std::map<std::string, uint64_t> counters;
    // The same counters per L2 vCPU (index v: L2 vCPU v, its L1 vCPU and hardware thread v);
    // only the ones that are not zero.
    std::vector<std::map<std::string, uint64_t>> vcpu_counters;
};

// Exits per vCPU over simulated time: counts[v][b] in [b * bin_s, (b + 1) * bin_s), from the
// metrics' bounded timeline (sw/metrics/exit_timeline.h).
struct exit_bins {
    double bin_s = 0;
    std::vector<std::vector<uint64_t>> counts;
};

struct run_result {
    double sim_seconds = 0;
    double wall_seconds = 0;
    uint64_t sc_events = 0;  // SystemC timed notifications + process activations
    bool partial = false;    // stopped by a signal before the end
    run_metrics metrics;
    exit_bins exits;  // exits per vCPU over time, kept only when a plot is asked for
};

}  // namespace nestvp
