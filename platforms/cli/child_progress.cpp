// Progress of child runs.
#include "platforms/cli/child_progress.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <utility>

#include "platforms/processes/progress.h"

namespace nestvp {

void write_progress_file(const std::string& path, double done_s, double total_s) {
    // A new file renamed over the old one: the reader never sees half a line.
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << done_s << ' ' << total_s << '\n';
        if (!out) return;  // progress is best effort
    }
    std::rename(tmp.c_str(), path.c_str());
}

double read_progress_fraction(const std::string& path) {
    std::ifstream in(path);
    double done = 0, total = 0;
    if (!(in >> done >> total) || total <= 0 || done < 0) return 0;
    return std::min(1.0, done / total);
}

std::string children_progress_line(const std::string& what, const std::string& unit, size_t done,
                                   size_t total, size_t running, double fraction, double wall_s) {
    const double f = total ? fraction / static_cast<double>(total) : 0;
    const std::string eta = f > 0 ? format_duration(wall_s * (1 - f) / f) : "?";
    char buf[200];
    std::snprintf(buf, sizeof buf, "%s: %zu of %zu %s done, %zu running, %.0f%%, ETA %s",
                  what.c_str(), done, total, unit.c_str(), running, 100 * f, eta.c_str());
    return buf;
}

children_progress::children_progress(std::string what, std::string unit,
                                     std::vector<std::string> files, bool enabled)
    : m_what(std::move(what)),
      m_unit(std::move(unit)),
      m_files(std::move(files)),
      m_codes(m_files.size(), -1),
      m_enabled(enabled) {}

void children_progress::done(size_t index, int exit_code) {
    m_codes.at(index) = exit_code;
    if (exit_code == 0) ++m_done;
    draw(true);
}

void children_progress::tick() {
    draw(false);
}

void children_progress::finish() {
    if (m_drawn) std::fputs("\n", stderr);
}

void children_progress::draw(bool force) {
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_t0).count();
    if (!m_enabled || (!force && wall - m_last < 0.25)) return;
    m_last = wall;
    double fraction = 0;
    size_t running = 0;
    for (size_t i = 0; i < m_files.size(); ++i) {
        if (m_codes[i] == 0) {
            fraction += 1;
        } else if (m_codes[i] == -1) {
            const double f = read_progress_fraction(m_files[i]);
            if (f > 0) ++running;
            fraction += f;
        }
    }
    const std::string line =
        children_progress_line(m_what, m_unit, m_done, m_files.size(), running, fraction, wall);
    std::fprintf(stderr, "\r%s\x1b[K", line.c_str());
    m_drawn = true;
}

}  // namespace nestvp
