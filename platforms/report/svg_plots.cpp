// SVG figures: latency CDFs, breakdown bars, exit rates, sweep line charts.
#include "platforms/report/svg_plots.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "platforms/report/json.h"

namespace nestvp {

namespace {

const char* const k_palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                 "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
const char* colour(size_t i) {
    return k_palette[i % (sizeof k_palette / sizeof *k_palette)];
}

// Plot frame: the data area is [m_left, m_left+m_w] x [m_top, m_top+m_h].
constexpr double k_left = 90, k_top = 50, k_w = 560, k_h = 300, k_legend_x = k_left + k_w + 20;

std::string num(double v) {  // coordinates: two decimals are plenty
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

std::string tick_label(double v) {
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

// Ticks at 1/2/5 x 10^k steps covering [lo, hi].
std::vector<double> nice_ticks(double lo, double hi, int target = 5) {
    if (!(hi > lo)) hi = lo + 1;
    const double raw = (hi - lo) / target;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (raw <= m * mag) {
            step = m * mag;
            break;
        }
    std::vector<double> t;
    for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step)
        t.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
    return t;
}

std::string header(double width, double height, const std::string& title) {
    std::string s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    s += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + num(width) +
         "\" height=\"" + num(height) + "\" viewBox=\"0 0 " + num(width) + " " + num(height) +
         "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    s += "<title>" + xml_escape(title) + "</title>\n";
    s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    s += "<text class=\"title\" x=\"" + num(width / 2) +
         "\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">" + xml_escape(title) + "</text>\n";
    return s;
}

// Axes with ticks; x ticks as given (position, label), y ticks from the range.
std::string axes(const std::vector<std::pair<double, std::string>>& xt, double ylo, double yhi,
                 const std::string& x_label, const std::string& y_label, double plot_h = k_h) {
    std::string s = "<g class=\"axes\" stroke=\"black\" fill=\"none\">\n";
    s += "<line x1=\"" + num(k_left) + "\" y1=\"" + num(k_top + plot_h) + "\" x2=\"" +
         num(k_left + k_w) + "\" y2=\"" + num(k_top + plot_h) + "\"/>\n";
    s += "<line x1=\"" + num(k_left) + "\" y1=\"" + num(k_top) + "\" x2=\"" + num(k_left) +
         "\" y2=\"" + num(k_top + plot_h) + "\"/>\n</g>\n<g class=\"ticks\">\n";
    for (const auto& t : xt) {
        s += "<line x1=\"" + num(t.first) + "\" y1=\"" + num(k_top + plot_h) + "\" x2=\"" +
             num(t.first) + "\" y2=\"" + num(k_top + plot_h + 5) + "\" stroke=\"black\"/>\n";
        s += "<text x=\"" + num(t.first) + "\" y=\"" + num(k_top + plot_h + 18) +
             "\" text-anchor=\"middle\">" + xml_escape(t.second) + "</text>\n";
    }
    if (yhi > ylo) {
        for (double v : nice_ticks(ylo, yhi)) {
            const double y = k_top + plot_h - (v - ylo) / (yhi - ylo) * plot_h;
            s += "<line x1=\"" + num(k_left - 5) + "\" y1=\"" + num(y) + "\" x2=\"" + num(k_left) +
                 "\" y2=\"" + num(y) + "\" stroke=\"black\"/>\n";
            s += "<line x1=\"" + num(k_left) + "\" y1=\"" + num(y) + "\" x2=\"" +
                 num(k_left + k_w) + "\" y2=\"" + num(y) + "\" stroke=\"#dddddd\"/>\n";
            s += "<text x=\"" + num(k_left - 8) + "\" y=\"" + num(y + 4) +
                 "\" text-anchor=\"end\">" + tick_label(v) + "</text>\n";
        }
    }
    s += "</g>\n";
    s += "<text class=\"x-label\" x=\"" + num(k_left + k_w / 2) + "\" y=\"" +
         num(k_top + plot_h + 42) + "\" text-anchor=\"middle\">" + xml_escape(x_label) +
         "</text>\n";
    if (!y_label.empty())
        s += "<text class=\"y-label\" transform=\"translate(22," + num(k_top + plot_h / 2) +
             ") rotate(-90)\" text-anchor=\"middle\">" + xml_escape(y_label) + "</text>\n";
    return s;
}

std::string legend_entry(size_t i, const std::string& fill, const std::string& text) {
    const double y = k_top + 10 + 20.0 * i;
    return "<rect x=\"" + num(k_legend_x) + "\" y=\"" + num(y - 9) +
           "\" width=\"12\" height=\"12\" fill=\"" + fill + "\"/>\n<text x=\"" +
           num(k_legend_x + 18) + "\" y=\"" + num(y + 1) + "\">" + xml_escape(text) + "</text>\n";
}

// The figure width that keeps the longest legend text inside it (about 7 px a character at
// 12 px sans-serif, which over- rather than underestimates).
double legend_right(const std::vector<std::string>& texts) {
    size_t longest = 20;
    for (const auto& t : texts) longest = std::max(longest, t.size());
    return k_legend_x + 18 + 7.0 * longest + 20;
}

}  // namespace

std::string xml_escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&apos;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string cdf_svg(const std::string& title, const std::string& x_label,
                    const std::vector<cdf_series>& series) {
    double lo = 0, hi = 0;
    bool any = false;
    std::vector<uint64_t> totals;
    for (const auto& s : series) {
        uint64_t n = 0;
        if (s.histogram)
            for (const auto& b : *s.histogram) {
                if (b.second == 0) continue;
                lo = any ? std::min(lo, b.first) : b.first;
                hi = any ? std::max(hi, b.first) : b.first;
                any = true;
                n += b.second;
            }
        totals.push_back(n);
    }
    std::vector<std::string> legend;
    for (size_t i = 0; i < series.size(); ++i)
        legend.push_back(series[i].label +
                         (totals[i] ? " (n=" + std::to_string(totals[i]) + ")" : " (no samples)"));
    // Log x when the samples span more than 20x, so both the body and the tail are readable.
    const bool log_x = any && lo > 0 && hi / lo > 20;
    const std::string x_text = x_label + (log_x ? ", log scale" : "");
    std::string out = header(legend_right(legend), k_top + k_h + 60, title);
    if (!any) {
        out += axes({}, 0, 1, x_text, "cumulative fraction of samples (0..1)");
        out += "<text class=\"empty\" x=\"" + num(k_left + k_w / 2) + "\" y=\"" +
               num(k_top + k_h / 2) +
               "\" text-anchor=\"middle\">no samples recorded</text>\n</svg>\n";
        return out;
    }
    double x0 = lo, x1 = hi;
    if (log_x) {
        x0 = std::log10(lo);
        x1 = std::log10(hi);
    } else if (!(hi > lo)) {
        x0 = lo - std::max(1.0, std::fabs(lo) * 0.05);
        x1 = hi + std::max(1.0, std::fabs(hi) * 0.05);
    }
    const auto xpos = [&](double v) {
        const double t = log_x ? std::log10(v) : v;
        return k_left + (t - x0) / (x1 - x0) * k_w;
    };
    std::vector<std::pair<double, std::string>> xt;
    if (log_x) {
        const bool dense = x1 - x0 < 2.5;  // few decades: 2 and 5 steps too
        for (int e = static_cast<int>(std::floor(x0)); e <= static_cast<int>(std::ceil(x1)); ++e)
            for (double m : {1.0, 2.0, 5.0}) {
                if (m != 1.0 && !dense) continue;
                const double v = m * std::pow(10.0, e);
                if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9))
                    xt.push_back({xpos(v), tick_label(v)});
            }
    } else {
        for (double v : nice_ticks(x0, x1))
            if (v >= x0 && v <= x1) xt.push_back({xpos(v), tick_label(v)});
    }
    out += axes(xt, 0, 1, x_text, "cumulative fraction of samples (0..1)");
    const auto ypos = [&](double f) { return k_top + k_h - f * k_h; };
    for (size_t i = 0; i < series.size(); ++i) {
        out += legend_entry(i, colour(i), legend[i]);
        if (!totals[i]) continue;
        // A step per bin: flat up to the bin centre, then up by the bin's share.
        std::string pts;
        uint64_t cum = 0;
        for (const auto& b : *series[i].histogram) {
            if (b.second == 0) continue;
            const double x = xpos(b.first);
            pts += (pts.empty() ? "" : " ") + num(x) + "," + num(ypos(double(cum) / totals[i]));
            cum += b.second;
            pts += " " + num(x) + "," + num(ypos(double(cum) / totals[i]));
        }
        out += "<polyline class=\"series cdf\" id=\"series-" + std::to_string(i) +
               "\" data-label=\"" + xml_escape(series[i].label) + "\" data-count=\"" +
               std::to_string(totals[i]) + "\" fill=\"none\" stroke=\"" + colour(i) +
               "\" stroke-width=\"2\" points=\"" + pts + "\"/>\n";
    }
    out += "</svg>\n";
    return out;
}

