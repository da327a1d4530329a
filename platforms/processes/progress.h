#pragma once
// The progress line of a long run: simulated time done, rate and ETA.
// Shown on stderr only after about 2 s of wall time, only on a TTY, never with --quiet;
// the caller decides where it goes, this class decides what it says and when.
#include <string>

namespace nestvp {

// "0.8 s", "42 s", "3m05s", "1h02m".
std::string format_duration(double seconds);

class progress_meter {
public:
    explicit progress_meter(double total_sim_s, double delay_wall_s = 2.0,
                            double redraw_wall_s = 0.25)
        : m_total(total_sim_s), m_delay(delay_wall_s), m_redraw(redraw_wall_s) {}
    // The line to show now, or an empty string while wall_elapsed_s < the delay or less than
    // the redraw interval has passed since the last line (a terminal needs ~4 updates a second,
    // not one per progress poll).
    std::string update(double sim_done_s, double wall_elapsed_s);
    bool shown() const { return m_shown; }

private:
    double m_total, m_delay, m_redraw;
    double m_last = 0;  // wall time of the last line
    bool m_shown = false;
};

}  // namespace nestvp
