#pragma once
// Progress of child runs (sweep points, compare sides) while they run: each child
// `nestvp run --progress-file PATH` rewrites PATH with "SIM_DONE_S TOTAL_S" a few times a
// second, and the parent reads the files to draw one line with an ETA.
#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace nestvp {

void write_progress_file(const std::string& path, double done_s, double total_s);
// The fraction done in [0, 1]; 0 when the file is absent or unreadable (not started yet).
double read_progress_fraction(const std::string& path);
// "sweep: 2 of 8 points done, 3 running, 41%, ETA 1m05s". `fraction` counts finished points
// as 1 and running ones by their progress; an interrupted point is not done.
std::string children_progress_line(const std::string& what, const std::string& unit, size_t done,
                                   size_t total, size_t running, double fraction, double wall_s);

// The line of a sweep or compare on stderr: finished children count 1, running ones the
// fraction in their progress file; a child that did not exit 0 (interrupted, failed) is not
// done. Draws at most 4 times a second, and only when `enabled` (a terminal, not --quiet).
class children_progress {
public:
    children_progress(std::string what, std::string unit, std::vector<std::string> files,
                      bool enabled);
    void done(size_t index, int exit_code);  // run_children's on_done
    void tick();                             // run_children's on_tick
    void finish();                           // ends the line if one was drawn

private:
    void draw(bool force);
    std::string m_what, m_unit;
    std::vector<std::string> m_files;
    std::vector<int> m_codes;  // -1 while not finished
    size_t m_done = 0;
    bool m_enabled, m_drawn = false;
    double m_last = -1;
    std::chrono::steady_clock::time_point m_t0 = std::chrono::steady_clock::now();
};

}  // namespace nestvp
