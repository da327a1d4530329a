// SVG figures: histograms, exit timelines, sweep line charts.
#include "platforms/report/svg_plots.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

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

double quantile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    const size_t k = std::min(v.size() - 1, static_cast<size_t>(q * (v.size() - 1)));
    std::nth_element(v.begin(), v.begin() + k, v.end());
    return v[k];
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

std::string exit_reason_key(unsigned reason) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%x", reason);
    return buf;
}

std::string exit_reason_name(unsigned reason) {
    // nested-virtualization.md §2.5 (documented H_GUEST_RUN_VCPU exit reasons).
    switch (reason) {
        case 0x000:
            return "stopped/cede consumed";
        case 0x500:
            return "external";
        case 0x900:
            return "DEC";
        case 0x980:
            return "HDEC";
        case 0xc00:
            return "hcall";
        case 0xe00:
            return "HDSI";
        case 0xe20:
            return "HISI";
        case 0xe40:
            return "HEA";
        case 0xe80:
            return "H doorbell";
        case 0xea0:
            return "H virtualization";
        case 0xf80:
            return "HV facility unavailable";
        default:
            return "";
    }
}

std::string histogram_svg(const std::string& title, const std::string& x_label,
                          const std::vector<hist_series>& series, unsigned bins) {
    if (bins == 0) bins = 1;
    std::vector<double> all;
    for (const auto& s : series)
        if (s.samples) all.insert(all.end(), s.samples->begin(), s.samples->end());
    const double height = k_top + k_h + 60;
    std::string out = header(k_legend_x + 340, height, title);
    if (all.empty()) {
        out += axes({}, 0, 0, x_label, "samples per bin (count)");
        out += "<text class=\"empty\" x=\"" + num(k_left + k_w / 2) + "\" y=\"" +
               num(k_top + k_h / 2) +
               "\" text-anchor=\"middle\">no samples recorded</text>\n</svg>\n";
        return out;
    }
    const double lo = *std::min_element(all.begin(), all.end());
    double hi = quantile(all, 0.999);
    if (!(hi > lo)) hi = lo + std::max(1.0, std::fabs(lo) * 0.01);
    const double bw = (hi - lo) / bins;
    std::vector<std::vector<uint64_t>> counts(series.size(), std::vector<uint64_t>(bins, 0));
    std::vector<uint64_t> over(series.size(), 0);
    uint64_t ymax = 1;
    for (size_t i = 0; i < series.size(); ++i) {
        if (!series[i].samples) continue;
        for (double v : *series[i].samples) {
            size_t b = static_cast<size_t>(std::max(0.0, (v - lo) / bw));
            if (v > hi) ++over[i];
            b = std::min<size_t>(b, bins - 1);
            ymax = std::max(ymax, ++counts[i][b]);
        }
    }
    std::vector<std::pair<double, std::string>> xt;
    for (double v : nice_ticks(lo, hi))
        if (v >= lo && v <= hi) xt.push_back({k_left + (v - lo) / (hi - lo) * k_w, tick_label(v)});
    // The top of the y axis: the first tick step at or above the tallest bin.
    const auto yt = nice_ticks(0, double(ymax));
    const double ystep = yt.size() > 1 ? yt[1] - yt[0] : 1.0;
    const double ytop = std::ceil(double(ymax) / ystep) * ystep;
    out += axes(xt, 0, ytop, x_label, "samples per bin (count)");
    const auto ypos = [&](double c) { return k_top + k_h - c / ytop * k_h; };
    for (size_t i = 0; i < series.size(); ++i) {
        std::string d = "M" + num(k_left) + "," + num(ypos(0));
        for (unsigned b = 0; b < bins; ++b) {
            const double x0 = k_left + b * k_w / bins, x1 = k_left + (b + 1) * k_w / bins;
            d += " L" + num(x0) + "," + num(ypos(counts[i][b])) + " L" + num(x1) + "," +
                 num(ypos(counts[i][b]));
        }
        d += " L" + num(k_left + k_w) + "," + num(ypos(0)) + " Z";
        const size_t n = series[i].samples ? series[i].samples->size() : 0;
        out += "<path class=\"series histogram\" id=\"series-" + std::to_string(i) +
               "\" data-label=\"" + xml_escape(series[i].label) + "\" data-count=\"" +
               std::to_string(n) + "\" fill=\"" + colour(i) + "\" fill-opacity=\"0.3\" stroke=\"" +
               colour(i) + "\" stroke-width=\"1.5\" d=\"" + d + "\"/>\n";
        std::string text = series[i].label + " (n=" + std::to_string(n) + ")";
        if (over[i])
            text += ", " + std::to_string(over[i]) + " above " + tick_label(hi) + " in last bin";
        out += legend_entry(i, colour(i), text);
    }
    out += "</svg>\n";
    return out;
}

