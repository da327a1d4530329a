#pragma once
// Hand-written SVG figures for --plot (issue 6 item 5): latency histograms (one series per
// run, overlaid when comparing), an exit timeline per vCPU (reason by colour) and sweep line
// charts. Plain SVG 1.1, no scripts, no external resources; every axis names its unit.
// Series carry class/id/data-label attributes so tests (and people) can find them.
#include <string>
#include <vector>

#include "platforms/runner/run_result.h"

namespace nestvp {

struct hist_series {
    std::string label;
    const std::vector<double>* samples = nullptr;
};

// Histogram over common bins (from the smallest sample to the 99.9th percentile of all
// series; larger samples go to the last bin and are noted). x_label includes the unit.
std::string histogram_svg(const std::string& title, const std::string& x_label,
                          const std::vector<hist_series>& series, unsigned bins = 40);

// One row per vCPU, one lane per exit reason; a mark wherever an exit of that reason falls
// in a pixel column. Exits come from run_result::exits (run_options::keep_exit_events).
std::string timeline_svg(const std::string& title, const std::vector<exit_event>& exits,
                         double sim_seconds);

struct line_series {
    std::string label;
    std::vector<double> y;  // one value per x position
};
// A line chart over x positions. If x_numeric, x_values are numbers and positions are
// scaled; otherwise they are categories spaced evenly.
std::string line_chart_svg(const std::string& title, const std::string& x_label,
                           const std::string& y_label, const std::vector<std::string>& x_values,
                           const std::vector<line_series>& series);

// "0x980" for 0x980; names the reason where nested-virtualization.md §2.5 does ("HDEC").
std::string exit_reason_key(unsigned reason);
std::string exit_reason_name(unsigned reason);

// XML text escaping (& < > " ').
std::string xml_escape(const std::string& s);

// Plot data a `compare` child hands to its parent: latency samples and exit events, as text
// ("entry NS", "exit NS", "event T_S VCPU REASON" lines).
std::string plot_data_text(const run_result& r);
// Fills samples and exits of r from plot_data_text output; throws std::runtime_error
// naming `what` and the line on malformed input.
void parse_plot_data(const std::string& text, const std::string& what, run_result& r);

}  // namespace nestvp
