// Heatmaps of the policy decision map.
#include "platforms/figures/policy_map_figure.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace nestvp {

namespace {

std::string one_decimal(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", v);
    return b;
}

constexpr uint32_t k_policy_rgb[] = {0xd95f02, 0x1b9e77, 0x7570b3, 0xe7298a, 0x66a61e};
constexpr uint32_t k_tie_rgb = 0x999999, k_no_runs_rgb = 0xbbbbbb;

std::string rgb_text(uint32_t c) {
    char b[16];
    std::snprintf(b, sizeof b, "#%06x", static_cast<unsigned>(c));
    return b;
}

}  // namespace

gnuplot_script policy_map_figure(const policy_map& m, map_criterion crit) {
    const int k = static_cast<int>(crit);
    const size_t na = m.axes.size();
    if (na < 2)
        throw std::invalid_argument("policy map: needs at least two axes besides the policy");
    const grid_axis &yax = m.axes[na - 2], &xax = m.axes[na - 1];
    const size_t ny = yax.values.size(), nx = xax.values.size();
    const size_t per_panel = nx * ny;
    const size_t panels = per_panel ? m.cells.size() / per_panel : 0;
    if (panels == 0) throw std::invalid_argument("policy map: no cells to draw");
    const size_t cols = std::min<size_t>(panels, 3), rows = (panels + cols - 1) / cols;
    const char* what = crit == map_criterion::throughput  ? "highest benchmark throughput"
                       : crit == map_criterion::timer_p99 ? "lowest timer-interrupt latency p99"
                                                          : "fewest exits per second";
    const std::string title = std::string("Which L1 DEC policy gives the ") + what +
                              "\ncell: the winner; number: its margin over the runner-up (%)";
    gnuplot_script g(title, static_cast<int>(cols * (330 + 80 * nx)),
                     static_cast<int>(rows * (150 + 40 * ny) + 80));
    g.line("set style fill solid 1.0 border rgb \"white\"");
    g.line("set key outside right top");  // in every panel, so the panels match
    g.line("set xlabel " + gp_quote(xax.key));
    g.line("set ylabel " + gp_quote(yax.key));
    g.line("set xtics " + gp_tics(xax.values));
    g.line("set ytics " + gp_tics(yax.values));
    g.line("set xrange [-0.5:" + std::to_string(nx) + "-0.5]");
    g.line("set yrange [-0.5:" + std::to_string(ny) + "-0.5]");
    g.line("set multiplot layout " + std::to_string(rows) + "," + std::to_string(cols) + " title " +
           gp_quote(title));
    // The key: every policy, and grey for cells without runs.
    std::string key;
    for (size_t p = 0; p < m.policies.size(); ++p)
        key += ", NaN with boxes fc rgb \"" + rgb_text(k_policy_rgb[p % 5]) + "\" title " +
               gp_quote(m.policies[p]);
    key += ", NaN with boxes fc rgb \"" + rgb_text(k_tie_rgb) + "\" title \"tie (within 0.05 %)\"";
    key += ", NaN with boxes fc rgb \"" + rgb_text(k_no_runs_rgb) + "\" title \"no runs\"";
    for (size_t pi = 0; pi < panels; ++pi) {
        const map_cell& first = m.cells[pi * per_panel];
        std::string ptitle;
        for (size_t a = 0; a + 2 < na; ++a)
            ptitle += (a > 0 ? ", " : "") + m.axes[a].key + " = " + first.values[a];
        g.line("unset label");
        g.line("set title " + gp_quote(ptitle));
        std::vector<std::vector<double>> cells;
        for (size_t yi = 0; yi < ny; ++yi)
            for (size_t xi = 0; xi < nx; ++xi) {
                const map_cell& c = m.cells[pi * per_panel + yi * nx + xi];
                const int w = c.winner[k];
                const uint32_t rgb = w >= 0       ? k_policy_rgb[w % 5]
                                     : w == k_tie ? k_tie_rgb
                                                  : k_no_runs_rgb;
                cells.push_back({double(xi), double(yi), double(rgb)});
                const std::string text = w == k_tie ? std::string("tie")
                                         : w < 0    ? std::string("-")
                                                    : one_decimal(c.margin_pct[k]);
                g.line("set label " + gp_quote(text) + " at " + std::to_string(xi) + ", " +
                       std::to_string(yi) + " center front tc rgb \"white\"");
            }
        const std::string name = "p" + std::to_string(pi);
        g.data(name, cells);
        g.line("plot $" + name +
               " using 1:2:(0.5):(0.5):3 with boxxyerror fc rgb variable notitle" + key);
    }
    g.line("unset multiplot");
    return g;
}

}  // namespace nestvp