std::string timeline_svg(const std::string& title, const std::vector<exit_event>& exits,
                         double sim_seconds) {
    std::set<unsigned> reason_set;
    unsigned vcpus = 0;
    double tmax = sim_seconds;
    for (const auto& e : exits) {
        reason_set.insert(e.reason);
        vcpus = std::max(vcpus, e.vcpu + 1);
        tmax = std::max(tmax, e.t_s);
    }
    if (!(tmax > 0)) tmax = 1;
    const std::vector<unsigned> reasons(reason_set.begin(), reason_set.end());
    const double lane = 6, row = std::max<double>(18, lane * reasons.size() + 8);
    const double plot_h = std::max<double>(60, row * vcpus);
    std::string out = header(k_legend_x + 220, k_top + plot_h + 60, title);
    std::vector<std::pair<double, std::string>> xt;
    for (double v : nice_ticks(0, tmax))
        if (v <= tmax) xt.push_back({k_left + v / tmax * k_w, tick_label(v)});
    out += axes(xt, 0, 0, "simulated time (s)", "", plot_h);
    if (exits.empty()) {
        out += "<text class=\"empty\" x=\"" + num(k_left + k_w / 2) + "\" y=\"" +
               num(k_top + plot_h / 2) +
               "\" text-anchor=\"middle\">no exits recorded</text>\n</svg>\n";
        return out;
    }
    // One presence bit per (vCPU, reason, pixel column); runs of set bits become rectangles,
    // so the file size is bounded by the picture, not by the number of exits.
    const size_t cols = static_cast<size_t>(k_w);
    std::map<std::pair<unsigned, unsigned>, std::vector<bool>> marks;
    std::map<unsigned, uint64_t> per_reason;
    for (const auto& e : exits) {
        auto& m = marks[{e.vcpu, e.reason}];
        if (m.empty()) m.assign(cols, false);
        m[std::min(cols - 1, static_cast<size_t>(std::max(0.0, e.t_s / tmax * cols)))] = true;
        ++per_reason[e.reason];
    }
    for (unsigned v = 0; v < vcpus; ++v) {
        const double y0 = k_top + row * v;
        out += "<g class=\"vcpu\" id=\"vcpu-" + std::to_string(v) + "\">\n";
        out += "<text x=\"" + num(k_left - 8) + "\" y=\"" + num(y0 + row / 2 + 4) +
               "\" text-anchor=\"end\">vCPU " + std::to_string(v) + "</text>\n";
        for (size_t ri = 0; ri < reasons.size(); ++ri) {
            const auto it = marks.find({v, reasons[ri]});
            if (it == marks.end()) continue;
            const std::string key = exit_reason_key(reasons[ri]);
            out += "<g class=\"exits\" data-reason=\"" + key + "\" fill=\"" + colour(ri) + "\">\n";
            const auto& m = it->second;
            for (size_t c = 0; c < cols;) {
                if (!m[c]) {
                    ++c;
                    continue;
                }
                size_t e = c;
                while (e < cols && m[e]) ++e;
                out += "<rect x=\"" + num(k_left + c) + "\" y=\"" + num(y0 + 4 + lane * ri) +
                       "\" width=\"" + num(double(e - c)) + "\" height=\"" + num(lane - 1) +
                       "\"/>\n";
                c = e;
            }
            out += "</g>\n";
        }
        out += "</g>\n";
    }
    out += "<text x=\"" + num(k_legend_x) + "\" y=\"" + num(k_top - 8) +
           "\">exit reason (count)</text>\n";
    for (size_t ri = 0; ri < reasons.size(); ++ri) {
        std::string name = exit_reason_name(reasons[ri]);
        std::string text = exit_reason_key(reasons[ri]) + (name.empty() ? "" : " " + name) + " (" +
                           std::to_string(per_reason[reasons[ri]]) + ")";
        out += legend_entry(ri, colour(ri), text);
    }
    out += "</svg>\n";
    return out;
}

