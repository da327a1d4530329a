// Emulated-MMIO exits (l2.devices.mmio_hz; l2-idle-and-get-state-paths.md §2 and §4) on
// shortened reference runs, through the nestvp command. An HDSI's run output holds HDAR, HDSISR,
// ASDR, NIA and MSR but no GPR, so L1 reloads the store's source GPR with one GET_STATE.
#include <gtest/gtest.h>

#include <string>

#include "reference_run.h"

namespace nestvp {
namespace {

run_metrics run(const std::string& sets) {
    return test::run_reference("--set run.duration_s=1 " + sets);
}

double hdsi_exits(const run_metrics& m) {
    for (const auto& [reason, n] : m.exits_by_reason)  // "0xe00 HDSI"
        if (reason.rfind("0xe00", 0) == 0) return static_cast<double>(n);
    return 0.0;
}

// Each device store is one HDSI exit, one emulation and one GET_STATE of the source GPR, under
// either policy.
TEST(mmio_exits, every_hdsi_reads_the_source_gpr_once) {
    for (const char* policy : {"no-cancel", "cancel"}) {
        const run_metrics m =
            run(std::string("--set l1.dec_policy=") + policy + " --set l2.devices.mmio_hz=2000");
        const double hdsi = hdsi_exits(m);
        EXPECT_NEAR(hdsi, 2000, 100) << policy;
        EXPECT_EQ(test::counter(m, "l2.device_events"), hdsi) << policy;
        EXPECT_EQ(test::counter(m, "l1.mmio_emulations"), hdsi) << policy;
        EXPECT_EQ(test::counter(m, "l1.mmio_gpr_reloads"), hdsi) << policy;
    }
}

// The GET_STATE count grows by one per HDSI under both policies, and twice the rate gives twice
// the growth: the flat, policy-independent GET_STATEs of reference-result.md's kind.
TEST(mmio_exits, get_state_tracks_the_mmio_rate_under_both_policies) {
    for (const char* policy : {"no-cancel", "cancel"}) {
        const std::string p = std::string("--set l1.dec_policy=") + policy;
        const run_metrics none = run(p), some = run(p + " --set l2.devices.mmio_hz=1500"),
                          more = run(p + " --set l2.devices.mmio_hz=3000");
        const double grow1 = some.gsb_recv - none.gsb_recv, grow2 = more.gsb_recv - none.gsb_recv;
        EXPECT_NEAR(grow1, hdsi_exits(some), 0.02 * hdsi_exits(some) + 2) << policy;
        EXPECT_NEAR(grow2, hdsi_exits(more), 0.02 * hdsi_exits(more) + 2) << policy;
        EXPECT_NEAR(grow2 / grow1, 2.0, 0.1) << policy;
    }
}

// nestedv1 returns all of pt_regs with the exit: the same HDSIs cost no GET_STATE, and the
// guest goes on past each store.
TEST(mmio_exits, nestedv1_reads_the_gpr_from_pt_regs) {
    const run_metrics base = run("--set l0.api=v1");
    const run_metrics m = run("--set l0.api=v1 --set l2.devices.mmio_hz=2000");
    EXPECT_NEAR(hdsi_exits(m), 2000, 100);
    EXPECT_EQ(m.gsb_recv, 0u);
    EXPECT_EQ(test::counter(m, "l1.mmio_gpr_reloads"), 0);
    EXPECT_GT(m.arithoh_count, 0.9 * base.arithoh_count);
}

}  // namespace
}  // namespace nestvp
