// The policy decision map (platforms/analysis/policy_map.h): winners, ties and margins per cell,
// on synthetic records; the heatmap has a panel per combination of the outer axes and a cell
// per grid cell, and gnuplot renders it into well-formed SVG.
#include <gtest/gtest.h>

#include "cli_test_util.h"
#include "platforms/figures/policy_map_figure.h"

namespace nestvp {
namespace {

run_record rec(uint64_t arithoh, uint64_t exits) {
    run_record r;
    r.result.sim_seconds = 2;
    r.result.metrics.arithoh_count = arithoh;
    r.result.metrics.kvm_guest_exit = exits;
    return r;
}

TEST(PolicyMap, WinnersTiesAndMargins) {
    const sweep_plan plan = make_sweep_plan("/p.yaml", {},
                                            {{"l2.vcpus", {"2", "8"}},
                                             {"l2.housekeeping_hz", {"100"}},
                                             {"l1.dec_policy", {"no-cancel", "cancel"}}});
    ASSERT_EQ(plan.points.size(), 4u);
    std::vector<std::optional<run_record>> pts = {
        rec(1000, 50), rec(1000, 40),   // 2 vCPUs: arithoh ties, cancel has fewer exits
        rec(900, 500), rec(1000, 100),  // 8 vCPUs: cancel wins both
    };
    const policy_map m = analyse_policy_map(plan, pts);
    ASSERT_EQ(m.cells.size(), 2u);
    EXPECT_EQ(m.policies, (std::vector<std::string>{"no-cancel", "cancel"}));
    EXPECT_EQ(m.cells[0].values, (std::vector<std::string>{"2", "100"}));
    EXPECT_EQ(m.cells[0].winner[0], -2);  // tie
    EXPECT_EQ(m.cells[0].winner[2], 1);
    EXPECT_NEAR(m.cells[0].margin_pct[2], 20.0, 1e-9);  // 20 vs 25 exits/s: 20 % fewer
    EXPECT_EQ(m.cells[1].winner[0], 1);
    EXPECT_NEAR(m.cells[1].margin_pct[0], 100.0 / 9, 1e-9);
    EXPECT_EQ(m.cells[1].winner[1], -1);  // no timer samples in these records
    const std::string csv = policy_map_csv(m);
    EXPECT_EQ(test::count_of(csv, "\n"), 3u);
    EXPECT_NE(csv.find("2,100,tie,0,,0,cancel,20,"), std::string::npos) << csv;
    // A missing run leaves the other policy the winner of its cell.
    pts[2].reset();
    EXPECT_EQ(analyse_policy_map(plan, pts).cells[1].winner[0], 1);
}

TEST(PolicyMap, HeatmapIsWellFormedWithACellPerGridCell) {
    const sweep_plan plan = make_sweep_plan("/p.yaml", {},
                                            {{"l0.run_output", {"powervm", "powervm-dec-expiry"}},
                                             {"l2.vcpus", {"2", "4", "8"}},
                                             {"l2.housekeeping_hz", {"100", "1000"}},
                                             {"l1.dec_policy", {"no-cancel", "cancel"}}});
    std::vector<std::optional<run_record>> pts;
    for (size_t i = 0; i < plan.points.size(); ++i) pts.push_back(rec(1000 + i, 10 + i));
    const policy_map m = analyse_policy_map(plan, pts);
    const gnuplot_script g = policy_map_figure(m, map_criterion::throughput);
    const std::string gp = g.text("map.svg");
    EXPECT_NE(gp.find("set multiplot layout 1,2 "), std::string::npos);
    for (const char* panel : {"$p0 << EOD\n", "$p1 << EOD\n"}) {
        const size_t p = gp.find(panel);
        ASSERT_NE(p, std::string::npos) << panel;
        // 2 wake rates x 3 vCPU counts; throughput rises with the point index, so cancel (the
        // later point of each pair, colour #1b9e77) wins every cell.
        EXPECT_EQ(gp.substr(p, gp.find("EOD\n", p + 10) - p),
                  std::string(panel) +
                      "0 0 1810039\n1 0 1810039\n0 1 1810039\n1 1 1810039\n"
                      "0 2 1810039\n1 2 1810039\n");
    }
    EXPECT_EQ(test::count_of(gp, "center front tc rgb"), 12u);  // a margin label per cell
    EXPECT_NE(gp.find("set title 'l0.run_output = powervm-dec-expiry'"), std::string::npos);
    const std::string d = test::fresh_dir("policy-map-figure");
    const auto svgs = render_figures({{figure_in(d, "map"), g}}, 2).svgs;
    std::string why;
    EXPECT_TRUE(test::xml_well_formed(svgs.at(0), why)) << why;
    EXPECT_NE(test::slurp(svgs.at(0)).find(">cancel<"), std::string::npos);
    // Fewer than two cell axes: an error, not a figure.
    const sweep_plan one = make_sweep_plan(
        "/p.yaml", {}, {{"l2.vcpus", {"2", "4"}}, {"l1.dec_policy", {"no-cancel", "cancel"}}});
    std::vector<std::optional<run_record>> few(4, rec(1, 1));
    EXPECT_THROW(policy_map_figure(analyse_policy_map(one, few), map_criterion::exits),
                 std::invalid_argument);
}

}  // namespace
}  // namespace nestvp
