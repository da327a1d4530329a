// Trace-level view of the mechanism (reference-result.md, nested-virtualization.md §4.1-§4.2),
// per idle L2 vCPU: under no-cancel the vCPU stops blocking after its first timer wake (the
// queued DEC is never cleared, so every later H_CEDE returns at once); under cancel it blocks
// once per timer event.
#include <gtest/gtest.h>

#include <systemc>

#include "platforms/config/platform_loader.h"
#include "platforms/runner/nested_platform.h"
#include "sc_test_guard.h"

namespace {

using nestvp::counter;

struct idle_vcpu_trace {
    uint64_t wakes, blocks, cedes, timer_events;
};

std::vector<idle_vcpu_trace> run_idle_traces(const std::string& policy, double seconds) {
    const nestvp::platform_config cfg =
        nestvp::load_platform(std::string(NESTVP_SOURCE_DIR) + "/platforms/reference.yaml",
                              {"l1.dec_policy=" + policy, "l2.devices.irq_hz=0"});
    nestvp::nested_metrics metrics(cfg.l2.vcpus);
    nestvp::nested_platform top("platform", cfg, metrics);
    sc_core::sc_start(sc_core::sc_time(seconds, sc_core::SC_SEC));
    std::vector<idle_vcpu_trace> out;
    for (unsigned v = cfg.workload.arithoh_copies; v < cfg.l2.vcpus; ++v)
        out.push_back({metrics.on_thread(counter::l1_timer_wakes, v),
                       metrics.on_thread(counter::l1_blocks, v),
                       metrics.on_thread(counter::l1_cedes, v),
                       metrics.on_thread(counter::l2_housekeeping, v)});
    return out;
}

}  // namespace

TEST(cede_trace, no_cancel_idle_vcpu_stops_blocking_after_first_timer_wake) {
    NESTVP_SC_TEST_GUARD();
    const auto traces = run_idle_traces("no-cancel", 0.05);
    ASSERT_FALSE(traces.empty());
    for (const auto& t : traces) {
        EXPECT_EQ(t.wakes, 1u);              // the first hrtimer wake queues the DEC ...
        EXPECT_EQ(t.blocks, 1u);             // ... and the vCPU never blocks again,
        EXPECT_GT(t.cedes, 100 * t.blocks);  // although it keeps ceding (spinning through L0)
        EXPECT_GT(t.timer_events, 1u);       // and its timers keep firing inside L2
    }
}

TEST(cede_trace, cancel_idle_vcpu_blocks_once_per_timer_event) {
    NESTVP_SC_TEST_GUARD();
    const auto traces = run_idle_traces("cancel", 0.05);
    ASSERT_FALSE(traces.empty());
    for (const auto& t : traces) {
        EXPECT_GT(t.blocks, 10u);
        EXPECT_LE(t.wakes, t.blocks);      // every wake follows a block
        EXPECT_GE(t.wakes + 1, t.blocks);  // and every block but the last ends in a wake
        // one timer event, one cede, one block: within 2 % (events that coincide merge)
        EXPECT_NEAR(static_cast<double>(t.blocks), static_cast<double>(t.timer_events),
                    0.02 * t.timer_events + 1);
        EXPECT_NEAR(static_cast<double>(t.cedes), static_cast<double>(t.blocks),
                    0.02 * t.blocks + 1);
    }
}
