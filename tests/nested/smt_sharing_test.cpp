// Core throughput shared among active SMT threads: a (1.0, 0.6) table, re-rated at
// the instant a sibling starts or stops, piecewise constant.
#include <gtest/gtest.h>

#include <systemc>

#include "models/core.h"
#include "models/hardware_thread.h"
#include "sc_test_guard.h"

namespace {

constexpr uint64_t clock_hz = 1000000000;  // 1 GHz: 1 cycle = 1 ns

struct smt_bench {
    nestvp::core c{"core", clock_hz, {1.0, 0.6}, 512000000};
    nestvp::hardware_thread t0{"t0", c, 0, {}};
    nestvp::hardware_thread t1{"t1", c, 1, {}};
    sc_core::sc_time finished;
    double done = 0;

    // t0 computes 1e6 cycles; t1 is active over [0, sibling_until).
    void run(sc_core::sc_time sibling_until) {
        sc_core::sc_spawn([this] {
            t0.set_active(true);
            done = t0.compute(1e6).done;
            finished = sc_core::sc_time_stamp();
        });
        sc_core::sc_spawn([this, sibling_until] {
            if (sibling_until == sc_core::SC_ZERO_TIME) return;
            t1.set_active(true);
            sc_core::wait(sibling_until);
            t1.set_active(false);
        });
        sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_MS));
    }
};

// A lone thread at 1 GHz with MSR[EE]=1 writes its DEC (0 -> -1 after dec + 1 ticks at
// 512 MHz) and computes `cycles`: what compute() returns, and when.
struct interrupted_run {
    double done = -1;
    bool interrupted = false;
    sc_core::sc_time at;
};
interrupted_run compute_until_dec(uint64_t dec, double cycles) {
    nestvp::core c("core", clock_hz, {1.0}, 512000000);
    nestvp::hardware_thread t("t", c, 0, {});
    interrupted_run run;
    sc_core::sc_spawn([&] {
        t.set_active(true);
        t.irq().set_msr(nestvp::msr::sf | nestvp::msr::ee);  // guest state, EE=1
        t.timers().write_dec(dec);
        const auto r = t.compute(cycles);
        run = {r.done, r.interrupted, sc_core::sc_time_stamp()};
    });
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_SEC));
    return run;
}

}  // namespace

TEST(smt_sharing, alone_takes_the_cycles) {
    NESTVP_SC_TEST_GUARD();
    smt_bench b;
    b.run(sc_core::SC_ZERO_TIME);
    EXPECT_DOUBLE_EQ(b.done, 1e6);
    EXPECT_EQ(b.finished, sc_core::sc_time(1, sc_core::SC_MS));
}

TEST(smt_sharing, busy_sibling_slows_by_the_table) {
    NESTVP_SC_TEST_GUARD();
    smt_bench b;
    b.run(sc_core::sc_time(5, sc_core::SC_MS));  // busy over the whole interval
    EXPECT_NEAR(b.finished.to_seconds(), 1e6 / 0.6 / clock_hz, 1e-12);
}

TEST(smt_sharing, sibling_stopping_halfway_is_piecewise_exact) {
    NESTVP_SC_TEST_GUARD();
    smt_bench b;
    // 0.5 ms at 0.6 -> 3e5 cycles; the remaining 7e5 at 1.0 -> 0.7 ms: 1.2 ms in all.
    b.run(sc_core::sc_time(500, sc_core::SC_US));
    EXPECT_NEAR(b.finished.to_seconds(), 1.2e-3, 1e-12);
    EXPECT_DOUBLE_EQ(b.done, 1e6);
}

TEST(smt_sharing, interrupt_stops_compute_and_reports_work_done) {
    NESTVP_SC_TEST_GUARD();
    const interrupted_run r = compute_until_dec(511, 1e6);  // 512 ticks = 1 us at 512 MHz
    EXPECT_TRUE(r.interrupted);
    EXPECT_NEAR(r.done, 1000.0, 2.0);  // ~1 us of work at 1 GHz before the DEC
}

// The SMT table has one entry per thread the core runs; a thread beyond it is refused by name.
TEST(smt_sharing, a_thread_beyond_the_table_is_refused) {
    NESTVP_SC_TEST_GUARD();
    nestvp::core c{"core", clock_hz, {1.0}, 512000000};
    try {
        nestvp::hardware_thread t1{"t1", c, 1, {}};
        FAIL() << "thread 1 of a one-thread core was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("t1: thread 1 of a core with 1 thread"),
                  std::string::npos)
            << e.what();
    }
}

// A segment longer than the thread's wake horizon (1 ms, models/hardware_thread.h) ends at its
// deadline, not at the horizon after it: 10.5 ms alone at 1 GHz.
TEST(smt_sharing, a_long_segment_ends_at_its_deadline_between_horizons) {
    NESTVP_SC_TEST_GUARD();
    nestvp::core c("core", clock_hz, {1.0}, 512000000);
    nestvp::hardware_thread t("t", c, 0, {});
    sc_core::sc_time finished;
    double done = 0;
    sc_core::sc_spawn([&] {
        t.set_active(true);
        done = t.compute(1.05e7).done;
        finished = sc_core::sc_time_stamp();
    });
    sc_core::sc_start(sc_core::sc_time(30, sc_core::SC_MS));
    EXPECT_DOUBLE_EQ(done, 1.05e7);
    EXPECT_EQ(finished, sc_core::sc_time(10.5, sc_core::SC_MS));
}

// A segment longer than the thread's wake horizon is re-rated
// many times and still ends at the piecewise-exact time: (1.0, 0.5) table, low share 0.5, so t0
// runs at 0.5 GHz while t1 is normal and at 0.75 GHz while t1 is low; t1 toggles every 0.5 ms.
// 16 periods of 1 ms retire 1e7 cycles; the last 1e5 at 0.5 GHz take 0.2 ms more.
TEST(smt_sharing, a_long_segment_re_rated_many_times_ends_exactly) {
    NESTVP_SC_TEST_GUARD();
    nestvp::core c{"core", clock_hz, {1.0, 0.5}, 512000000, 0.5};
    nestvp::hardware_thread t0{"t0", c, 0, {}};
    nestvp::hardware_thread t1{"t1", c, 1, {}};
    sc_core::sc_time finished;
    double done = 0;
    sc_core::sc_spawn([&] {
        t0.set_active(true);
        done = t0.compute(1e7 + 1e5).done;
        finished = sc_core::sc_time_stamp();
    });
    sc_core::sc_spawn([&] {
        t1.set_active(true);
        for (int i = 0; i < 40; ++i) {
            sc_core::wait(500, sc_core::SC_US);
            t1.set_low_priority(i % 2 == 0);
        }
    });
    sc_core::sc_start(sc_core::sc_time(30, sc_core::SC_MS));
    EXPECT_DOUBLE_EQ(done, 1e7 + 1e5);
    EXPECT_NEAR(finished.to_seconds(), 16.2e-3, 1e-12);
}

// An interrupt ends a segment longer than the horizon at its own time, not at a horizon.
TEST(smt_sharing, an_interrupt_ends_a_long_segment_at_its_time) {
    NESTVP_SC_TEST_GUARD();
    // 2,560,000 ticks = 5 ms at 512 MHz, into 100 ms of work at 1 GHz.
    const interrupted_run r = compute_until_dec(2559999, 1e8);
    EXPECT_TRUE(r.interrupted);
    EXPECT_EQ(r.at, sc_core::sc_time(5, sc_core::SC_MS));
    EXPECT_NEAR(r.done, 5e6, 2.0);
}
