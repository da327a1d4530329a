// --plot figures: latency CDFs, breakdown bars, exit rates, sweep line charts.
#include "platforms/figures/figures.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "platforms/report/tables.h"

namespace nestvp {

namespace {

constexpr int k_width = 900, k_height = 450;

// The settings every chart shares: the key beside the plot, a light grid, the axis labels.
gnuplot_script chart(const std::string& title, const std::string& x_label,
                     const std::string& y_label) {
    gnuplot_script g(title, k_width, k_height);
    g.line("set key outside right top");
    g.line("set grid lc rgb \"#dddddd\"");
    g.line("set xlabel " + gp_quote(x_label));
    g.line("set ylabel " + gp_quote(y_label));
    return g;
}

// The timeline's bins over [0, tmax) merged `group` at a time into at most `bins` points.
struct merged_rates {
    double width = 1;                       // seconds per point
    std::vector<std::vector<double>> rate;  // [vCPU][point], exits per second
    std::vector<uint64_t> total;            // exits per vCPU
};

merged_rates merge_bins(const exit_bins& exits, double sim_seconds, unsigned bins) {
    if (bins == 0) bins = 1;
    const double bin_s = exits.bin_s > 0 ? exits.bin_s : 1.0;
    size_t used = static_cast<size_t>(std::ceil(std::max(sim_seconds, 0.0) / bin_s));
    for (const auto& row : exits.counts) used = std::max(used, row.size());
    used = std::max<size_t>(used, 1);
    const size_t group = (used + bins - 1) / bins;
    const size_t points = (used + group - 1) / group;
    merged_rates m;
    m.width = bin_s * static_cast<double>(group);
    for (const auto& row : exits.counts) {
        std::vector<double> r(points, 0);
        uint64_t total = 0;
        for (size_t i = 0; i < row.size(); ++i) {
            r[i / group] += static_cast<double>(row[i]);
            total += row[i];
        }
        for (double& x : r) x /= m.width;
        m.rate.push_back(std::move(r));
        m.total.push_back(total);
    }
    return m;
}

}  // namespace

std::string short_number(double v) {
    const double a = std::fabs(v);
    char buf[32];
    if (a >= 1e9)
        std::snprintf(buf, sizeof buf, "%gG", v / 1e9);
    else if (a >= 1e6)
        std::snprintf(buf, sizeof buf, "%gM", v / 1e6);
    else if (a >= 1e4)
        std::snprintf(buf, sizeof buf, "%gk", v / 1e3);
    else
        std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

gnuplot_script cdf_figure(const std::string& title, const std::string& x_label,
                          const std::vector<cdf_series>& series) {
    double lo = 0, hi = 0;
    bool any = false;
    std::vector<uint64_t> totals;
    for (const auto& s : series) {
        uint64_t n = 0;
        if (s.histogram)
            for (const auto& b : *s.histogram) {
                if (b.second == 0 || !std::isfinite(b.first)) continue;
                lo = any ? std::min(lo, b.first) : b.first;
                hi = any ? std::max(hi, b.first) : b.first;
                any = true;
                n += b.second;
            }
        totals.push_back(n);
    }
    // Log x when the samples span more than 20x, so both the body and the tail are readable.
    const bool log_x = any && lo > 0 && hi / lo > 20;
    gnuplot_script g = chart(title, x_label + (log_x ? ", log scale" : ""),
                             "cumulative fraction of samples (0..1)");
    g.line("set yrange [0:1]");
    if (log_x) g.line("set logscale x");
    if (!any) {
        g.line("set xrange [0:1]");
        g.line("set label \"no samples recorded\" at graph 0.5, graph 0.5 center");
    } else if (!(hi > lo)) {
        const double pad = std::max(1.0, std::fabs(lo) * 0.05);
        g.line("set xrange [" + gp_number(lo - pad) + ":" + gp_number(hi + pad) + "]");
    }
    std::string plot;
    for (size_t i = 0; i < series.size(); ++i) {
        const std::string name = "s" + std::to_string(i);
        const std::string label =
            series[i].label +
            (totals[i] ? " (n=" + std::to_string(totals[i]) + ")" : " (no samples)");
        plot += (i ? ", " : "plot ");
        if (!totals[i]) {
            plot += "NaN with lines lw 2 title " + gp_quote(label);
            continue;
        }
        // A step per bin: flat up to the bin centre, then up by the bin's share.
        std::vector<std::vector<double>> rows;
        uint64_t cum = 0;
        for (const auto& b : *series[i].histogram) {
            if (b.second == 0 || !std::isfinite(b.first)) continue;
            rows.push_back({b.first, double(cum) / totals[i]});
            cum += b.second;
            rows.push_back({b.first, double(cum) / totals[i]});
        }
        g.data(name, rows);
        plot += "$" + name + " using 1:2 with lines lw 2 title " + gp_quote(label);
    }
    g.line(plot);
    return g;
}

namespace {

// A bar's label on lines of its own at ": " and ", " (a side's "A: key=value, key=value"), so
// that long labels of neighbouring bars do not run into each other.
std::string stacked_label(const std::string& label) {
    std::string out;
    for (size_t i = 0; i < label.size(); ++i) {
        const bool brk = (label[i] == ':' || label[i] == ',') && i + 1 < label.size() &&
                         label[i + 1] == ' ';
        out += label[i];
        if (brk) out += '\n', ++i;
    }
    return out;
}

}  // namespace

gnuplot_script breakdown_figure(const std::string& title, const std::vector<bar_run>& runs) {
    std::vector<const std::vector<latency_step>*> breakdowns;
    for (const auto& r : runs) breakdowns.push_back(r.steps);
    const std::vector<std::string> steps = steps_in_path_order(breakdowns);
    gnuplot_script g = chart(title, "run", "mean time per sample (ns)");
    g.line("set style data histograms");
    g.line("set style histogram rowstacked");
    g.line("set style fill solid 1.0 border -1");
    g.line("set boxwidth 0.6");
    g.line("set key invert title \"step\"");  // the key reads top-down like the bars
    g.line("set yrange [0:*]");
    g.line("set xrange [-0.6:" + gp_number(runs.size() - 0.4) + "]");
    std::vector<std::string> labels;
    std::vector<std::vector<double>> rows;
    for (size_t i = 0; i < runs.size(); ++i) {
        labels.push_back(stacked_label(runs[i].label));
        std::vector<double> row(steps.size(), 0.0);
        double total = 0;
        if (runs[i].steps)
            for (const auto& st : *runs[i].steps) {
                const size_t k = static_cast<size_t>(
                    std::find(steps.begin(), steps.end(), st.step) - steps.begin());
                row[k] = std::isfinite(st.mean_ns) ? std::max(0.0, st.mean_ns) : 0.0;
                total += row[k];
            }
        // The bar's total above it.
        g.line("set label " +
               gp_quote(total > 0 ? gp_number(std::round(total * 10) / 10) + " ns"
                                  : std::string("no samples")) +
               " at " + std::to_string(i) + ", " + gp_number(total) + " center offset 0,0.8");
        rows.push_back(std::move(row));
    }
    g.line("set xtics " + gp_tics(labels));
    if (steps.empty()) {
        g.line("set yrange [0:1]");
        g.line("plot NaN notitle");
        return g;
    }
    g.data("bars", rows);
    std::string plot;
    for (size_t k = 0; k < steps.size(); ++k)
        plot += (k ? ", " : "plot ") + std::string(k ? "''" : "$bars") + " using " +
                std::to_string(k + 1) + " title " + gp_quote(steps[k]);
    g.line(plot);
    return g;
}

gnuplot_script exit_rate_figure(const std::string& title, const exit_bins& exits,
                                double sim_seconds, double y_top, unsigned bins) {
    const merged_rates m = merge_bins(exits, sim_seconds, bins);
    const size_t points = m.rate.empty() ? std::max(1u, bins) : m.rate[0].size();
    const double span = std::max(sim_seconds, m.width * static_cast<double>(points));
    std::vector<std::string> xs;
    for (size_t b = 0; b < points; ++b) xs.push_back(gp_number((b + 0.5) * m.width));
    std::vector<line_series> series;
    for (size_t v = 0; v < m.rate.size(); ++v) {
        if (m.total[v] == 0) continue;
        series.push_back({"vCPU " + std::to_string(v) + " (" + std::to_string(m.total[v]) +
                              " exits, " + short_number(std::round(m.total[v] / span)) + "/s)",
                          m.rate[v]});
    }
    if (series.empty())
        return line_chart_figure(title + " (no exits recorded)", "simulated time (s)",
                                 "exits per second (1/s)", xs, {}, false, y_top);
    return line_chart_figure(title,
                             "simulated time (s), bins of " + short_number(m.width * 1e3) + " ms",
                             "exits per second (1/s)", xs, series, false, y_top);
}

double max_exit_rate(const exit_bins& exits, double sim_seconds, unsigned bins) {
    double top = 0;
    for (const auto& row : merge_bins(exits, sim_seconds, bins).rate)
        for (double r : row) top = std::max(top, r);
    return top;
}

gnuplot_script line_chart_figure(const std::string& title, const std::string& x_label,
                                 const std::string& y_label,
                                 const std::vector<std::string>& x_values,
                                 const std::vector<line_series>& series, bool points,
                                 double y_top) {
    std::vector<double> xs;
    bool numeric = !x_values.empty();
    for (const auto& v : x_values) {
        double d = 0;
        const auto r = std::from_chars(v.data(), v.data() + v.size(), d);
        if (r.ec != std::errc() || r.ptr != v.data() + v.size() || !std::isfinite(d))
            numeric = false;
        xs.push_back(d);
    }
    gnuplot_script g = chart(title, x_label, y_label);
    // y from 0 (or below, for negative data) to at least y_top.
    g.line("set yrange [*<0:" + gp_number(y_top > 0 ? y_top : 1) + "<*]");
    if (!numeric) {
        g.line("set xtics " + gp_tics(x_values));
        g.line("set xrange [-0.5:" + gp_number(x_values.size() - 0.5) + "]");
    } else {
        g.line("set autoscale xfix");
    }
    if (series.empty()) {  // gnuplot cannot autoscale without data: fix both ranges
        g.line("set yrange [0:" + gp_number(y_top > 0 ? y_top : 1) + "]");
        if (numeric) {
            const double lo = *std::min_element(xs.begin(), xs.end()),
                         hi = *std::max_element(xs.begin(), xs.end());
            g.line("set xrange [" + gp_number(lo) + ":" + gp_number(hi > lo ? hi : lo + 1) + "]");
        }
        g.line("plot NaN notitle");
        return g;
    }
    std::vector<std::vector<double>> rows;
    for (size_t k = 0; k < x_values.size(); ++k) {
        std::vector<double> row{numeric ? xs[k] : double(k)};
        for (const auto& s : series) row.push_back(k < s.y.size() ? s.y[k] : NAN);
        rows.push_back(std::move(row));
    }
    // Lines run in x order, whatever the order of the grid's values.
    if (numeric)
        std::stable_sort(rows.begin(), rows.end(),
                         [](const auto& a, const auto& b) { return a[0] < b[0]; });
    g.data("lines", rows);
    std::string plot;
    for (size_t i = 0; i < series.size(); ++i)
        plot += (i ? ", " : "plot ") + std::string(i ? "''" : "$lines") +
                " using 1:" + std::to_string(i + 2) +
                (points ? " with linespoints pt 7 ps 0.6" : " with lines") + " lw 2 title " +
                gp_quote(series[i].label);
    g.line(plot);
    return g;
}

}  // namespace nestvp
