#include "platforms/report/policy_map.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "platforms/report/svg_plots.h"
#include "platforms/report/tables.h"

namespace nestvp {

const char* criterion_name(map_criterion c) {
    switch (c) {
        case map_criterion::throughput:
            return "throughput";
        case map_criterion::timer_p99:
            return "timer_p99";
        case map_criterion::exits:
            return "exits";
    }
    return "?";
}

namespace {

constexpr int k_tie = -2;
constexpr double k_tie_pct = 0.05;

// Best index of vals (max or min) and its margin over the runner-up in percent.
void pick(const std::vector<std::optional<double>>& vals, bool higher, int& win, double& margin) {
    win = -1;
    margin = 0;
    for (size_t i = 0; i < vals.size(); ++i) {
        if (!vals[i]) continue;
        if (win < 0 || (higher ? *vals[i] > *vals[win] : *vals[i] < *vals[win]))
            win = static_cast<int>(i);
    }
    if (win < 0) return;
    std::optional<double> second;
    for (size_t i = 0; i < vals.size(); ++i)
        if (static_cast<int>(i) != win && vals[i] &&
            (!second || (higher ? *vals[i] > *second : *vals[i] < *second)))
            second = vals[i];
    if (second && *second != 0) margin = 100.0 * std::abs(*vals[win] - *second) / std::abs(*second);
    if (second && margin < k_tie_pct) win = k_tie;  // no policy is better than another here
}

std::string num(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", v);
    return b;
}

const char* policy_colour(size_t i) {
    static const char* const c[] = {"#d95f02", "#1b9e77", "#7570b3", "#e7298a", "#66a61e"};
    return c[i % 5];
}

}  // namespace

policy_map analyse_policy_map(const sweep_plan& plan,
                              const std::vector<std::optional<run_record>>& pts) {
    policy_map m;
    m.axes.assign(plan.grid.begin(), plan.grid.end() - 1);
    m.policies = plan.grid.back().values;
    const size_t np = m.policies.size();
    for (size_t first = 0; first + np <= plan.points.size(); first += np) {
        map_cell c;
        for (size_t k = 0; k + 1 < plan.points[first].size(); ++k) {
            const std::string& kv = plan.points[first][k];
            c.values.push_back(kv.substr(kv.find('=') + 1));
        }
        for (size_t p = 0; p < np; ++p) {
            const auto& rec = pts.at(first + p);
            std::optional<double> a, t, e;
            if (rec) {
                const run_metrics& rm = rec->result.metrics;
                a = static_cast<double>(rm.arithoh_count);
                if (rec->result.sim_seconds > 0)
                    e = static_cast<double>(rm.kvm_guest_exit) / rec->result.sim_seconds;
                double p99 = 0;
                const latency_report& lr = latency_of(rm, "timer_interrupt_latency_ns");
                if (lr.all.count > 0 && metric_value(*rec, "timer_interrupt_latency_ns.p99", p99))
                    t = p99;
            }
            c.arithoh.push_back(a);
            c.timer_p99.push_back(t);
            c.exits_per_s.push_back(e);
        }
        pick(c.arithoh, true, c.winner[0], c.margin_pct[0]);
        pick(c.timer_p99, false, c.winner[1], c.margin_pct[1]);
        pick(c.exits_per_s, false, c.winner[2], c.margin_pct[2]);
        m.cells.push_back(std::move(c));
    }
    return m;
}

std::string policy_map_csv(const policy_map& m) {
    std::string out;
    for (const auto& ax : m.axes) out += csv_field(ax.key) + ",";
    const map_criterion all[] = {map_criterion::throughput, map_criterion::timer_p99,
                                 map_criterion::exits};
    for (auto c : all)
        out += std::string("best_") + criterion_name(c) + ",margin_pct_" + criterion_name(c) + ",";
    for (const auto& p : m.policies)
        out += "arithoh_count." + p + ",timer_interrupt_latency_ns.p99." + p + ",exits_per_s." + p +
               ",";
    out.back() = '\n';
    const auto opt = [](const std::optional<double>& v) {
        return v ? json_number(*v) : std::string();
    };
    for (const auto& c : m.cells) {
        for (const auto& v : c.values) out += csv_field(v) + ",";
        for (int k = 0; k < 3; ++k)
            out += (c.winner[k] == k_tie ? std::string("tie")
                    : c.winner[k] < 0    ? std::string()
                                         : m.policies[c.winner[k]]) +
                   "," + json_number(c.margin_pct[k]) + ",";
        for (size_t p = 0; p < m.policies.size(); ++p)
            out +=
                opt(c.arithoh[p]) + "," + opt(c.timer_p99[p]) + "," + opt(c.exits_per_s[p]) + ",";
        out.back() = '\n';
    }
    return out;
}

std::string policy_map_svg(const policy_map& m, map_criterion crit) {
    const int k = static_cast<int>(crit);
    // Panels: every combination of the axes before the last two, in grid order; inside a
    // panel y is the second-to-last axis and x the last.
    const size_t na = m.axes.size();
    if (na < 2)
        throw std::invalid_argument("policy map: needs at least two axes besides the policy");
    const grid_axis &yax = m.axes[na - 2], &xax = m.axes[na - 1];
    const size_t ny = yax.values.size(), nx = xax.values.size();
    const size_t per_panel = nx * ny;
    const size_t panels = per_panel ? m.cells.size() / per_panel : 0;
    const double cw = 70, ch = 34, pad_l = 70, pad_t = 60, gap = 40;
    const double pw = pad_l + cw * nx, ph = pad_t + ch * ny + 40;
    const size_t cols = std::min<size_t>(panels, 3);
    const size_t rows = cols ? (panels + cols - 1) / cols : 0;
    const double legend_h = 30 + 18 * m.policies.size();
    const double width = 20 + cols * (pw + gap), height = 70 + rows * (ph + gap) + legend_h;
    const char* what = crit == map_criterion::throughput  ? "highest benchmark throughput"
                       : crit == map_criterion::timer_p99 ? "lowest timer-interrupt latency p99"
                                                          : "fewest exits per second";
    std::string out =
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(width) + "\" height=\"" +
        num(height) +
        "\" font-family=\"sans-serif\" font-size=\"11\">\n<title>policy map: " + what +
        "</title>\n";
    out += "<text x=\"20\" y=\"28\" font-size=\"15\">" +
           xml_escape(std::string("Which L1 DEC policy gives the ") + what) + "</text>\n";
    out += "<text x=\"20\" y=\"46\">" +
           xml_escape("cell: the winner; number: its margin over the runner-up (%)") + "</text>\n";
    for (size_t pi = 0; pi < panels; ++pi) {
        const double ox = 20 + (pi % cols) * (pw + gap), oy = 70 + (pi / cols) * (ph + gap);
        const map_cell& first = m.cells[pi * per_panel];
        std::string ptitle;
        for (size_t a = 0; a + 2 < na; ++a)
            ptitle += (a > 0 ? ", " : "") + m.axes[a].key + " = " + first.values[a];
        out += "<g class=\"panel\" data-label=\"" + xml_escape(ptitle) + "\">\n";
        out += "<text x=\"" + num(ox) + "\" y=\"" + num(oy + 14) + "\" font-weight=\"bold\">" +
               xml_escape(ptitle) + "</text>\n";
        for (size_t yi = 0; yi < ny; ++yi)
            for (size_t xi = 0; xi < nx; ++xi) {
                const map_cell& c = m.cells[pi * per_panel + yi * nx + xi];
                const double x = ox + pad_l + cw * xi, y = oy + pad_t + ch * (ny - 1 - yi);
                const int w = c.winner[k];
                const std::string label = w == k_tie ? "tie" : w < 0 ? "" : m.policies[w];
                out += "<rect class=\"cell\" data-winner=\"" + xml_escape(label) + "\" x=\"" +
                       num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(cw - 2) + "\" height=\"" +
                       num(ch - 2) + "\" fill=\"" + (w < 0 ? "#bbbbbb" : policy_colour(w)) +
                       "\"><title>" +
                       xml_escape(w == k_tie ? std::string("tie (within 0.05 %)")
                                  : w < 0    ? std::string("no runs")
                                             : label + " by " + num(c.margin_pct[k]) + " %") +
                       "</title></rect>\n";
                out += "<text x=\"" + num(x + cw / 2 - 1) + "\" y=\"" + num(y + ch / 2 + 3) +
                       "\" text-anchor=\"middle\" fill=\"#fff\">" +
                       (w == k_tie ? std::string("tie")
                        : w < 0    ? std::string("-")
                                   : num(c.margin_pct[k])) +
                       "</text>\n";
            }
        for (size_t xi = 0; xi < nx; ++xi)
            out += "<text x=\"" + num(ox + pad_l + cw * xi + cw / 2) + "\" y=\"" +
                   num(oy + pad_t + ch * ny + 14) + "\" text-anchor=\"middle\">" +
                   xml_escape(xax.values[xi]) + "</text>\n";
        for (size_t yi = 0; yi < ny; ++yi)
            out += "<text x=\"" + num(ox + pad_l - 6) + "\" y=\"" +
                   num(oy + pad_t + ch * (ny - 1 - yi) + ch / 2 + 3) + "\" text-anchor=\"end\">" +
                   xml_escape(yax.values[yi]) + "</text>\n";
        out += "<text x=\"" + num(ox + pad_l + cw * nx / 2) + "\" y=\"" +
               num(oy + pad_t + ch * ny + 30) + "\" text-anchor=\"middle\">" + xml_escape(xax.key) +
               "</text>\n";
        out += "<text x=\"" + num(ox) + "\" y=\"" + num(oy + pad_t - 8) + "\">" +
               xml_escape(yax.key) + "</text>\n";
        out += "</g>\n";
    }
    const double ly = 70 + rows * (ph + gap);
    for (size_t p = 0; p < m.policies.size(); ++p)
        out += "<rect x=\"20\" y=\"" + num(ly + 18 * p) + "\" width=\"12\" height=\"12\" fill=\"" +
               policy_colour(p) + "\"/><text x=\"38\" y=\"" + num(ly + 18 * p + 10) + "\">" +
               xml_escape(m.policies[p]) + "</text>\n";
    out += "</svg>\n";
    return out;
}

}  // namespace nestvp
