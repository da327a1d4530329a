// hardware_thread::step_time(), the time a path mark gets (docs/nested-entry-exit.md): the end
// of the work charged so far, rounded as compute() rounds the segment that retires it. So the
// step after a charge starts exactly where retiring that charge leaves the thread's local time.
#include <gtest/gtest.h>

#include <cstdint>
#include <systemc>
#include <utility>
#include <vector>

#include "models/core.h"
#include "models/hardware_thread.h"
#include "models/local_time.h"
#include "sc_test_guard.h"

namespace {

namespace local_time = nestvp::local_time;

// Charges of 1..200 cycles on a lone 1 GHz thread, at full speed and at a 0.6 SMT share: at
// 1 GHz and 1 ps many of them end a hair off a whole unit, where two ways of rounding differ.
// Returns the misses (retired end minus mark) and how many charges were checked.
std::pair<std::vector<int64_t>, int> step_time_misses(bool shared) {
    nestvp::core c("core", 1000000000, {1.0, 0.6}, 512000000);
    nestvp::hardware_thread t0("t0", c, 0, {});
    nestvp::hardware_thread t1("t1", c, 1, {});
    std::vector<int64_t> misses;
    int checked = 0;
    sc_core::sc_spawn([&] {
        t0.set_active(true);
        t1.set_active(shared);
        for (int cycles = 1; cycles <= 200; ++cycles) {
            t0.charge(cycles);
            const uint64_t mark = t0.step_time();
            t0.settle();
            const uint64_t end = local_time::now_value();
            if (end != mark) misses.push_back(static_cast<int64_t>(end - mark));
            ++checked;
        }
        t1.set_active(false);
        t0.set_active(false);
    });
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    return {misses, checked};
}

}  // namespace

TEST(step_time, is_where_retiring_the_charge_ends_at_full_speed) {
    NESTVP_SC_TEST_GUARD();
    const auto [misses, checked] = step_time_misses(false);
    EXPECT_EQ(checked, 200);
    EXPECT_EQ(misses, std::vector<int64_t>{});
}

TEST(step_time, is_where_retiring_the_charge_ends_at_an_smt_share) {
    NESTVP_SC_TEST_GUARD();
    const auto [misses, checked] = step_time_misses(true);
    EXPECT_EQ(checked, 200);
    EXPECT_EQ(misses, std::vector<int64_t>{});
}
