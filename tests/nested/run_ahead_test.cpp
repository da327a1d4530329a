// Exact run-ahead at the level of one core (models/local_time.h, docs/local-time.md): a compute
// segment that nothing can interrupt is retired without a wait; a sibling's wake on the same
// core bounds it, another core's does not; the run's end bounds it; a process that yields while
// ahead is caught. The platform-level equality of results is tests/determinism/run_ahead_test.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <stdexcept>
#include <string>
#include <systemc>
#include <vector>

#include "models/core.h"
#include "models/hardware_thread.h"
#include "models/local_time.h"
#include "sc_test_guard.h"

namespace {

using sc_core::SC_MS;
using sc_core::sc_time;
using sc_core::SC_US;
namespace local_time = nestvp::local_time;

constexpr uint64_t clock_hz = 1000000000;  // 1 GHz: 1 cycle = 1 ns
constexpr uint64_t tb_hz = 512000000;

// What one compute(1e6) saw: local and SystemC time when it returned, and the cycles done.
struct observed {
    sc_time local, kernel;
    double done = -1;
};

observed compute_1ms(nestvp::hardware_thread& t) {
    observed o;
    t.set_active(true);
    o.done = t.compute(1e6).done;
    o.local = local_time::now();
    o.kernel = sc_core::sc_time_stamp();
    local_time::sync();
    return o;
}

// Runs what was spawned for 10 ms, with run-ahead up to `limit` in `mode` (none when limit is 0).
void simulate(sc_time limit, local_time::bound_mode mode = local_time::bound_mode::per_core) {
    if (limit != sc_core::SC_ZERO_TIME) local_time::enable(limit, mode);
    sc_core::sc_start(sc_time(10, SC_MS));
    local_time::disable();
}

// compute(1e6) on core a while the thread of core b waits 100 us.
observed beside_another_core(local_time::bound_mode mode) {
    nestvp::core a("a", clock_hz, {1.0}, tb_hz);
    nestvp::core b("b", clock_hz, {1.0}, tb_hz);
    nestvp::hardware_thread ta("ta", a, 0, {});
    nestvp::hardware_thread tb("tb", b, 0, {});
    observed o;
    sc_core::sc_spawn([&] {
        tb.set_active(true);
        tb.wait_for(sc_time(100, SC_US));
    });
    sc_core::sc_spawn([&] { o = compute_1ms(ta); });
    simulate(sc_time(10, SC_MS), mode);
    return o;
}

}  // namespace

TEST(run_ahead, lone_thread_computes_without_a_wait) {
    NESTVP_SC_TEST_GUARD();
    nestvp::core c("core", clock_hz, {1.0, 0.6}, tb_hz);
    nestvp::hardware_thread t("t", c, 0, {});
    observed o;
    sc_time after_sync;
    sc_core::sc_spawn([&] {
        o = compute_1ms(t);
        after_sync = sc_core::sc_time_stamp();
    });
    simulate(sc_time(10, SC_MS));
    EXPECT_DOUBLE_EQ(o.done, 1e6);
    EXPECT_EQ(o.local, sc_time(1, SC_MS));
    EXPECT_EQ(o.kernel, sc_core::SC_ZERO_TIME);  // no wait: SystemC time did not move
    EXPECT_EQ(after_sync, sc_time(1, SC_MS));    // sync() caught up exactly
}

TEST(run_ahead, sibling_on_the_same_core_bounds_it_and_the_rate_change_is_exact) {
    NESTVP_SC_TEST_GUARD();
    nestvp::core c("core", clock_hz, {1.0, 0.6}, tb_hz);
    nestvp::hardware_thread t0("t0", c, 0, {});
    nestvp::hardware_thread t1("t1", c, 1, {});
    observed o;
    sc_core::sc_spawn([&] {
        t1.set_active(true);
        t1.wait_for(sc_time(500, SC_US));  // its wake bounds t0's run-ahead
        t1.set_active(false);
    });
    sc_core::sc_spawn([&] { o = compute_1ms(t0); });
    simulate(sc_time(10, SC_MS));
    // 0.5 ms at 0.6 -> 3e5 cycles; the remaining 7e5 at 1.0 -> 0.7 ms: 1.2 ms, as without
    // run-ahead (smt_sharing.sibling_stopping_halfway_is_piecewise_exact).
    EXPECT_DOUBLE_EQ(o.done, 1e6);
    EXPECT_NEAR(o.local.to_seconds(), 1.2e-3, 1e-12);
}

TEST(run_ahead, another_cores_wake_does_not_bound_it) {
    NESTVP_SC_TEST_GUARD();
    const observed o = beside_another_core(local_time::bound_mode::per_core);
    EXPECT_EQ(o.local, sc_time(1, SC_MS));
    EXPECT_EQ(o.kernel, sc_core::SC_ZERO_TIME);
}

