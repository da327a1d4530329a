// SVG figures: well-formed (xmllint), holding the expected series, axes with units.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "cli_test_util.h"
#include "platforms/report/plot_files.h"
#include "platforms/report/svg_plots.h"
#include "platforms/report/tables.h"

namespace nestvp {
namespace {

std::string checked(const std::string& dir, const std::string& name, const std::string& svg) {
    const std::string path = dir + "/" + name;
    write_text_file(path, svg);
    std::string why;
    EXPECT_TRUE(test::xml_well_formed(path, why)) << name << ": " << why;
    return svg;
}

TEST(SvgPlots, HistogramOverlaysSeries) {
    const std::string dir = test::fresh_dir("svg-hist");
    std::vector<double> a, b;
    for (int i = 0; i < 1000; ++i) {
        a.push_back(800 + (i % 50));
        b.push_back(900 + (i % 70));
    }
    b.push_back(1e6);  // an outlier lands in the last bin and is noted
    const std::string svg =
        checked(dir, "h.svg",
                histogram_svg("entry <latency> & co", "nested entry latency (ns)",
                              {{"no-cancel", &a}, {"cancel", &b}}));
    EXPECT_EQ(test::count_of(svg, "class=\"series histogram\""), 2u);
    EXPECT_NE(svg.find("id=\"series-0\" data-label=\"no-cancel\" data-count=\"1000\""),
              std::string::npos);
    EXPECT_NE(svg.find("id=\"series-1\" data-label=\"cancel\" data-count=\"1001\""),
              std::string::npos);
    EXPECT_NE(svg.find("nested entry latency (ns)"), std::string::npos);
    EXPECT_NE(svg.find("samples per bin (count)"), std::string::npos);
    EXPECT_NE(svg.find("entry &lt;latency&gt; &amp; co"), std::string::npos);
    EXPECT_NE(svg.find("1 above"), std::string::npos);
    // No bar rises above the plot area (y >= the top margin of 50), also when the tallest
    // bin (51) is just above a tick (50).
    std::vector<double> tall(51, 10.0);
    tall.push_back(0.0);
    const std::string t = checked(dir, "tall.svg", histogram_svg("t", "x (ns)", {{"tall", &tall}}));
    for (const std::string& s : {svg, t})
        for (size_t p = s.find(" L"); p != std::string::npos; p = s.find(" L", p + 2)) {
            const size_t comma = s.find(',', p);
            EXPECT_GE(std::stod(s.substr(comma + 1)), 50.0) << s.substr(p, 30);
        }
    // Empty input still gives a valid figure.
    const std::string empty =
        checked(dir, "e.svg", histogram_svg("t", "x (ns)", std::vector<hist_series>{}));
    EXPECT_NE(empty.find("no samples recorded"), std::string::npos);
    const std::vector<double> one = {5};
    checked(dir, "one.svg", histogram_svg("t", "x (ns)", {{"a", &one}}));
}

TEST(SvgPlots, TimelineHasOneRowPerVcpuAndColoursByReason) {
    const std::string dir = test::fresh_dir("svg-timeline");
    std::vector<exit_event> ev;
    for (int i = 0; i < 5000; ++i)
        ev.push_back({i * 0.0002, static_cast<unsigned>(i % 3), i % 5 ? 0xc00u : 0x980u});
    const std::string svg = checked(dir, "t.svg", timeline_svg("exits", ev, 1.0));
    EXPECT_EQ(test::count_of(svg, "class=\"vcpu\""), 3u);
    EXPECT_NE(svg.find("id=\"vcpu-2\""), std::string::npos);
    EXPECT_NE(svg.find("data-reason=\"0x980\""), std::string::npos);
    EXPECT_NE(svg.find("data-reason=\"0xc00\""), std::string::npos);
    EXPECT_NE(svg.find("0x980 HDEC (1000)"), std::string::npos);
    EXPECT_NE(svg.find("simulated time (s)"), std::string::npos);
    // Size is bounded by the picture, not the number of exits.
    EXPECT_LT(test::count_of(svg, "<rect"), 3u * 2u * 600u);
    const std::string none = checked(dir, "n.svg", timeline_svg("exits", {}, 1.0));
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

TEST(SvgPlots, PlotDataRoundTrips) {
    run_result r;
    r.metrics.nested_entry_samples_ns = {1.5, 2000};
    r.metrics.nested_exit_samples_ns = {3};
    r.exits = {{0.25, 1, 0x980}, {0.5, 0, 0xc00}};
    run_result back;
    parse_plot_data(plot_data_text(r), "x.plot", back);
    EXPECT_EQ(back.metrics.nested_entry_samples_ns, r.metrics.nested_entry_samples_ns);
    EXPECT_EQ(back.metrics.nested_exit_samples_ns, r.metrics.nested_exit_samples_ns);
    ASSERT_EQ(back.exits.size(), 2u);
    EXPECT_EQ(back.exits[1].reason, 0xc00u);
    EXPECT_THROW(parse_plot_data("entry x\n", "x.plot", back), std::runtime_error);
    EXPECT_THROW(parse_plot_data("what 1\n", "x.plot", back), std::runtime_error);
}

TEST(SvgPlots, FigureSetsForRunAndSweep) {
    const std::string dir = test::fresh_dir("svg-sets");
    run_result a, b;
    a.metrics.nested_entry_samples_ns = {1, 2, 3};
    b.metrics.nested_exit_samples_ns = {4, 5};
    a.exits = {{0.1, 0, 0x980}};
    const auto files = write_run_plots(dir, {{"A", &a}, {"B", &b}});
    EXPECT_EQ(files.size(), 4u);
    for (const char* f :
         {"latency-entry.svg", "latency-exit.svg", "timeline-a.svg", "timeline-b.svg"}) {
        std::string why;
        EXPECT_TRUE(test::xml_well_formed(dir + "/" + f, why)) << f << why;
    }
    EXPECT_EQ(test::count_of(test::slurp(dir + "/latency-entry.svg"), "class=\"series histogram\""),
              2u);

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
    EXPECT_EQ(charts.size(), chart_metrics().size());
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
