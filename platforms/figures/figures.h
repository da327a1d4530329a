#pragma once
// The --plot figures of run, compare and sweep as gnuplot scripts (gnuplot_script.h): latency
// CDFs (one line per run), stacked bars of each latency path's breakdown, exit rate over time per
// vCPU and sweep line charts. Every axis names its unit; the data come straight from the run
// records, so a test reads them back from the script's data blocks.
#include <string>
#include <vector>

#include "platforms/figures/gnuplot_script.h"
#include "platforms/results/run_result.h"

namespace nestvp {

struct cdf_series {
    std::string label;
    const std::vector<std::pair<double, uint64_t>>* histogram = nullptr;  // latency_report
};
// Cumulative fraction of samples against latency: data block $s<i> per series with samples
// (a step per histogram bin; the last point is at 1). x is log scale when the samples span more
// than 20x. x_label has the unit.
gnuplot_script cdf_figure(const std::string& title, const std::string& x_label,
                          const std::vector<cdf_series>& series);

struct bar_run {
    std::string label;
    const std::vector<latency_step>* steps = nullptr;  // latency_report::breakdown
};
// One bar per run, one segment per step (path order from the bottom, one colour per step across
// runs): data block $bars, a row per run and a column per step (0 where a run lacks the step).
gnuplot_script breakdown_figure(const std::string& title, const std::vector<bar_run>& runs);

// Exits per second over the run, one line per vCPU (from run_result::exits): the timeline's
// bins merged in whole groups to at most `bins` points, so no bin is over- or under-counted.
// The y axis reaches at least y_top, so figures of several runs can share a scale.
gnuplot_script exit_rate_figure(const std::string& title, const exit_bins& exits,
                                double sim_seconds, double y_top = 0, unsigned bins = 100);
// The highest per-vCPU bin rate exit_rate_figure would draw (exits per second).
double max_exit_rate(const exit_bins& exits, double sim_seconds, unsigned bins = 100);

struct line_series {
    std::string label;
    std::vector<double> y;  // one value per x position; NaN leaves a gap
};
// A line chart over x positions: data block $lines, a row per x position (the x value, or its
// index when the x values are not all numbers, then each series' y). Categories are spaced
// evenly and named on the axis. Without points only the lines are drawn. The y axis reaches at
// least y_top.
gnuplot_script line_chart_figure(const std::string& title, const std::string& x_label,
                                 const std::string& y_label,
                                 const std::vector<std::string>& x_values,
                                 const std::vector<line_series>& series, bool points = true,
                                 double y_top = 0);

// A count with a k/M/G suffix from 10,000 up: 950, 12k, 3.5M.
std::string short_number(double v);

}  // namespace nestvp
