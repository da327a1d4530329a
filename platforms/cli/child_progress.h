#pragma once
// Progress of child runs (sweep points, compare sides) while they run: each child
// `nestvp run --progress-file PATH` rewrites PATH with "SIM_DONE_S TOTAL_S" a few times a
// second, and the parent reads the files to draw one line with an ETA.
#include <cstddef>
#include <string>

namespace nestvp {

void write_progress_file(const std::string& path, double done_s, double total_s);
// The fraction done in [0, 1]; 0 when the file is absent or unreadable (not started yet).
double read_progress_fraction(const std::string& path);
// "sweep: 2 of 8 points done, 3 running, 41%, ETA 1m05s". `fraction` counts finished points
// as 1 and running ones by their progress; an interrupted point is not done.
std::string children_progress_line(const std::string& what, const std::string& unit, size_t done,
                                   size_t total, size_t running, double fraction, double wall_s);

}  // namespace nestvp
