#include "platforms/runner/run_platform.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include <systemc>

#include "models/local_time.h"
#include "platforms/runner/nested_platform.h"
#include "sw/papr/papr.h"

namespace nestvp {

namespace {

latency_summary to_summary(const latency_histogram& h) {
    latency_summary s;
    s.count = h.count();
    s.mean = h.mean();
    s.p50 = h.percentile(0.50);
    s.p90 = h.percentile(0.90);
    s.p99 = h.percentile(0.99);
    s.max = h.max();
    return s;
}

// One latency from the path recorder: all samples, by reason, by vCPU and reason, the
// breakdown in path order (steps that took no time left out) and the histogram.
latency_report to_report(const path_recorder& p, latency_kind k) {
    latency_report r;
    latency_histogram all;
    std::map<std::string, latency_histogram> by_reason;
    r.by_vcpu.resize(p.vcpus());
    char buf[32];
    for (unsigned v = 0; v < p.vcpus(); ++v)
        for (const auto& b : p.histograms(k, v)) {
            const std::string label = latency_reason_label(b.reason, buf);
            all.merge(b.hist);
            by_reason[label].merge(b.hist);
            r.by_vcpu[v][label] = to_summary(b.hist);
        }
    r.all = to_summary(all);
    for (const auto& [label, h] : by_reason) r.by_reason[label] = to_summary(h);
    const auto steps = p.breakdown(k);
    for (unsigned s = 0; s < path_step_count; ++s)
        if (steps[s] > 0)
            r.breakdown.push_back({path_step_name(static_cast<path_step>(s)), steps[s]});
    r.histogram = all.bins();
    return r;
}

void collect(const nested_platform& top, const nested_metrics& m, run_result& r) {
    run_metrics& out = r.metrics;
    out.kvm_guest_exit = m.total(counter::l1_guest_exits);
    // The probe misses the GET_STATEs issued inside kvmhv_p9_guest_entry
    // (docs/measurement-probes.md).
    out.h_guest_get_state = m.total(counter::l0_get_state);
    out.gsb_recv = out.h_guest_get_state - m.total(counter::l1_get_state_unprobed);
    out.gsb_send = m.total(counter::l0_set_state);
    out.h_guest_run_vcpu = m.total(counter::l0_run_vcpu);
    out.h_enter_nested = m.total(counter::l0_enter_nested);
    for (const auto& [vec, n] : m.exits_by_reason()) out.exits_by_reason[papr::exit_label(vec)] = n;
    for (const auto& [trap, n] : m.guest_exits_by_trap())
        out.kvm_guest_exit_by_trap[trap == 0 ? "0x0" : papr::exit_label(trap)] = n;
    out.arithoh_count = top.arithoh_count();
    for (unsigned k = 0; k < latency_kind_count; ++k)
        out.latencies[latency_kind_name(static_cast<latency_kind>(k))] =
            to_report(m.paths(), static_cast<latency_kind>(k));
    for (unsigned c = 0; c < static_cast<unsigned>(counter::count_); ++c)
        out.counters[counter_name(static_cast<counter>(c))] = m.total(static_cast<counter>(c));
    out.vcpu_counters.assign(m.threads(), {});
    for (unsigned t = 0; t < m.threads(); ++t)
        for (unsigned c = 0; c < static_cast<unsigned>(counter::count_); ++c)
            if (const uint64_t n = m.on_thread(static_cast<counter>(c), t))
                out.vcpu_counters[t][counter_name(static_cast<counter>(c))] = n;
    for (const auto& [nr, n] : m.hcalls_by_number())
        out.counters["l0.hcall." + papr::hcall_label(nr)] = n;
    r.exits = {m.timeline().bin_seconds(), m.timeline().counts()};
}

}  // namespace

run_result run_platform(const platform_config& cfg, const run_options& opts) {
    const auto wall_start = std::chrono::steady_clock::now();
    run_result result;
    // The path recorder counts in SystemC time-value units.
    nested_metrics metrics(cfg.l2.vcpus, 1e-9 / sc_core::sc_get_time_resolution().to_seconds());
    if (opts.keep_exit_events) metrics.keep_exit_timeline(cfg.run.duration_s);
    auto top = std::make_unique<nested_platform>("platform", cfg, metrics);
    for (probe_observer* o : opts.trace_observers) top->add_trace_observer(*o);

    // Simulate in slices so that progress can be shown and a stop request honoured.
    const double slice =
        opts.progress_interval_s > 0 ? opts.progress_interval_s : cfg.run.duration_s;
    const sc_core::sc_time end = sc_core::sc_time(cfg.run.duration_s, sc_core::SC_SEC);
    // IPIs wake threads of other cores, which run-ahead's per-core bound does not see
    // (docs/local-time.md, "Limits"): with them it is off.
    if (run_ahead_applies(cfg))
        // Never past the end: the metrics stop there. A trace is written in time order, so
        // it keeps all threads in step (global bound).
        local_time::enable(end, cfg.run.trace_path.empty() ? local_time::bound_mode::per_core
                                                           : local_time::bound_mode::global);
    else
        local_time::disable();
    while (sc_core::sc_time_stamp() < end) {
        sc_core::sc_time step(slice, sc_core::SC_SEC);
        if (sc_core::sc_time_stamp() + step > end) step = end - sc_core::sc_time_stamp();
        sc_core::sc_start(step);
        if (opts.on_progress) opts.on_progress(sc_core::sc_time_stamp().to_seconds());
        if (opts.should_stop && opts.should_stop()) {
            result.partial = true;
            break;
        }
    }
    local_time::disable();
    result.sim_seconds = sc_core::sc_time_stamp().to_seconds();
    collect(*top, metrics, result);
    result.sc_events = sc_core::sc_delta_count();
    for (unsigned i = 0; i < top->cores(); ++i)
        result.metrics.counters["machine.busy_thread_ms"] +=
            static_cast<uint64_t>(std::llround(top->core_of(i).busy_thread_seconds() * 1e3));
    result.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    return result;
}

}  // namespace nestvp
