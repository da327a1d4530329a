#include "platforms/cli/trace_outputs.h"

#include <systemc>

#include "platforms/cli/cli_outputs.h"
#include "platforms/cli/cli_parse.h"

namespace nestvp {
namespace {

std::pair<double, double> window_of(const std::string& flag, const std::string& text,
                                    const std::string& needs, const std::string& file,
                                    double duration_s) {
    const std::pair<double, double> w = output_window(flag, text, needs, file);
    if (!text.empty()) check_window_start(flag, w.first, duration_s);
    return w;
}

}  // namespace

trace_outputs::trace_outputs(const trace_output_args& a, const platform_config& cfg) : m_args(a) {
    m_perf_window = window_of("--perf-window", a.perf_window, "--perf-script FILE", a.perf_script,
                              cfg.run.duration_s);
    m_events_window = window_of("--trace-events-window", a.trace_events_window,
                                "--trace-events FILE", a.trace_events, cfg.run.duration_s);
}

bool trace_outputs::prepare() const {
    return prepare_output_file("run", "--perf-script", m_args.perf_script) &&
           prepare_output_file("run", "--trace-events", m_args.trace_events);
}

std::vector<probe_observer*> trace_outputs::observers(const platform_config& cfg) {
    std::vector<probe_observer*> out;
    const trace_clock clock(cfg.machine.core.tb_freq_hz,
                            1.0 / sc_core::sc_get_time_resolution().to_seconds());
    if (!m_args.perf_script.empty()) {
        m_perf =
            std::make_unique<perf_script_writer>(clock, m_perf_window.first, m_perf_window.second);
        out.push_back(m_perf.get());
    }
    if (!m_args.trace_events.empty()) {
        m_events = std::make_unique<trace_event_writer>(clock, cfg.l2.vcpus, m_events_window.first,
                                                        m_events_window.second);
        out.push_back(m_events.get());
    }
    return out;
}

bool trace_outputs::write(const std::string& platform) const {
    bool ok = true;
    if (m_perf)
        ok = write_one("run", m_args.perf_script, [&] { return m_perf->text(platform); }) && ok;
    if (m_events)
        ok = write_one("run", m_args.trace_events, [&] { return m_events->text(platform); }) && ok;
    return ok;
}

}  // namespace nestvp
