#include "platforms/report/tornado_svg.h"

#include <algorithm>
#include <cstdio>

#include "platforms/report/svg_plots.h"

namespace nestvp {

namespace {
std::string num(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", v);
    return b;
}
}  // namespace

std::string tornado_svg(const uncertainty_target& t, size_t max_bars) {
    const size_t n = std::min(max_bars, t.shares.size());
    const double label_w = 330, half = 260, bar_h = 22, top = 70;
    const double width = label_w + 2 * half + 40, height = top + bar_h * n + 70;
    const double mid = label_w + half;
    std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(width) +
                      "\" height=\"" + num(height) + "\" font-family=\"sans-serif\" " +
                      "font-size=\"12\">\n<title>" + xml_escape(t.name) + "</title>\n";
    out += "<text x=\"" + num(width / 2) + "\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">" +
           xml_escape("share of variance: " + t.name) + "</text>\n";
    out += "<text x=\"" + num(width / 2) + "\" y=\"44\" text-anchor=\"middle\">" +
           xml_escape("5-95 %: " + json_number(t.p5) + " .. " + json_number(t.p95) + "; median " +
                      json_number(t.median) + " (" + std::to_string(t.n) +
                      " samples); left: output falls as the input rises") +
           "</text>\n";
    out += "<line x1=\"" + num(mid) + "\" y1=\"" + num(top - 6) + "\" x2=\"" + num(mid) +
           "\" y2=\"" + num(top + bar_h * n) + "\" stroke=\"#000\"/>\n";
    for (size_t i = 0; i < n; ++i) {
        const variance_share& s = t.shares[i];
        const double len = s.share * half, y = top + bar_h * i;
        const double x = s.rho < 0 ? mid - len : mid;
        out += "<g class=\"series bar\" data-label=\"" + xml_escape(s.key) + "\" data-share=\"" +
               json_number(s.share) + "\" data-rho=\"" + json_number(s.rho) + "\">\n";
        out += "<text x=\"" + num(label_w - 8) + "\" y=\"" + num(y + bar_h * 0.7) +
               "\" text-anchor=\"end\">" + xml_escape(s.key) + "</text>\n";
        out += "<rect x=\"" + num(x) + "\" y=\"" + num(y + 3) + "\" width=\"" + num(len) +
               "\" height=\"" + num(bar_h - 6) + "\" fill=\"" +
               (s.rho < 0 ? "#d95f02" : "#1b9e77") + "\"><title>" + xml_escape(s.key) + ": " +
               num(100 * s.share) + " %, rank correlation " + json_number(s.rho) +
               "</title></rect>\n";
        out += "<text x=\"" + num(s.rho < 0 ? x - 4 : x + len + 4) + "\" y=\"" +
               num(y + bar_h * 0.7) + "\" text-anchor=\"" + (s.rho < 0 ? "end" : "start") + "\">" +
               num(100 * s.share) + " %</text>\n</g>\n";
    }
    out += "<text x=\"" + num(mid) + "\" y=\"" + num(top + bar_h * n + 30) +
           "\" text-anchor=\"middle\">share of the explained variance (%), by assumption</text>\n";
    out += "</svg>\n";
    return out;
}

}  // namespace nestvp
