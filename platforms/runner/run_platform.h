#pragma once
// Builds the machine a platform describes, runs it for run.duration_s and reports.
// SystemC elaborates once per process: call this at most once per process.
#include <functional>
#include <vector>

#include "platforms/config/platform_config.h"
#include "platforms/results/run_result.h"
#include "sw/probes/nested_probe.h"

namespace nestvp {

struct run_options {
    bool keep_exit_events = false;  // fill run_result::exits (for timelines)
    // Called about every progress_interval_s of simulated time with the simulated seconds done.
    std::function<void(double sim_done_s)> on_progress;
    double progress_interval_s = 0.1;
    // Polled at the same points; returning true stops the run early (marked partial).
    std::function<bool()> should_stop;
    // Trace writers (platforms/traces), bound beside the metrics; they turn tracepoints on.
    std::vector<probe_observer*> trace_observers;
};

// Whether exact run-ahead is used: run.run_ahead, and no IPIs (l2.devices.ipi_hz = 0).
inline bool run_ahead_applies(const platform_config& cfg) {
    return cfg.run.run_ahead && cfg.l2.devices_ipi_hz <= 0;
}

run_result run_platform(const platform_config& cfg, const run_options& opts = {});

}  // namespace nestvp
