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
#include "sw/probes/nested_probe.h"
#include "sw/probes/probe_events.h"

namespace nestvp {

// An observer of the nested probe (sw/probes/nested_probe.h), bound by the platform: what the
// software and hardware announce becomes counters, exits by vector and trap, path steps and
// latencies, and the exit timeline.
class nested_metrics final : public probe_observer {
public:
    // units_per_ns: SystemC time-value units per ns (the path recorder's clock).
    explicit nested_metrics(unsigned threads = 0, double units_per_ns = 1000.0)
        : m_per_thread(threads), m_paths(threads, units_per_ns), m_get_state_caller(threads) {}

    // probe_observer
    void on_count(counter c, unsigned thread, uint64_t n) override { add(c, thread, n); }
    void on_step(unsigned thread, path_step s, uint64_t t) override { m_paths.mark(thread, s, t); }
    void on_latency(latency_kind k, unsigned thread, uint32_t reason, uint64_t t0, uint64_t t1,
                    uint64_t skip) override {
        m_paths.sample(k, thread, reason, t0, t1, skip);
    }
    void on_timer_interrupt(unsigned thread, uint64_t edge, uint64_t handler_start) override;
    void on_get_state_begin(unsigned thread, uint64_t t) override;
    void on_get_state_end(unsigned thread, uint64_t t) override;
    void on_hcall(unsigned, uint64_t number) override { add_hcall(number); }
    void on_exit_vector(unsigned, uint32_t vector) override { add_exit(vector); }
    void on_guest_exit_tracepoint(unsigned, uint32_t trap) override { add_guest_exit(trap); }
    void on_run_returned(unsigned thread, double t_s) override { record_exit(t_s, thread); }

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
    std::vector<path_step> m_get_state_caller;  // the step a GET_STATE interrupted, per thread
    exit_timeline m_timeline;
};

}  // namespace nestvp
