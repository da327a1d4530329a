#pragma once
// Hand-written SVG figures for --plot: latency CDFs (one line per run), stacked bars of each
// latency path's breakdown, exit rate over time per vCPU and sweep line charts. Plain SVG 1.1,
// no scripts, no external resources; every axis names its unit and the figure is wide enough
// for its legend. Series carry class/id/data-label attributes so tests (and people) find them.
#include <string>
#include <vector>

#include "platforms/results/run_result.h"

namespace nestvp {

struct cdf_series {
    std::string label;
    const std::vector<std::pair<double, uint64_t>>* histogram = nullptr;  // latency_report
};
// Cumulative fraction of samples against latency, one polyline per series with samples (the
// last point is at 1). x is log scale when the samples span more than 20x. x_label has the unit.
std::string cdf_svg(const std::string& title, const std::string& x_label,
                    const std::vector<cdf_series>& series);

struct bar_run {
    std::string label;
    const std::vector<latency_step>* steps = nullptr;  // latency_report::breakdown
};
// One bar per run, one segment per step (height proportional to its mean ns, path order from
// the bottom), one colour per step across runs.
std::string stacked_bar_svg(const std::string& title, const std::vector<bar_run>& runs);

// Exits per second over the run, one line per vCPU (from run_result::exits): the timeline's
// bins merged in whole groups to at most `bins` points, so no bin is over- or under-counted.
// The y axis reaches at least y_top, so figures of several runs can share a scale.
std::string exit_rate_svg(const std::string& title, const exit_bins& exits, double sim_seconds,
                          double y_top = 0, unsigned bins = 100);
// The highest per-vCPU bin rate exit_rate_svg would draw (exits per second).
double max_exit_rate(const exit_bins& exits, double sim_seconds, unsigned bins = 100);

struct line_series {
    std::string label;
    std::vector<double> y;  // one value per x position
};
// A line chart over x positions. If x_values are all numbers, positions are scaled; otherwise
// they are categories spaced evenly. Without points, only the lines are drawn. The y axis
// reaches at least y_top.
std::string line_chart_svg(const std::string& title, const std::string& x_label,
                           const std::string& y_label, const std::vector<std::string>& x_values,
                           const std::vector<line_series>& series, bool points = true,
                           double y_top = 0);

// XML text escaping (& < > " ').
std::string xml_escape(const std::string& s);

}  // namespace nestvp
