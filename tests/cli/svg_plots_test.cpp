// SVG figures: well-formed (xmllint), holding the expected series, axes with units.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>

#include "cli_test_util.h"
#include "platforms/report/plot_data.h"
#include "platforms/report/plot_files.h"
#include "platforms/report/svg_plots.h"
#include "platforms/report/tables.h"
#include "sw/metrics/exit_timeline.h"

namespace nestvp {
namespace {

std::string checked(const std::string& dir, const std::string& name, const std::string& svg) {
    const std::string path = dir + "/" + name;
    write_text_file(path, svg);
    std::string why;
    EXPECT_TRUE(test::xml_well_formed(path, why)) << name << ": " << why;
    return svg;
}

// The (x, y) points of the n-th polyline of class `cls` in svg.
std::vector<std::pair<double, double>> points_of(const std::string& svg, const std::string& cls,
                                                 size_t n = 0) {
    size_t p = svg.find("class=\"" + cls + "\"");
    for (size_t i = 0; i < n && p != std::string::npos; ++i)
        p = svg.find("class=\"" + cls + "\"", p + 1);
    std::vector<std::pair<double, double>> out;
    if (p == std::string::npos) return out;
    p = svg.find("points=\"", p) + 8;
    std::istringstream in(svg.substr(p, svg.find('"', p) - p));
    std::string xy;
    while (in >> xy) out.push_back({std::stod(xy), std::stod(xy.substr(xy.find(',') + 1))});
    return out;
}

// The value of attribute `name` in the first element after `from`.
double attr_after(const std::string& svg, const std::string& from, const std::string& name) {
    const size_t p = svg.find(from);
    if (p == std::string::npos) return -1;
    const size_t v = svg.find(name + "=\"", p) + name.size() + 2;
    return std::stod(svg.substr(v, svg.find('"', v) - v));
}

// The svg width, and the widest legend text's right end at 7 px a character.
void expect_legend_fits(const std::string& svg) {
    const double width = attr_after(svg, "<svg", "width");
    for (size_t p = svg.find("<rect x=\""); p != std::string::npos;
         p = svg.find("<rect x=\"", p + 1)) {
        const size_t t = svg.find("<text x=\"", p);
        if (t == std::string::npos || t > svg.find('\n', svg.find('\n', p) + 1)) continue;
        const double x = std::stod(svg.substr(t + 9));
        const size_t b = svg.find('>', t) + 1;
        const size_t len = svg.find("</text>", b) - b;
        EXPECT_LE(x + 6.5 * len, width) << svg.substr(b, len);
    }
}

TEST(SvgPlots, CdfEndsAtOneWithOneLinePerRun) {
    const std::string dir = test::fresh_dir("svg-cdf");
    const std::vector<std::pair<double, uint64_t>> a = {{800, 10}, {900, 30}, {1000, 60}};
    const std::vector<std::pair<double, uint64_t>> b = {{850, 5}, {3000, 80}, {40000, 15}};
    const std::vector<std::pair<double, uint64_t>> none;
    const std::string svg =
        checked(dir, "c.svg",
                cdf_svg("CDF <l1> & co", "l1 handling latency (ns)",
                        {{"A: l1.dec_policy=no-cancel", &a}, {"B: l1.dec_policy=cancel", &b}}));
    EXPECT_EQ(test::count_of(svg, "class=\"series cdf\""), 2u);
    EXPECT_NE(svg.find("id=\"series-0\" data-label=\"A: l1.dec_policy=no-cancel\" "
                       "data-count=\"100\""),
              std::string::npos);
    EXPECT_NE(svg.find("id=\"series-1\" data-label=\"B: l1.dec_policy=cancel\" data-count=\"100\""),
              std::string::npos);
    EXPECT_NE(svg.find("CDF &lt;l1&gt; &amp; co"), std::string::npos);
    EXPECT_NE(svg.find("cumulative fraction of samples (0..1)"), std::string::npos);
    // 800..40000 ns spans 50x: log scale, said on the axis.
    EXPECT_NE(svg.find("l1 handling latency (ns), log scale"), std::string::npos);
    for (size_t i = 0; i < 2; ++i) {
        const auto pts = points_of(svg, "series cdf", i);
        ASSERT_FALSE(pts.empty());
        EXPECT_DOUBLE_EQ(pts.front().second, 350.0);  // fraction 0 at the bottom (top 50 + 300)
        EXPECT_DOUBLE_EQ(pts.back().second, 50.0);    // fraction 1 at the top
        for (size_t k = 1; k < pts.size(); ++k) {
            EXPECT_GE(pts[k].first, pts[k - 1].first);    // x ascends
            EXPECT_LE(pts[k].second, pts[k - 1].second);  // never decreases
        }
    }
    // A at 900 ns: 40 % of its samples at or below (y = 350 - 0.4 * 300).
    const auto pa = points_of(svg, "series cdf", 0);
    EXPECT_DOUBLE_EQ(pa[3].second, 230.0);
    expect_legend_fits(svg);
    // Narrow range: linear; a run without samples is named but draws no line.
    const std::string lin =
        checked(dir, "l.svg", cdf_svg("t", "x (ns)", {{"a", &a}, {"empty run", &none}}));
    EXPECT_EQ(lin.find("log scale"), std::string::npos);
    EXPECT_EQ(test::count_of(lin, "class=\"series cdf\""), 1u);
    EXPECT_NE(lin.find("empty run (no samples)"), std::string::npos);
    const std::string empty = checked(dir, "e.svg", cdf_svg("t", "x (ns)", {{"a", &none}}));
    EXPECT_NE(empty.find("no samples recorded"), std::string::npos);
    const std::vector<std::pair<double, uint64_t>> one = {{5, 1}};
    checked(dir, "one.svg", cdf_svg("t", "x (ns)", {{"a", &one}}));
}

TEST(SvgPlots, StackedBarSegmentsAreProportionalToTheBreakdown) {
    const std::string dir = test::fresh_dir("svg-bar");
    const std::vector<latency_step> a = {{"exit decode", 100}, {"HDEC reprogram", 300}};
    const std::vector<latency_step> b = {{"exit decode", 100},
                                         {"a rather long step name for the legend", 50}};
    const std::string svg =
        checked(dir, "b.svg", stacked_bar_svg("breakdown", {{"no-cancel", &a}, {"cancel", &b}}));
    EXPECT_EQ(test::count_of(svg, "class=\"series bar\""), 2u);
    EXPECT_EQ(test::count_of(svg, "class=\"segment\""), 4u);
    EXPECT_NE(svg.find("mean time per sample (ns)"), std::string::npos);
    const double decode_a = attr_after(svg, "data-step=\"exit decode\" data-ns=\"100\"", "height");
    const double reprogram = attr_after(svg, "data-step=\"HDEC reprogram\"", "height");
    const double long_step =
        attr_after(svg, "data-step=\"a rather long step name for the legend\"", "height");
    ASSERT_GT(decode_a, 0);
    EXPECT_NEAR(reprogram / decode_a, 3.0, 0.01);
    EXPECT_NEAR(long_step / decode_a, 0.5, 0.01);
    // One colour per step: the shared step has the same fill in both bars.
    const size_t s0 = svg.find("data-step=\"exit decode\""),
                 s1 = svg.find("data-step=\"exit decode\"", s0 + 1);
    const auto fill_after = [&](size_t p) {
        const size_t f = svg.find("fill=\"", p) + 6;
        return svg.substr(f, 7);
    };
    EXPECT_EQ(fill_after(s0), fill_after(s1));
    EXPECT_NE(fill_after(s0), fill_after(svg.find("data-step=\"HDEC reprogram\"")));
    expect_legend_fits(svg);
}

TEST(SvgPlots, ExitRateShowsAThreeTimesRateDifferencePerVcpu) {
    const std::string dir = test::fresh_dir("svg-rate");
    exit_timeline t(2, 1.0);  // vCPU 0: 3000 exits/s, vCPU 1: 1000 exits/s over 1 s
    for (int i = 0; i < 3000; ++i) t.add((i + 0.5) / 3000.0, 0);
    for (int i = 0; i < 1000; ++i) t.add((i + 0.5) / 1000.0, 1);
    const exit_bins ev{t.bin_seconds(), t.counts()};
    const std::string svg = checked(dir, "r.svg", exit_rate_svg("exits", ev, 1.0));
    EXPECT_EQ(test::count_of(svg, "class=\"series line\""), 2u);
    EXPECT_NE(svg.find("data-label=\"vCPU 0 (3000 exits, 3000/s)\""), std::string::npos) << svg;
    EXPECT_NE(svg.find("data-label=\"vCPU 1 (1000 exits, 1000/s)\""), std::string::npos);
    EXPECT_NE(svg.find("exits per second (1/s)"), std::string::npos);
    EXPECT_NE(svg.find("simulated time (s)"), std::string::npos);
    const auto p0 = points_of(svg, "series line", 0), p1 = points_of(svg, "series line", 1);
    ASSERT_EQ(p0.size(), 100u);
    ASSERT_EQ(p1.size(), 100u);
    const double base = 350;  // y of rate 0
    for (size_t k = 0; k < p0.size(); ++k)
        EXPECT_NEAR((base - p0[k].second) / (base - p1[k].second), 3.0, 1e-9) << k;
    expect_legend_fits(svg);
    // A shared y scale: the same run drawn against a higher top gives lower lines.
    const std::string scaled = exit_rate_svg("exits", ev, 1.0, 2 * max_exit_rate(ev, 1.0));
    EXPECT_GT(points_of(scaled, "series line", 0)[0].second, p0[0].second);
    const std::string none = checked(dir, "n.svg", exit_rate_svg("exits", exit_bins{}, 1.0));
    EXPECT_NE(none.find("no exits recorded"), std::string::npos);
}

TEST(SvgPlots, LineChartNumericAndCategorical) {
    const std::string dir = test::fresh_dir("svg-line");
    const std::string num = checked(
        dir, "n.svg",
        line_chart_svg(
            "exits vs HZ", "l2.hz (Hz)", "kvm_guest_exit (count per run)", {"100", "250", "1000"},
            std::vector<line_series>{{"l1.dec_policy=cancel", {1, 2, 3}},
                                     {"l1.dec_policy=no-cancel", {4, std::nan(""), 6}}}));
    EXPECT_EQ(test::count_of(num, "class=\"series line\""), 2u);
    EXPECT_EQ(test::count_of(num, "class=\"point\""), 5u);  // the NaN point is left out
    EXPECT_NE(num.find("data-label=\"l1.dec_policy=no-cancel\""), std::string::npos);
    EXPECT_NE(num.find("data-x=\"1000\" data-y=\"3\""), std::string::npos);
    EXPECT_NE(num.find("l2.hz (Hz)"), std::string::npos);
    const std::string cat =
        checked(dir, "c.svg",
                line_chart_svg("t", "policy (setting value)", "y (count)", {"cancel", "no-cancel"},
                               std::vector<line_series>{{"s", {1, 1}}}));
    EXPECT_NE(cat.find(">no-cancel</text>"), std::string::npos);
}

TEST(SvgPlots, PlotDataCarriesTheExitTimeline) {
    run_result r;
    exit_timeline t(2, 1.0, 4);
    t.add(0.25, 1);
    t.add(0.5, 0);
    t.add(0.55, 0);
    r.exits = {t.bin_seconds(), t.counts()};
    run_result back;
    parse_plot_data(plot_data_text(r), "x.plot", back);
    EXPECT_EQ(back.exits.bin_s, 0.25);
    ASSERT_EQ(back.exits.counts.size(), 2u);
    EXPECT_EQ(back.exits.counts[0], (std::vector<uint64_t>{0, 0, 2}));
    EXPECT_EQ(back.exits.counts[1], (std::vector<uint64_t>{0, 1}));
    EXPECT_EQ(plot_data_text(back), plot_data_text(r));
    EXPECT_THROW(parse_plot_data("bin_s x\n", "x.plot", back), std::runtime_error);
    EXPECT_THROW(parse_plot_data("bin_s 0.1\nvcpu 0 1 -2\n", "x.plot", back), std::runtime_error);
    EXPECT_THROW(parse_plot_data("vcpu 0 1\n", "x.plot", back), std::runtime_error);
    EXPECT_THROW(parse_plot_data("bin_s 0.1\nvcpu 0 99999999999999999999\n", "x.plot", back),
                 std::runtime_error);
    try {
        parse_plot_data("bin_s 1\nevent 1 0 0\n", "x.plot", back);  // the old event lines
        FAIL() << "no error";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "x.plot:2: malformed plot data line");
    }
}

// Memory stays bounded: exits past the span merge bins pairwise instead of adding bins, and
// no exit is lost.
TEST(SvgPlots, ExitTimelineStaysBoundedAndCountsEveryExit) {
    exit_timeline t(1, 1.0, 8);
    for (int i = 0; i < 1000; ++i) t.add(i * 0.01, 0);  // 10 s against a 1 s span
    EXPECT_LE(t.counts()[0].size(), 8u);
    EXPECT_EQ(t.bin_seconds(), 2.0);  // 0.125 s doubled four times
    uint64_t sum = 0;
    for (uint64_t n : t.counts()[0]) sum += n;
    EXPECT_EQ(sum, 1000u);
    EXPECT_EQ(t.counts()[0][0], 200u);
}

TEST(SvgPlots, FigureSetsForRunAndSweep) {
    const std::string dir = test::fresh_dir("svg-sets");
    run_result a, b;
    latency_report& la = a.metrics.latencies["l1_handling_latency_ns"];
    la.all = {3, 2, 2, 3, 3, 3};
    la.histogram = {{1, 1}, {2, 1}, {3, 1}};
    la.breakdown = {{"decode", 1}, {"resume", 1}};
    b.metrics.latencies["l1_handling_latency_ns"].histogram = {{4, 2}};
    b.metrics.latencies["wake_latency_ns"].all.count = 0;  // measured nowhere: no figure
    a.exits = {0.25, {{1}}};
    a.sim_seconds = b.sim_seconds = 1;
    const auto files = write_run_plots(dir, {{"A", &a}, {"B", &b}});
    EXPECT_EQ(files.size(), 4u);
    for (const char* f : {"cdf-l1_handling_latency_ns.svg", "breakdown-l1_handling_latency_ns.svg",
                          "exit-rate-a.svg", "exit-rate-b.svg"}) {
        std::string why;
        EXPECT_TRUE(test::xml_well_formed(dir + "/" + f, why)) << f << why;
    }
    EXPECT_EQ(test::count_of(test::slurp(dir + "/cdf-l1_handling_latency_ns.svg"),
                             "class=\"series cdf\""),
              2u);
    const std::string one = test::fresh_dir("svg-sets-one");
    EXPECT_EQ(write_run_plots(one, {{"A", &a}}).back(), one + "/exit-rate.svg");

    const sweep_plan p = make_sweep_plan(
        "/f", {}, {parse_grid("l2.hz=100,250"), parse_grid("l1.dec_policy=cancel,no-cancel")});
    std::vector<std::optional<run_record>> pts(4);
    for (size_t i = 0; i < 4; ++i) {
        if (i == 2) continue;  // a failed point
        run_record r;
        r.result.metrics.kvm_guest_exit = 10 * (i + 1);
        pts[i] = r;
    }
    const auto charts = write_sweep_plots(dir, p, pts);
    // Only kvm_guest_exit is non-zero in these records: every other metric gets no chart.
    ASSERT_EQ(charts.size(), 1u);
    EXPECT_EQ(charts[0], dir + "/sweep-kvm_guest_exit.svg");
    EXPECT_FALSE(test::file_exists(dir + "/sweep-h_enter_nested.svg"));
    const std::string svg = test::slurp(dir + "/sweep-kvm_guest_exit.svg");
    std::string why;
    EXPECT_TRUE(test::xml_well_formed(dir + "/sweep-kvm_guest_exit.svg", why)) << why;
    EXPECT_NE(svg.find("data-label=\"l1.dec_policy=cancel\""), std::string::npos);
    EXPECT_NE(svg.find("data-label=\"l1.dec_policy=no-cancel\""), std::string::npos);
    EXPECT_NE(svg.find("l2.hz (Hz)"), std::string::npos);
    EXPECT_NE(svg.find("data-x=\"250\" data-y=\"40\""),
              std::string::npos);  // point 3: hz=250, no-cancel
    EXPECT_EQ(test::count_of(svg, "class=\"point\""), 3u);
    EXPECT_EQ(unit_of_key("run.duration_s"), "s");
    EXPECT_EQ(unit_of_key("l2.vcpus"), "vCPUs");
    EXPECT_EQ(file_part("a/b c"), "a_b_c");
}

}  // namespace
}  // namespace nestvp
