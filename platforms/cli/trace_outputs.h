#pragma once
// The trace files of `nestvp run`: --perf-script (perf-format tracepoints, docs/perf-script.md)
// and --trace-events (a Perfetto timeline, docs/trace-events.md), each with its window. The
// writers observe the run's probe; their files are written after the run, partial or not.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "platforms/config/platform_config.h"
#include "platforms/traces/perf_script_writer.h"
#include "platforms/traces/trace_event_writer.h"

namespace nestvp {

struct trace_output_args {
    std::string perf_script, perf_window, trace_events, trace_events_window;
};

class trace_outputs {
public:
    // Checks the windows (usage_error naming the flag); writes nothing yet.
    trace_outputs(const trace_output_args& a, const platform_config& cfg);
    // Checks before the run that each file can be written; false (said on stderr) if not.
    bool prepare() const;
    // The writers, created now (the SystemC time resolution is fixed by then).
    std::vector<probe_observer*> observers(const platform_config& cfg);
    // Writes each file; false (said on stderr) if one could not be written.
    bool write(const std::string& platform) const;

private:
    trace_output_args m_args;
    std::pair<double, double> m_perf_window{0.0, -1.0}, m_events_window{0.0, -1.0};
    std::unique_ptr<perf_script_writer> m_perf;
    std::unique_ptr<trace_event_writer> m_events;
};

}  // namespace nestvp