std::string stacked_bar_svg(const std::string& title, const std::vector<bar_run>& runs) {
    // Steps in path order over all runs; a step only a later run has follows its predecessor.
    std::vector<std::string> steps;
    for (const auto& r : runs) {
        if (!r.steps) continue;
        size_t after = 0;
        for (const auto& st : *r.steps) {
            const auto it = std::find(steps.begin(), steps.end(), st.step);
            if (it != steps.end()) {
                after = static_cast<size_t>(it - steps.begin()) + 1;
            } else {
                steps.insert(steps.begin() + after, st.step);
                ++after;
            }
        }
    }
    double top = 0;
    for (const auto& r : runs) {
        double t = 0;
        if (r.steps)
            for (const auto& st : *r.steps) t += std::max(0.0, st.mean_ns);
        top = std::max(top, t);
    }
    const auto yt = nice_ticks(0, top > 0 ? top : 1);
    const double ystep = yt.size() > 1 ? yt[1] - yt[0] : 1.0;
    const double ytop = std::max(ystep, std::ceil(top / ystep) * ystep);
    std::string out = header(legend_right(steps), k_top + k_h + 60, title);
    const double slot = k_w / std::max<size_t>(1, runs.size());
    const double bar_w = std::min(120.0, slot * 0.6);
    std::vector<std::pair<double, std::string>> xt;
    for (size_t i = 0; i < runs.size(); ++i)
        xt.push_back({k_left + slot * (i + 0.5), runs[i].label});
    out += axes(xt, 0, ytop, "run", "mean time per sample (ns)");
    out += "<text x=\"" + num(k_legend_x) + "\" y=\"" + num(k_top - 8) + "\">step</text>\n";
    for (size_t k = 0; k < steps.size(); ++k) out += legend_entry(k, colour(k), steps[k]);
    for (size_t i = 0; i < runs.size(); ++i) {
        const double x = k_left + slot * (i + 0.5) - bar_w / 2;
        double base = 0;
        out += "<g class=\"series bar\" id=\"series-" + std::to_string(i) + "\" data-label=\"" +
               xml_escape(runs[i].label) + "\">\n";
        if (runs[i].steps)
            for (const auto& st : *runs[i].steps) {
                const double v = std::max(0.0, st.mean_ns);
                const size_t k = static_cast<size_t>(
                    std::find(steps.begin(), steps.end(), st.step) - steps.begin());
                const double h = v / ytop * k_h;
                out += "<rect class=\"segment\" data-step=\"" + xml_escape(st.step) +
                       "\" data-ns=\"" + json_number(st.mean_ns) + "\" x=\"" + num(x) + "\" y=\"" +
                       num(k_top + k_h - (base + v) / ytop * k_h) + "\" width=\"" + num(bar_w) +
                       "\" height=\"" + num(h) + "\" fill=\"" + colour(k) + "\"><title>" +
                       xml_escape(st.step) + ": " + json_number(st.mean_ns) +
                       " ns</title></rect>\n";
                base += v;
            }
        out += "<text class=\"total\" x=\"" + num(x + bar_w / 2) + "\" y=\"" +
               num(k_top + k_h - base / ytop * k_h - 6) + "\" text-anchor=\"middle\">" +
               (base > 0 ? tick_label(std::round(base * 10) / 10) + " ns" : "no samples") +
               "</text>\n</g>\n";
    }
    out += "</svg>\n";
    return out;
}