std::string line_chart_svg(const std::string& title, const std::string& x_label,
                           const std::string& y_label, const std::vector<std::string>& x_values,
                           const std::vector<line_series>& series) {
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
    if (!(ymax > ymin)) ymax = ymin + 1;
    // The y range: whole tick steps around the data, so the top and bottom carry a tick.
    const auto yt = nice_ticks(ymin, ymax);
    const double ystep = yt.size() > 1 ? yt[1] - yt[0] : 1.0;
    const double ylo = std::floor(ymin / ystep) * ystep, yhi = std::ceil(ymax / ystep) * ystep;
    std::string out = header(k_legend_x + 260, k_top + k_h + 60, title);
    out += axes(xt, ylo, yhi, x_label, y_label);
    const auto ypos = [&](double y) { return k_top + k_h - (y - ylo) / (yhi - ylo) * k_h; };
    for (size_t i = 0; i < series.size(); ++i) {
        std::string pts, dots;
        for (size_t k = 0; k < series[i].y.size() && k < xpos.size(); ++k) {
            if (!std::isfinite(series[i].y[k])) continue;
            pts += (pts.empty() ? "" : " ") + num(xpos[k]) + "," + num(ypos(series[i].y[k]));
            dots += "<circle class=\"point\" cx=\"" + num(xpos[k]) + "\" cy=\"" +
                    num(ypos(series[i].y[k])) + "\" r=\"3\" data-x=\"" + xml_escape(x_values[k]) +
                    "\" data-y=\"" + json_number(series[i].y[k]) + "\"/>\n";
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

std::string plot_data_text(const run_result& r) {
    std::string s;
    for (double v : r.metrics.nested_entry_samples_ns) s += "entry " + json_number(v) + "\n";
    for (double v : r.metrics.nested_exit_samples_ns) s += "exit " + json_number(v) + "\n";
    for (const auto& e : r.exits)
        s += "event " + json_number(e.t_s) + " " + std::to_string(e.vcpu) + " " +
             std::to_string(e.reason) + "\n";
    return s;
}

void parse_plot_data(const std::string& text, const std::string& what, run_result& r) {
    std::istringstream in(text);
    std::string line;
    unsigned n = 0;
    while (std::getline(in, line)) {
        ++n;
        if (line.empty()) continue;
        std::istringstream ls(line);
        std::string kind;
        ls >> kind;
        bool ok = false;
        if (kind == "entry" || kind == "exit") {
            double v = 0;
            ok = static_cast<bool>(ls >> v);
            if (ok)
                (kind == "entry" ? r.metrics.nested_entry_samples_ns
                                 : r.metrics.nested_exit_samples_ns)
                    .push_back(v);
        } else if (kind == "event") {
            exit_event e{};
            ok = static_cast<bool>(ls >> e.t_s >> e.vcpu >> e.reason);
            if (ok) r.exits.push_back(e);
        }
        if (!ok)
            throw std::runtime_error(what + ":" + std::to_string(n) + ": malformed plot data line");
    }
}

}  // namespace nestvp
