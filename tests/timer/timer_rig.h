#pragma once
// One hardware thread's timer path for tests: time_base + timer unit (by impl) +
// exception_logic + tb_register + spr_access. The test body builds a rig, calls start()
// and then steps simulated time with run_to()/advance() (sc_start from the test body).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

#include "models/exception_logic.h"
#include "models/spr_access.h"
#include "models/tb_register.h"
#include "models/time_base.h"
#include "models/timer_unit_factory.h"

namespace nestvp::test {

constexpr uint64_t msr_hv_ee = msr::sf | msr::hv | msr::me | msr::ee;  // hypervisor, EE=1
constexpr uint64_t msr_hv = msr::sf | msr::hv | msr::me;               // hypervisor, EE=0

struct rig {
    time_base tb;
    std::unique_ptr<timer_unit_if> unit;
    exception_logic ic;
    tb_register tbr;
    spr_access sa;

    rig(const std::string& impl, uint64_t msr_value, uint64_t lpcr_value, unsigned dec_bits = 56,
        uint64_t tb_hz = time_base::default_freq_hz)
        : tb("tb", tb_hz),
          unit(make_timer_unit("timers", tb, options(impl, dec_bits))),
          ic("ic", msr_value, lpcr_value),
          tbr(tb),
          sa(ic, *unit, tbr) {
        ic.timer_lines.bind(*unit);
    }

    static timer_unit_options options(const std::string& impl, unsigned dec_bits) {
        timer_unit_options o;
        o.impl = impl;
        o.dec_bits = dec_bits;
        return o;
    }

    void start() { sc_core::sc_start(sc_core::SC_ZERO_TIME); }
    uint64_t now() const { return tb.ticks(); }
    // Runs the simulation until host tick `tick` (its first instant).
    void run_to(uint64_t tick) {
        ASSERT_GE(tick, now());
        const sc_core::sc_time at = tb.time_of(tick);
        ASSERT_LT(at, sc_core::sc_max_time());
        sc_core::sc_start(at - sc_core::sc_time_stamp());
        ASSERT_EQ(now(), tick);
    }
    void advance(uint64_t ticks) { run_to(now() + ticks); }

    // Hypervisor-privileged SPR accesses that must succeed.
    void mt(unsigned spr_num, uint64_t v) {
        const spr_result r = sa.mtspr(spr_num, v);
        ASSERT_TRUE(r.ok()) << "mtspr " << spr_access::spr_name(spr_num) << " faulted";
    }
    uint64_t mf(unsigned spr_num) {
        const spr_result r = sa.mfspr(spr_num);
        EXPECT_TRUE(r.ok()) << "mfspr " << spr_access::spr_name(spr_num) << " faulted";
        return r.value;
    }
    void set_ee(bool on) { ic.set_msr(on ? ic.msr() | msr::ee : ic.msr() & ~msr::ee); }
    std::optional<uint32_t> vec() { return ic.pending_vector(); }
};

// Records the tick of every wake-up on deliverable_event() at which something is deliverable.
struct waiter : sc_core::sc_module {
    SC_HAS_PROCESS(waiter);
    waiter(const sc_core::sc_module_name& n, rig& r) : sc_core::sc_module(n), m_r(r) {
        SC_THREAD(run);
    }
    std::vector<std::pair<uint64_t, uint32_t>> seen;
    unsigned wakeups = 0;

private:
    void run() {
        for (;;) {
            wait(m_r.ic.deliverable_event());
            ++wakeups;
            if (auto v = m_r.ic.pending_vector()) {
                seen.emplace_back(m_r.now(), *v);
                m_r.ic.take(0);
            }
        }
    }
    rig& m_r;
};

inline std::string impl_name(const ::testing::TestParamInfo<std::string>& info) {
    return info.param;
}

}  // namespace nestvp::test
