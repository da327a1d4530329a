// The L2 decrementer clockevent's minimum delta (l2.clockevent_min_delta, time.c's
// clockevents_config_and_register(dec, f, 2, max)): no DEC event is programmed sooner.
#include <gtest/gtest.h>

#include "reference_run.h"

namespace nestvp {
namespace {

// With a 1000 Hz tick (512,000 ticks apart) and a 1,024,000-tick minimum, each tick is pushed
// to the minimum: the busy vCPU ticks about half as often.
TEST(l2_clockevent, a_minimum_delta_above_the_tick_period_halves_the_ticks) {
    const std::string common = "--set run.duration_s=0.2 --set l2.vcpus=2 --set l2.hz=1000 ";
    const run_metrics normal = test::run_reference(common);
    const run_metrics slow = test::run_reference(common + "--set l2.clockevent_min_delta=1024000");
    const double ticks = test::vcpu_counter(normal, 0, "l2.ticks");
    EXPECT_NEAR(ticks, 200, 2);
    EXPECT_NEAR(test::vcpu_counter(slow, 0, "l2.ticks"), ticks / 2, 2);
}

}  // namespace
}  // namespace nestvp
