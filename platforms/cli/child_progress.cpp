// Progress of child runs.
#include "platforms/cli/child_progress.h"

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "platforms/report/progress.h"

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

}  // namespace nestvp
