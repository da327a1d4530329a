#pragma once
// The typed configuration of one platform run: what a platform file (plus includes and
// --set overrides) resolves to. The YAML schema that fills it is in param_schema.cpp;
// every cost names its source (cost_catalog.h).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace nestvp {

// The plausible range [lo, hi] of an assumed cost (lo > hi: none given).
struct cost_range {
    uint64_t lo = 1, hi = 0;
    bool empty() const { return lo > hi; }
};

// A cost in core cycles, with where the figure comes from ("assumption: ..." if assumed) and,
// for an assumption, its plausible range.
struct cost_param {
    uint64_t cycles = 0;
    std::string source;
    cost_range range;
};
using cost_table = std::map<std::string, cost_param>;

struct machine_config {
    uint64_t core_clock_hz = 3000000000ull;  // 3.0 GHz unless a platform file says otherwise
    uint64_t tb_freq_hz = 512000000ull;      // timer-facilities.md §1
    unsigned cores = 0;                      // 0: as many as the hardware threads need
    // How L1 vCPU threads land on cores: "spread" fills one thread per core first (the Linux
    // scheduler balances busy tasks across cores before siblings), "pack" fills a core first.
    std::string placement = "pack";
    unsigned threads_per_core = 4;  // SMT mode (1..8)
    // Speed of one active thread when k threads of its core are active, k = 1..threads_per_core.
    std::vector<double> smt_speed = {1.0, 0.6, 0.45, 0.35};
    std::string smt_source = "assumption";
    // Share of a thread that a sibling at low SMT priority (HMT_low, a snoozing guest) takes.
    double smt_low_priority_share = 1.0;
    std::string timer_impl = "tlm";  // tlm | rtl | lockstep
    unsigned dec_bits = 56;          // implemented large-decrementer width (§2.1)
    bool large_dec = true;           // LPCR[LD] for the partitions
    // L1 memory (guest state buffers): latency per 128-byte line an access touches.
    double memory_latency_ns = 4.0;
    std::string memory_latency_source =
        "assumption: the buffers stay in the L2 cache; POWER10 L2 hit ~13 cycles at 3 GHz "
        "(range 1-40 ns, L1 hit to L3 miss)";
};

struct l0_config {
    std::string api = "v2";              // v1 (H_ENTER_NESTED) | v2 (H_GUEST_*)
    std::string run_output = "powervm";  // qemu | powervm | powervm-dec-expiry
    cost_table costs;
};

struct l1_config {
    std::string dec_policy = "cancel";  // cancel | no-cancel | clear-on-entry
    unsigned hz = 100;                  // L1 periodic tick; bounds each L2 run through HDEC
    // The kvm_hv:kvm_guest_exit tracepoint is enabled (perf counting it enables it); it reads
    // the L2 PC after every exit (arch/powerpc/kvm/trace_hv.h, nested-virtualization.md §2.5).
    bool trace_guest_exit = true;
    // cancel-poll's polling window before a ceded vCPU blocks (kvm_vcpu_halt).
    double halt_poll_ns = 200000;  // KVM_HALT_POLL_NS_DEFAULT on x86
    cost_table costs;
};

struct l2_config {
    unsigned vcpus = 4;
    unsigned hz = 100;             // periodic tick while busy
    bool nohz_idle = true;         // idle vCPUs program the next timer event only
    double housekeeping_hz = 2.0;  // timer events per second on an idle vCPU
    // The pseries idle states (cpuidle-pseries.c shared_states): snooze, then Shared Cede.
    bool snooze = true;
    double cede_target_residency_us = 100;  // also snooze_timeout
    double cede_exit_latency_us = 10;
    // Device work that stores to emulated MMIO (HDSI exits), on one vCPU.
    double devices_mmio_hz = 0;
    unsigned devices_irq_vcpu = 0;
    // IPIs (H_IPI) the device vCPU sends per second to the others in turn.
    double devices_ipi_hz = 0;
    // L2 registered a dispatch trace log: every entry reads NIA for the DTL entry
    // (kvmppc_update_vpa_dispatch_p9, nested-virtualization.md §2.5).
    bool dtl = true;
    cost_table costs;
};

struct workload_config {
    unsigned arithoh_copies = 1;  // on vCPUs 0..copies-1; the rest are idle
    cost_table costs;             // arithoh_iteration, ...
};

struct run_config {
    double duration_s = 10.0;
    uint64_t seed = 1;
    bool run_ahead = true;  // exact run-ahead of compute segments (docs/local-time.md)
    std::string json_path;  // empty: no JSON file
    std::string csv_path;
    std::string trace_path;  // VCD
    double trace_start_s = 0.0;
    double trace_end_s = -1.0;  // < 0: to the end
    std::string plot_dir;
};

// Where a value comes from (docs/calibration.md): `sourced` (names its source), `assumed` (a
// reason and, for a number, a plausible range), `calibrated` (names the one published figure it
// was set from). The loader also records `unspecified` (a plain value in a file), `set` (--set);
// a key no file mentions is `default`.
struct value_provenance {
    std::string kind;
    std::string source;         // the source, the reason, or the published figure
    std::vector<double> range;  // assumed numbers: [lo, hi]
};

struct platform_config {
    std::string name;
    std::string source_file;
    // Per key, what the loader learned of its value; costs without an entry infer it from
    // their source text (provenance_of, param_schema.h).
    std::map<std::string, value_provenance> provenance;
    machine_config machine;
    l0_config l0;
    l1_config l1;
    l2_config l2;
    workload_config workload;
    run_config run;
};

}  // namespace nestvp