TEST(run_ahead, global_mode_is_bounded_by_any_pending_event) {
    NESTVP_SC_TEST_GUARD();
    const observed o = beside_another_core(local_time::bound_mode::global);
    EXPECT_EQ(o.local, sc_time(1, SC_MS));
    EXPECT_EQ(o.kernel, sc_time(1, SC_MS));  // the other core's event made it wait
}

TEST(run_ahead, never_past_the_end_of_the_run) {
    NESTVP_SC_TEST_GUARD();
    nestvp::core c("core", clock_hz, {1.0}, tb_hz);
    nestvp::hardware_thread t("t", c, 0, {});
    observed o;
    sc_core::sc_spawn([&] { o = compute_1ms(t); });
    simulate(sc_time(500, SC_US));
    EXPECT_EQ(o.local, sc_time(1, SC_MS));
    EXPECT_EQ(o.kernel, sc_time(1, SC_MS));
}

TEST(run_ahead, off_unless_enabled) {
    NESTVP_SC_TEST_GUARD();
    nestvp::core c("core", clock_hz, {1.0}, tb_hz);
    nestvp::hardware_thread t("t", c, 0, {});
    observed o;
    sc_core::sc_spawn([&] { o = compute_1ms(t); });
    simulate(sc_core::SC_ZERO_TIME);
    EXPECT_EQ(o.kernel, sc_time(1, SC_MS));
}

TEST(run_ahead, a_process_that_yields_while_ahead_is_caught) {
    NESTVP_SC_TEST_GUARD();
    nestvp::core c("core", clock_hz, {1.0, 1.0}, tb_hz);  // two threads
    nestvp::hardware_thread t0("t0", c, 0, {});
    nestvp::hardware_thread t1("t1", c, 1, {});
    sc_core::sc_event never;
    std::string caught;
    sc_core::sc_spawn([&] {
        sc_core::wait(sc_core::SC_ZERO_TIME);  // t1 waits by then: nothing pending, t0 runs ahead
        t0.set_active(true);
        t0.compute(1e3);
        sc_core::wait(never);  // wrong: waits without local_time::sync()
    });
    sc_core::sc_spawn([&] {
        sc_core::wait(sc_time(1, sc_core::SC_NS));  // a raw wait: no bound for t0
        try {
            t1.compute(1e3);  // t0 went ahead and yielded: the offset is not t1's
        } catch (const std::logic_error& e) {
            caught = e.what();
        }
    });
    simulate(sc_time(10, SC_MS));
    EXPECT_NE(caught.find("yielded while ahead"), std::string::npos) << caught;
}

// The core's floor of its wake slots (core::next_wake_bound) stays at or below their minimum
// whatever order they are set in, and next_wake() is that minimum.
class slot_source final : public local_time::wake_source, public nestvp::rate_listener {
public:
    std::array<local_time::wake_slot, 3> slots;
    sc_dt::uint64 next_wake() const override {
        sc_dt::uint64 t = ~sc_dt::uint64{0};
        for (const local_time::wake_slot& s : slots) t = std::min(t, s.value());
        return t;
    }
    void wake_slots(std::vector<const local_time::wake_slot*>& out) const override {
        for (const local_time::wake_slot& s : slots) out.push_back(&s);
    }
    void rerated(sc_dt::uint64) override {}
};

TEST(run_ahead, the_wake_floor_stays_at_or_below_the_slots_minimum) {
    NESTVP_SC_TEST_GUARD();
    nestvp::core c("core", clock_hz, {1.0, 0.6}, tb_hz);
    slot_source a, b;
    c.attach(a, a);
    c.attach(b, b);
    local_time::wake_slot* all[] = {&a.slots[0], &a.slots[1], &a.slots[2],
                                    &b.slots[0], &b.slots[1], &b.slots[2]};
    std::mt19937_64 rng(7);
    unsigned exact_reads = 0;
    for (int i = 0; i < 20000; ++i) {
        // Few distinct values, so that ties with the minimum are common; ~0 is "none".
        const uint64_t v = rng() % 9;
        all[rng() % 6]->set(v == 8 ? ~sc_dt::uint64{0} : v * 1000);
        const sc_dt::uint64 truth = std::min(a.next_wake(), b.next_wake());
        const sc_dt::uint64 floor = c.next_wake_bound();
        ASSERT_LE(floor, truth) << "step " << i;
        exact_reads += floor == truth;
        if (rng() % 3 == 0) {
            ASSERT_EQ(c.next_wake(), truth) << "step " << i;
        }
    }
    // The floor is kept, not recomputed: most reads find the minimum itself.
    EXPECT_GT(exact_reads, 10000u);
}
