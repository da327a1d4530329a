// Progress line for long runs.
#include "platforms/processes/progress.h"

#include <cmath>
#include <cstdio>

namespace nestvp {

std::string format_duration(double s) {
    if (!std::isfinite(s) || s < 0) return "?";
    char buf[32];
    if (s < 10) {
        std::snprintf(buf, sizeof buf, "%.1f s", s);
    } else if (s < 60) {
        std::snprintf(buf, sizeof buf, "%.0f s", s);
    } else if (s < 3600) {
        const long t = std::lround(s);
        std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
    } else {
        const long t = std::lround(s / 60);
        std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 60, t % 60);
    }
    return buf;
}

std::string progress_meter::update(double sim_done_s, double wall_elapsed_s) {
    if (wall_elapsed_s < m_delay) return {};
    if (m_shown && wall_elapsed_s - m_last < m_redraw) return {};
    m_shown = true;
    m_last = wall_elapsed_s;
    const double rate = wall_elapsed_s > 0 ? sim_done_s / wall_elapsed_s : 0;
    const double pct = m_total > 0 ? 100.0 * sim_done_s / m_total : 0;
    char buf[160];
    if (rate > 0) {
        std::snprintf(buf, sizeof buf,
                      "simulated %.2f s of %.2f s (%.0f%%), %.2f sim s/wall s, ETA %s", sim_done_s,
                      m_total, pct, rate, format_duration((m_total - sim_done_s) / rate).c_str());
    } else {
        std::snprintf(buf, sizeof buf, "simulated %.2f s of %.2f s (%.0f%%), ETA ?", sim_done_s,
                      m_total, pct);
    }
    return buf;
}

}  // namespace nestvp