namespace {

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

std::string exit_rate_svg(const std::string& title, const exit_bins& exits, double sim_seconds,
                          double y_top, unsigned bins) {
    const merged_rates m = merge_bins(exits, sim_seconds, bins);
    const size_t points = m.rate.empty() ? std::max(1u, bins) : m.rate[0].size();
    const double span = std::max(sim_seconds, m.width * static_cast<double>(points));
    std::vector<std::string> xs;
    for (size_t b = 0; b < points; ++b) xs.push_back(json_number((b + 0.5) * m.width));
    std::vector<line_series> series;
    for (size_t v = 0; v < m.rate.size(); ++v) {
        if (m.total[v] == 0) continue;
        series.push_back({"vCPU " + std::to_string(v) + " (" + std::to_string(m.total[v]) +
                              " exits, " + tick_label(std::round(m.total[v] / span)) + "/s)",
                          m.rate[v]});
    }
    if (series.empty())
        return line_chart_svg(title + " (no exits recorded)", "simulated time (s)",
                              "exits per second (1/s)", xs, {}, false, y_top);
    return line_chart_svg(title, "simulated time (s), bins of " + tick_label(m.width * 1e3) + " ms",
                          "exits per second (1/s)", xs, series, false, y_top);
}

double max_exit_rate(const exit_bins& exits, double sim_seconds, unsigned bins) {
    double top = 0;
    for (const auto& row : merge_bins(exits, sim_seconds, bins).rate)
        for (double r : row) top = std::max(top, r);
    return top;
}

std::string line_chart_svg(const std::string& title, const std::string& x_label,
                           const std::string& y_label, const std::vector<std::string>& x_values,
                           const std::vector<line_series>& series, bool points, double y_top) {
    std::vector<double> xs;
    bool numeric = !x_values.empty();
    for (const auto& v : x_values) {
        double d = 0;
        const auto r = std::from_chars(v.data(), v.data() + v.size(), d);
        if (r.ec != std::errc() || r.ptr != v.data() + v.size() || !std::isfinite(d))
            numeric = false;
        xs.push_back(d);
    }
    std::vector<double> xpos(x_values.size());
    std::vector<std::pair<double, std::string>> xt;
    const double pad = 20;
    if (numeric) {
        const double lo = *std::min_element(xs.begin(), xs.end());
        double hi = *std::max_element(xs.begin(), xs.end());
        if (!(hi > lo)) hi = lo + 1;
        for (size_t i = 0; i < xs.size(); ++i)
            xpos[i] = k_left + pad + (xs[i] - lo) / (hi - lo) * (k_w - 2 * pad);
        for (double v : nice_ticks(lo, hi))
            if (v >= lo && v <= hi)
                xt.push_back(
                    {k_left + pad + (v - lo) / (hi - lo) * (k_w - 2 * pad), tick_label(v)});
    } else {
        for (size_t i = 0; i < x_values.size(); ++i) {
            xpos[i] = k_left + (i + 0.5) * k_w / std::max<size_t>(1, x_values.size());
            xt.push_back({xpos[i], x_values[i]});
        }
    }
    double ymin = 0, ymax = 0;
    for (const auto& s : series)
        for (double y : s.y)
            if (std::isfinite(y)) {
                ymin = std::min(ymin, y);
                ymax = std::max(ymax, y);
            }
    ymax = std::max(ymax, y_top);
    if (!(ymax > ymin)) ymax = ymin + 1;
    // The y range: whole tick steps around the data, so the top and bottom carry a tick.
    const auto yt = nice_ticks(ymin, ymax);
    const double ystep = yt.size() > 1 ? yt[1] - yt[0] : 1.0;
    const double ylo = std::floor(ymin / ystep) * ystep, yhi = std::ceil(ymax / ystep) * ystep;
    std::vector<std::string> legend;
    for (const auto& s : series) legend.push_back(s.label);
    std::string out = header(legend_right(legend), k_top + k_h + 60, title);
    out += axes(xt, ylo, yhi, x_label, y_label);
    const auto ypos = [&](double y) { return k_top + k_h - (y - ylo) / (yhi - ylo) * k_h; };
    for (size_t i = 0; i < series.size(); ++i) {
        std::string pts, dots;
        for (size_t k = 0; k < series[i].y.size() && k < xpos.size(); ++k) {
            if (!std::isfinite(series[i].y[k])) continue;
            pts += (pts.empty() ? "" : " ") + num(xpos[k]) + "," + num(ypos(series[i].y[k]));
            if (points)
                dots += "<circle class=\"point\" cx=\"" + num(xpos[k]) + "\" cy=\"" +
                        num(ypos(series[i].y[k])) + "\" r=\"3\" data-x=\"" +
                        xml_escape(x_values[k]) + "\" data-y=\"" + json_number(series[i].y[k]) +
                        "\"/>\n";
        }
        out += "<g class=\"series line\" id=\"series-" + std::to_string(i) + "\" data-label=\"" +
               xml_escape(series[i].label) + "\" fill=\"" + colour(i) + "\">\n";
        out += "<polyline fill=\"none\" stroke=\"" + std::string(colour(i)) +
               "\" stroke-width=\"2\" points=\"" + pts + "\"/>\n" + dots + "</g>\n";
        out += legend_entry(i, colour(i), series[i].label);
    }
    out += "</svg>\n";
    return out;
}

}  // namespace nestvp
