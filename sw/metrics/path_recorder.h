#pragma once
// Where each vCPU's time goes along the nested entry/exit path, and the latencies measured on
// it (docs/nested-entry-exit.md). The software marks the step each vCPU's thread starts at a
// time; a latency is any interval [t0, t1] of one vCPU, split over the steps it crossed. So a
// latency's breakdown sums to its total by construction, and every spread comes from the
// modelled work: nothing is added per sample.
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "sw/metrics/latency_histogram.h"

namespace nestvp {

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

class path_recorder {
public:
    // units_per_ns: time-value units (SystemC resolution) per nanosecond.
    path_recorder(unsigned vcpus, double units_per_ns);

    // `vcpu`'s thread starts step `s` at time value `t` (monotonic per vCPU; earlier is clamped).
    void mark(unsigned vcpu, path_step s, uint64_t t);
    path_step current(unsigned vcpu) const;
    // The step `vcpu` was in at time t, if the log still holds it; path_step::other otherwise.
    path_step step_at(unsigned vcpu, uint64_t t) const;
    // Adds one sample of kind k: the time from t0 to t1 on `vcpu` minus the steps in `excluded`
    // (a bit per path_step). Returns it in ns.
    double sample(latency_kind k, unsigned vcpu, uint32_t reason, uint64_t t0, uint64_t t1,
                  uint64_t excluded = 0);

    struct by_reason {
        uint32_t reason;
        latency_histogram hist;
    };
    unsigned vcpus() const { return static_cast<unsigned>(m_log.size()); }
    const std::vector<by_reason>& histograms(latency_kind k, unsigned vcpu) const {
        return m_hist[static_cast<unsigned>(k)][vcpu];
    }
    // Mean ns per sample spent in each step, over all samples of kind k.
    std::array<double, path_step_count> breakdown(latency_kind k) const;
    uint64_t samples(latency_kind k) const { return m_count[static_cast<unsigned>(k)]; }

    static constexpr uint64_t bit(path_step s) { return uint64_t{1} << static_cast<unsigned>(s); }

private:
    struct entry {
        uint64_t t;
        path_step step;
    };
    static constexpr unsigned log_size = 256;  // marks kept per vCPU (a ring)
    struct vcpu_log {
        std::array<entry, log_size> ring;
        unsigned head = 0;  // next slot
        unsigned size = 0;
        const entry& back(unsigned i) const { return ring[(head + log_size - 1 - i) % log_size]; }
    };

    std::vector<vcpu_log> m_log;
    double m_units_per_ns;
    std::array<std::vector<std::vector<by_reason>>, latency_kind_count> m_hist;
    // Per kind and step, in time units: integers, so the sums do not depend on the order in
    // which vCPUs record (run-ahead changes that order, never the results).
    std::array<std::array<uint64_t, path_step_count>, latency_kind_count> m_step_units{};
    std::array<uint64_t, latency_kind_count> m_count{};
};

}  // namespace nestvp
