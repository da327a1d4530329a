// Logging (models/log.h): `l1=debug` gives one line per L1 run-loop pass (the exit, the DEC
// policy's decision, the GET_STATEs, whether the vCPU blocks); the default level gives none.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <systemc>

#include "models/log.h"
#include "platforms/config/platform_loader.h"
#include "platforms/runner/nested_platform.h"
#include "sc_test_guard.h"

namespace {

std::vector<std::string> g_lines;

void collect(const sc_core::sc_report& r, const sc_core::sc_actions& a) {
    if (std::string(r.get_msg_type()).rfind("nestvp/", 0) == 0) {
        g_lines.push_back(r.get_msg());
        return;
    }
    sc_core::sc_report_handler::default_handler(r, a);
}

uint64_t run_reference(double seconds) {
    const nestvp::platform_config cfg = nestvp::load_platform(
        std::string(NESTVP_SOURCE_DIR) + "/platforms/reference.yaml", {"l1.dec_policy=no-cancel"});
    nestvp::nested_metrics metrics(cfg.l2.vcpus);
    nestvp::nested_platform top("platform", cfg, metrics);
    sc_core::sc_report_handler::set_handler(collect);
    sc_core::sc_start(sc_core::sc_time(seconds, sc_core::SC_SEC));
    return metrics.total(nestvp::counter::l1_guest_exits);
}

}  // namespace

TEST(log, l1_debug_prints_one_line_per_exit) {
    NESTVP_SC_TEST_GUARD();
    std::string error;
    ASSERT_TRUE(nestvp::log::apply("l1=debug", error)) << error;
    const uint64_t passes = run_reference(0.01);
    ASSERT_GT(passes, 100u);
    EXPECT_EQ(g_lines.size(), passes);
    EXPECT_NE(g_lines.front().find("GET_STATE"), std::string::npos) << g_lines.front();
    bool saw_cede = false;
    for (const auto& l : g_lines)
        saw_cede = saw_cede || l.find("exit 0xc00 H_CEDE") != std::string::npos;
    EXPECT_TRUE(saw_cede);
}

TEST(log, default_level_prints_nothing) {
    NESTVP_SC_TEST_GUARD();
    EXPECT_GT(run_reference(0.01), 100u);
    EXPECT_TRUE(g_lines.empty());
}

TEST(log, settings_are_checked) {
    std::string error;
    EXPECT_FALSE(nestvp::log::apply("l1", error));
    EXPECT_NE(error.find("MODULE=LEVEL"), std::string::npos);
    EXPECT_FALSE(nestvp::log::apply("l9=debug", error));
    EXPECT_NE(error.find("module 'l9'"), std::string::npos);
    EXPECT_FALSE(nestvp::log::apply("l1=loud", error));
    EXPECT_NE(error.find("level 'loud'"), std::string::npos);
    EXPECT_TRUE(nestvp::log::apply("all=off", error));
}
