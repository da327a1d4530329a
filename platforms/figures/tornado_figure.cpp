// Tornado chart of one uncertainty target.
#include "platforms/figures/tornado_figure.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "platforms/records/json.h"

namespace nestvp {

gnuplot_script tornado_figure(const uncertainty_target& t, size_t max_bars) {
    const size_t n = std::min(max_bars, t.shares.size());
    gnuplot_script g("share of variance: " + t.name + "\n5-95 %: " + json_number(t.p5) + " .. " +
                         json_number(t.p95) + "; median " + json_number(t.median) + " (" +
                         std::to_string(t.n) + " samples)",
                     1000, static_cast<int>(180 + 26 * n));
    g.line("set xlabel " + gp_quote("share of the explained variance (%), by assumption; left: "
                                    "the output falls as the input rises"));
    g.line("set style fill solid 1.0 noborder");
    g.line("set key outside bottom center horizontal");
    g.line("set grid xtics lc rgb \"#dddddd\"");
    g.line("set arrow from 0, graph 0 to 0, graph 1 nohead");
    std::vector<std::vector<double>> rise, fall;
    std::vector<std::string> keys(n);  // bottom up: the longest bar on top
    double widest = 1;
    for (size_t i = 0; i < n; ++i) {
        const variance_share& s = t.shares[i];
        const double pct = std::isfinite(s.share) ? 100 * s.share : 0;
        const double y = static_cast<double>(n - 1 - i);
        const bool falls = s.rho < 0;
        const double lo = falls ? -pct : 0, hi = falls ? 0 : pct;
        (falls ? fall : rise).push_back({(lo + hi) / 2, y, lo, hi, y - 0.35, y + 0.35});
        keys[n - 1 - i] = s.key;
        char text[48];
        std::snprintf(text, sizeof text, "%.1f %% (rho %.2f)", pct, s.rho);
        g.line("set label " + gp_quote(text) + " at " + gp_number(falls ? lo : hi) + ", " +
               gp_number(y) + (falls ? " right offset -0.5,0" : " left offset 0.5,0"));
        widest = std::max(widest, pct);
    }
    g.line("set ytics " + gp_tics(keys));
    g.line("set yrange [-0.6:" + gp_number(n - 0.4) + "]");
    g.line("set xrange [" + gp_number(-1.5 * widest) + ":" + gp_number(1.5 * widest) + "]");
    if (n == 0) {
        g.line("set label \"no assumptions\" at graph 0.5, graph 0.5 center");
        g.line("plot NaN notitle");
        return g;
    }
    g.data("rise", rise);
    g.data("fall", fall);
    g.line(
        "plot $rise using 1:2:3:4:5:6 with boxxyerror lc rgb \"#1b9e77\" title "
        "\"the output rises with the input\", $fall using 1:2:3:4:5:6 with boxxyerror lc rgb "
        "\"#d95f02\" title \"the output falls as the input rises\"");
    return g;
}

}  // namespace nestvp
