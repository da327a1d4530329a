// --plot figures: gnuplot scripts whose data blocks hold the expected series, rendered by
// gnuplot into well-formed SVG (xmllint) with titles, axes with units and a key entry per series.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

#include <sys/stat.h>

#include "cli_test_util.h"
#include "platforms/figures/figures.h"
#include "platforms/figures/plot_data.h"
#include "platforms/figures/plot_files.h"
#include "platforms/figures/tornado_figure.h"
#include "platforms/records/text_files.h"
#include "platforms/report/tables.h"
#include "sw/metrics/exit_timeline.h"

namespace nestvp {
namespace {

using rows = std::vector<std::vector<double>>;

// The rows of data block $name in a script ("NaN" reads as NaN).
rows data_block(const std::string& script, const std::string& name) {
    const std::string start = "$" + name + " << EOD\n";
    const size_t b = script.find(start);
    if (b == std::string::npos) return {};
    std::istringstream in(script.substr(b + start.size()));
    rows out;
    for (std::string line; std::getline(in, line) && line != "EOD";) {
        std::istringstream fields(line);
        std::vector<double> row;
        for (std::string f; fields >> f;) row.push_back(std::strtod(f.c_str(), nullptr));
        out.push_back(row);
    }
    return out;
}

// Renders the script with gnuplot into dir/name.svg, checks the SVG is well-formed and
// returns it.
std::string rendered(const std::string& dir, const std::string& name, const gnuplot_script& g) {
    const drawn_figures drawn = render_figures({{figure_in(dir, name), g}}, 2);
    EXPECT_EQ(drawn.error, "");
    const std::vector<std::string>& svgs = drawn.svgs;
    std::string why;
    EXPECT_TRUE(test::xml_well_formed(svgs.at(0), why)) << name << ": " << why;
    return test::slurp(svgs.at(0));
}

TEST(Figures, CdfEndsAtOneWithOneLinePerRun) {
    const std::string dir = test::fresh_dir("fig-cdf");
    const std::vector<std::pair<double, uint64_t>> a = {{800, 10}, {900, 30}, {1000, 60}};
    const std::vector<std::pair<double, uint64_t>> b = {{850, 5}, {3000, 80}, {40000, 15}};
    const std::vector<std::pair<double, uint64_t>> none;
    const gnuplot_script g =
        cdf_figure("CDF <l1> & \"co\"", "l1 handling latency (ns)",
                   {{"A: l1.dec_policy=no-cancel", &a}, {"B: l1.dec_policy=cancel", &b}});
    const std::string gp = g.text("c.svg");
    for (const char* name : {"s0", "s1"}) {
        const rows pts = data_block(gp, name);
        ASSERT_EQ(pts.size(), 6u) << name;  // two points a bin
        EXPECT_EQ(pts.front()[1], 0.0);     // fraction 0 at the first bin
        EXPECT_EQ(pts.back()[1], 1.0);      // and 1 after the last
        for (size_t k = 1; k < pts.size(); ++k) {
            EXPECT_GE(pts[k][0], pts[k - 1][0]);  // x ascends
            EXPECT_GE(pts[k][1], pts[k - 1][1]);  // never decreases
        }
    }
    // A at 900 ns: 40 % of its samples at or below.
    EXPECT_EQ(data_block(gp, "s0")[3], (std::vector<double>{900, 0.4}));
    // 800..40000 ns spans 50x: log scale, said on the axis.
    EXPECT_NE(gp.find("set logscale x"), std::string::npos);
    const std::string svg = rendered(dir, "c", g);
    EXPECT_NE(svg.find("CDF &lt;l1"), std::string::npos);  // the title, escaped
    EXPECT_NE(svg.find(" &amp; \"co\""), std::string::npos);
    EXPECT_NE(svg.find("A: l1.dec_policy=no-cancel (n=100)"), std::string::npos);
    EXPECT_NE(svg.find("B: l1.dec_policy=cancel (n=100)"), std::string::npos);
    EXPECT_NE(svg.find("cumulative fraction of samples (0..1)"), std::string::npos);
    EXPECT_NE(svg.find("l1 handling latency (ns), log scale"), std::string::npos);
    EXPECT_EQ(test::count_of(svg, "<g id=\"gnuplot_plot_"), 2u);
    // Narrow range: linear; a run without samples is named but has no data.
    const gnuplot_script lin = cdf_figure("t", "x (ns)", {{"a", &a}, {"empty run", &none}});
    EXPECT_EQ(lin.text("l.svg").find("logscale"), std::string::npos);
    EXPECT_TRUE(data_block(lin.text("l.svg"), "s1").empty());
    EXPECT_NE(rendered(dir, "l", lin).find("empty run (no samples)"), std::string::npos);
    EXPECT_NE(
        rendered(dir, "e", cdf_figure("t", "x (ns)", {{"a", &none}})).find("no samples recorded"),
        std::string::npos);
    const std::vector<std::pair<double, uint64_t>> one = {{5, 1}};
    rendered(dir, "one", cdf_figure("t", "x (ns)", {{"a", &one}}));
}

TEST(Figures, StackedBarSegmentsAreTheBreakdownMeans) {
    const std::string dir = test::fresh_dir("fig-bar");
    const std::vector<latency_step> a = {{"exit decode", 100}, {"HDEC reprogram", 300}};
    const std::vector<latency_step> b = {{"exit decode", 100.5},
                                         {"a rather long step name for the legend", 50}};
    const gnuplot_script g = breakdown_figure("breakdown", {{"no-cancel", &a}, {"cancel", &b}});
    // A row per run, a column per step in path order (one colour per step across runs: B's
    // step follows the one it comes after in B); the step a run lacks is 0.
    EXPECT_EQ(data_block(g.text("b.svg"), "bars"), (rows{{100, 0, 300}, {100.5, 50, 0}}));
    const std::string svg = rendered(dir, "b", g);
    EXPECT_NE(svg.find("mean time per sample (ns)"), std::string::npos);
    for (const char* t : {"exit decode", "HDEC reprogram", "a rather long step name for the legend",
                          "no-cancel", "cancel", "400 ns", "150.5 ns"})
        EXPECT_NE(svg.find(std::string(">") + t + "<"), std::string::npos) << t;
    EXPECT_EQ(test::count_of(svg, "<g id=\"gnuplot_plot_"), 3u);
    // No breakdown at all still renders, saying so.
    EXPECT_NE(rendered(dir, "n", breakdown_figure("b", {{"x", nullptr}})).find("no samples"),
              std::string::npos);
}

TEST(Figures, ExitRateShowsAThreeTimesRateDifferencePerVcpu) {
    const std::string dir = test::fresh_dir("fig-rate");
    exit_timeline t(2, 1.0);  // vCPU 0: 3000 exits/s, vCPU 1: 1000 exits/s over 1 s
    for (int i = 0; i < 3000; ++i) t.add((i + 0.5) / 3000.0, 0);
    for (int i = 0; i < 1000; ++i) t.add((i + 0.5) / 1000.0, 1);
    const exit_bins ev{t.bin_seconds(), t.counts()};
    const gnuplot_script g = exit_rate_figure("exits", ev, 1.0);
    const rows pts = data_block(g.text("r.svg"), "lines");
    ASSERT_EQ(pts.size(), 100u);
    for (size_t k = 0; k < pts.size(); ++k) {
        ASSERT_EQ(pts[k].size(), 3u);
        EXPECT_NEAR(pts[k][1] / pts[k][2], 3.0, 1e-9) << k;
        EXPECT_NEAR(pts[k][0], (k + 0.5) / 100.0, 1e-12);
    }
    const std::string svg = rendered(dir, "r", g);
    EXPECT_NE(svg.find("vCPU 0 (3000 exits, 3000/s)"), std::string::npos);
    EXPECT_NE(svg.find("vCPU 1 (1000 exits, 1000/s)"), std::string::npos);
    EXPECT_NE(svg.find("exits per second (1/s)"), std::string::npos);
    EXPECT_NE(svg.find("simulated time (s)"), std::string::npos);
    // A shared y scale: the axis reaches at least the given top.
    EXPECT_NE(exit_rate_figure("exits", ev, 1.0, 2 * max_exit_rate(ev, 1.0))
                  .text("r.svg")
                  .find("set yrange [*<0:6000<*]"),
              std::string::npos);
    EXPECT_NE(
        rendered(dir, "n", exit_rate_figure("exits", exit_bins{}, 1.0)).find("no exits recorded"),
        std::string::npos);
}

TEST(Figures, LineChartNumericAndCategorical) {
    const std::string dir = test::fresh_dir("fig-line");
    const gnuplot_script num = line_chart_figure(
        "exits vs HZ", "l2.hz (Hz)", "kvm_guest_exit (count per run)", {"100", "250", "1000"},
        std::vector<line_series>{{"l1.dec_policy=cancel", {1, 2, 3}},
                                 {"l1.dec_policy=no-cancel", {4, std::nan(""), 6}}});
    const rows pts = data_block(num.text("n.svg"), "lines");
    ASSERT_EQ(pts.size(), 3u);
    EXPECT_EQ(pts[2], (std::vector<double>{1000, 3, 6}));
    EXPECT_TRUE(std::isnan(pts[1][2]));  // the missing point leaves a gap
    const std::string svg = rendered(dir, "n", num);
    EXPECT_NE(svg.find("l1.dec_policy=no-cancel"), std::string::npos);
    EXPECT_NE(svg.find("l2.hz (Hz)"), std::string::npos);
    const gnuplot_script cat =
        line_chart_figure("t", "policy (setting value)", "y (count)", {"cancel", "no-cancel"},
                          std::vector<line_series>{{"s", {1, 1}}});
    EXPECT_EQ(data_block(cat.text("c.svg"), "lines"), (rows{{0, 1}, {1, 1}}));
    EXPECT_NE(rendered(dir, "c", cat).find(">no-cancel</text>"), std::string::npos);
    // Numbers given out of order are drawn in x order.
    const gnuplot_script unsorted = line_chart_figure(
        "t", "l2.hz (Hz)", "y", {"1000", "100", "250"}, std::vector<line_series>{{"s", {3, 1, 2}}});
    EXPECT_EQ(data_block(unsorted.text("u.svg"), "lines"), (rows{{100, 1}, {250, 2}, {1000, 3}}));
}

TEST(Figures, TornadoBarsGoRightWhenTheOutputRisesAndLeftWhenItFalls) {
    const std::string dir = test::fresh_dir("fig-tornado");
    uncertainty_target t;
    t.name = "ratio kvm_guest_exit cancel/no-cancel";
    t.n = 12;
    t.shares = {{"l2.vcpus", 0.5, 0.9}, {"l1.hz", 0.3, -0.7}, {"l0.costs.cede", 0.2, 0.1}};
    const gnuplot_script g = tornado_figure(t);
    const std::string gp = g.text("t.svg");
    // x y xlow xhigh ylow yhigh in percent; the largest share on top (y = 2).
    EXPECT_EQ(data_block(gp, "rise"),
              (rows{{25, 2, 0, 50, 1.65, 2.35}, {10, 0, 0, 20, -0.35, 0.35}}));
    EXPECT_EQ(data_block(gp, "fall"), (rows{{-15, 1, -30, 0, 0.65, 1.35}}));
    EXPECT_NE(gp.find("set ytics ('l0.costs.cede' 0, 'l1.hz' 1, 'l2.vcpus' 2)"), std::string::npos);
    const std::string svg = rendered(dir, "t", g);
    EXPECT_NE(svg.find("30.0 % (rho -0.70)"), std::string::npos);
    EXPECT_NE(svg.find("share of variance: ratio kvm_guest_exit cancel/no-cancel"),
              std::string::npos);
    // At most max_bars bars; none at all still renders, saying so.
    EXPECT_EQ(data_block(tornado_figure(t, 1).text("t.svg"), "rise").size(), 1u);
    t.shares.clear();
    EXPECT_NE(rendered(dir, "none", tornado_figure(t)).find("no assumptions"), std::string::npos);
}

// Labels reach the SVG literally: quotes, backslashes, gnuplot's own markup, backquotes (which
// gnuplot would run as a shell command inside double quotes); a control character becomes '?',
// since SVG text may not hold it.
TEST(Figures, LabelsAreQuotedForGnuplotAndSvg) {
    EXPECT_EQ(gp_quote("a'b\"\\c\nd\te\x01"
                       "f`g`"),
              "'a''b\"\\c'.\"\\n\".'d e?f`g`'");
    EXPECT_EQ(gp_tics({"x", "y z"}), "('x' 0, 'y z' 1)");
    const std::string dir = test::fresh_dir("fig-labels");
    const std::vector<std::pair<double, uint64_t>> a = {{1, 1}, {2, 1}};
    const std::string ran = dir + "/ran";
    const std::string label = "q\"uote q'uote \\back @ARG1 $s0 {x}^_ <&> \x02 `touch " + ran + "`";
    const std::string svg = rendered(dir, "l", cdf_figure(label, "x (ns)", {{label, &a}}));
    EXPECT_NE(svg.find("q\"uote q'uote \\back @ARG1 $s0 {x}^_ &lt;&amp;> ? `touch " + ran + "`"),
              std::string::npos)
        << svg;
    EXPECT_FALSE(test::file_exists(ran));
}

// A script names its own output, so `gnuplot -c NAME.gp` renders it again; a broken script
// gets an error naming it, and no gnuplot on PATH gets an error saying what to install.
TEST(Figures, RenderErrorsNameTheFigure) {
    const std::string dir = test::fresh_dir("fig-errors");
    gnuplot_script bad("t", 400, 300);
    bad.line("plot $nowhere using 1:2");
    const gnuplot_script good("t", 400, 300);
    const drawn_figures d =
        render_figures({{figure_in(dir, "bad"), bad}, {figure_in(dir, "good"), good}}, 2);
    EXPECT_EQ(d.error.rfind("figures not drawn:\n  " + dir + "/bad.gp: gnuplot exited with 1: ", 0),
              0u)
        << d.error;
    EXPECT_NE(d.error.find("no datablock named $nowhere"), std::string::npos) << d.error;
    EXPECT_NE(d.error.back(), '\n');  // a line per figure, no blank ones
    EXPECT_EQ(d.svgs, (std::vector<std::string>{dir + "/good.svg"}));  // the others are drawn
    EXPECT_TRUE(test::file_exists(dir + "/bad.gp"));
    EXPECT_NE(test::slurp(dir + "/bad.gp").find("set output (ARGC > 0 ? ARG1 : 'bad.svg')"),
              std::string::npos);
    // No SVG, not even the one an earlier run drew, and no partial file.
    write_text_file(dir + "/bad2.svg", "an earlier figure");
    EXPECT_NE(render_figures({{figure_in(dir, "bad2"), bad}}, 2).error, "");
    EXPECT_FALSE(test::file_exists(dir + "/bad2.svg"));
    EXPECT_FALSE(test::file_exists(dir + "/bad2.svg.part"));
    // A ~/.gnuplot does not reach the figures (gnuplot -d).
    const std::string home = test::fresh_dir("fig-home");
    write_text_file(home + "/.gnuplot", "set datafile separator \",\"\n");
    const char* old_home = std::getenv("HOME");
    const std::string saved = old_home ? old_home : "";
    setenv("HOME", home.c_str(), 1);
    const std::vector<std::pair<double, uint64_t>> a = {{1, 1}, {2, 1}};
    EXPECT_EQ(
        render_figures({{figure_in(dir, "home"), cdf_figure("t", "x", {{"a", &a}})}}, 2).error, "");
    if (old_home)
        setenv("HOME", saved.c_str(), 1);
    else
        unsetenv("HOME");
    // No gnuplot: the scripts are written, with a hint how to render them.
    const std::string path = std::getenv("PATH");
    setenv("PATH", "/nonexistent", 1);
    const drawn_figures none = render_figures({{figure_in(dir, "ok"), good}}, 2);
    setenv("PATH", path.c_str(), 1);
    EXPECT_NE(none.error.find("gnuplot not found on PATH (Debian package gnuplot-nox)"),
              std::string::npos)
        << none.error;
    EXPECT_TRUE(none.svgs.empty());
    EXPECT_TRUE(test::file_exists(dir + "/ok.gp"));
}

// At most max_parallel figures are drawn at once (the command's -j): a gnuplot that fails when
// another one is running draws all of them with 1.
TEST(Figures, RenderingHonoursMaxParallel) {
    const std::string dir = test::fresh_dir("fig-parallel");
    ASSERT_EQ(::mkdir((dir + "/bin").c_str(), 0755), 0);
    write_text_file(dir + "/bin/gnuplot", "#!/bin/sh\nmkdir '" + dir +
                                              "/lock' || exit 3\nsleep 0.2\n: > \"$4\"\n"
                                              "rmdir '" +
                                              dir + "/lock'\n");
    ASSERT_EQ(::chmod((dir + "/bin/gnuplot").c_str(), 0755), 0);
    const gnuplot_script g("t", 400, 300);
    std::vector<std::pair<figure_file, gnuplot_script>> figures;
    for (const char* name : {"a", "b", "c", "d"}) figures.push_back({figure_in(dir, name), g});
    const std::string path = std::getenv("PATH");
    setenv("PATH", (dir + "/bin:" + path).c_str(), 1);
    const drawn_figures one = render_figures(figures, 1);
    setenv("PATH", path.c_str(), 1);
    EXPECT_EQ(one.error, "");
    EXPECT_EQ(one.svgs.size(), 4u);
}

TEST(Figures, PlotDataCarriesTheExitTimeline) {
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
TEST(Figures, ExitTimelineStaysBoundedAndCountsEveryExit) {
    exit_timeline t(1, 1.0, 8);
    for (int i = 0; i < 1000; ++i) t.add(i * 0.01, 0);  // 10 s against a 1 s span
    EXPECT_LE(t.counts()[0].size(), 8u);
    EXPECT_EQ(t.bin_seconds(), 2.0);  // 0.125 s doubled four times
    uint64_t sum = 0;
    for (uint64_t n : t.counts()[0]) sum += n;
    EXPECT_EQ(sum, 1000u);
    EXPECT_EQ(t.counts()[0][0], 200u);
}

TEST(Figures, FigureSetsForRunAndSweep) {
    const std::string dir = test::fresh_dir("fig-sets");
    run_result a, b;
    latency_report& la = a.metrics.latencies["l1_handling_latency_ns"];
    la.all = {3, 2, 2, 3, 3, 3};
    la.histogram = {{1, 1}, {2, 1}, {3, 1}};
    la.breakdown = {{"decode", 1}, {"resume", 1}};
    b.metrics.latencies["l1_handling_latency_ns"].histogram = {{4, 2}};
    b.metrics.latencies["wake_latency_ns"].all.count = 0;  // measured nowhere: no figure
    a.exits = {0.25, {{1}}};
    a.sim_seconds = b.sim_seconds = 1;
    const auto files = write_run_plots(dir, {{"A", &a}, {"B", &b}}, 2).svgs;
    EXPECT_EQ(files.size(), 4u);
    for (const char* f : {"cdf-l1_handling_latency_ns.svg", "breakdown-l1_handling_latency_ns.svg",
                          "exit-rate-a.svg", "exit-rate-b.svg"}) {
        std::string why;
        EXPECT_TRUE(test::xml_well_formed(dir + "/" + f, why)) << f << why;
    }
    EXPECT_EQ(test::count_of(test::slurp(dir + "/cdf-l1_handling_latency_ns.svg"),
                             "<g id=\"gnuplot_plot_"),
              2u);
    EXPECT_TRUE(test::file_exists(dir + "/cdf-l1_handling_latency_ns.gp"));
    const std::string one = test::fresh_dir("fig-sets-one");
    EXPECT_EQ(write_run_plots(one, {{"A", &a}}, 2).svgs.back(), one + "/exit-rate.svg");

    const sweep_plan p = make_sweep_plan(
        "/f", {}, {parse_grid("l2.hz=100,250"), parse_grid("l1.dec_policy=cancel,no-cancel")});
    std::vector<std::optional<run_record>> pts(4);
    for (size_t i = 0; i < 4; ++i) {
        if (i == 2) continue;  // a failed point
        run_record r;
        r.result.metrics.kvm_guest_exit = 10 * (i + 1);
        pts[i] = r;
    }
    const auto charts = write_sweep_plots(dir, p, pts, 2).svgs;
    // Only kvm_guest_exit is non-zero in these records: every other metric gets no chart.
    ASSERT_EQ(charts.size(), 1u);
    EXPECT_EQ(charts[0], dir + "/sweep-kvm_guest_exit.svg");
    EXPECT_FALSE(test::file_exists(dir + "/sweep-h_enter_nested.svg"));
    const std::string svg = test::slurp(dir + "/sweep-kvm_guest_exit.svg");
    std::string why;
    EXPECT_TRUE(test::xml_well_formed(dir + "/sweep-kvm_guest_exit.svg", why)) << why;
    EXPECT_NE(svg.find(">l1.dec_policy=cancel<"), std::string::npos);
    EXPECT_NE(svg.find(">l1.dec_policy=no-cancel<"), std::string::npos);
    EXPECT_NE(svg.find("l2.hz (Hz)"), std::string::npos);
    // Row per hz: cancel, no-cancel; point 2 (hz=250, cancel) failed.
    const rows lines = data_block(test::slurp(dir + "/sweep-kvm_guest_exit.gp"), "lines");
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0], (std::vector<double>{100, 10, 20}));
    EXPECT_TRUE(std::isnan(lines[1][1]));
    EXPECT_EQ(lines[1][2], 40);
    EXPECT_EQ(unit_of_key("run.duration_s"), "s");
    EXPECT_EQ(unit_of_key("l2.vcpus"), "vCPUs");
    EXPECT_EQ(file_part("a/b c"), "a_b_c");
}

}  // namespace
}  // namespace nestvp
