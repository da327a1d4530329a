// hardware_thread's interrupt dispatch (models/hardware_thread_interrupts.cpp): in a guest (L2),
// HDEC (timer-facilities.md §3) and Hypervisor Virtualization (§4.1) trap to the hypervisor
// instead of reaching the guest's handler; an OS-level interrupt (DEC, §2.2) runs the running
// level's handler at medium SMT priority, and the thread's priority is restored after it.
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include <systemc>

#include "models/core.h"
#include "models/hardware_thread.h"
#include "sc_test_guard.h"

namespace nestvp::test {
namespace {

constexpr uint64_t guest_msr = msr::sf | msr::me | msr::ee;  // HV=0, EE=1

struct bench {
    core c{"core", 1000000000, {1.0}, 512000000};
    hardware_thread t{"t", c, 0, {}};
    sw_context guest;
    std::vector<uint32_t> guest_handled;  // vectors the L2 handler saw
    std::optional<trap_info> trap;        // what the hypervisor's enter() returned
    uint64_t trap_tick = 0;

    bench() {
        guest.name = "l2";
        guest.level = context_level::l2;
        guest.msr = guest_msr;
        guest.nia = 0x1000;
        t.set_handler(context_level::l2, [this](const interrupt_record& r) {
            guest_handled.push_back(r.vector);
            // A guest handler would acknowledge its source; here the test ends the guest's run.
            t.timers_as_is().write_dec(0x7FFFFFFF);
            t.irq().set_external(false);
        });
    }

    // L0 sets the LPCR, arms what `setup` arms, and enters the guest, which computes.
    void run(uint64_t lpcr_value, const std::function<void()>& setup) {
        sc_core::sc_spawn([this] {
            t.await_entry(guest);
            t.execute(1e6);  // 1 ms at 1 GHz
        });
        sc_core::sc_spawn([this, lpcr_value, setup] {
            sc_core::wait(sc_core::SC_ZERO_TIME);  // the guest waits for its entry first
            t.irq().set_lpcr(lpcr_value);
            t.timers().write_dec(0x7FFFFFFF);
            setup();
            trap = t.enter(guest);
            trap_tick = c.tb().ticks();
        });
        sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_MS));
    }
};

// §3: HDEC in a guest is taken regardless of its EE and goes to the hypervisor (HSRR).
TEST(Dispatch, HdecInGuestTrapsToHypervisor) {
    NESTVP_SC_TEST_GUARD();
    bench b;
    b.run(lpcr::ld | lpcr::hdice, [&] { b.t.timers().write_hdec(1000); });
    EXPECT_TRUE(b.guest_handled.empty());
    ASSERT_TRUE(b.trap.has_value());
    EXPECT_EQ(b.trap->vector, vector::hdecrementer);
    EXPECT_EQ(b.trap_tick, 1001u);      // the 0 -> -1 decrement
    EXPECT_EQ(b.trap->msr, guest_msr);  // HSRR1: the guest's MSR
}

// §4.1: the interrupt controller's line while a guest runs with LPCR[HVICE] is a Hypervisor
// Virtualization interrupt, taken by the hypervisor.
TEST(Dispatch, HviInGuestTrapsToHypervisor) {
    NESTVP_SC_TEST_GUARD();
    bench b;
    b.run(lpcr::ld | lpcr::hvice, [&] { b.t.host_ipi(); });
    EXPECT_TRUE(b.guest_handled.empty());
    ASSERT_TRUE(b.trap.has_value());
    EXPECT_EQ(b.trap->vector, vector::hv_virtualization);
}

// §2.2: DEC is the guest's own: its handler runs, at medium priority (the exception prolog's
// HMT_MEDIUM, exceptions-64s.S), and a low-priority thread is low again after it.
TEST(Dispatch, DecInGuestRunsHandlerAndRestoresPriority) {
    NESTVP_SC_TEST_GUARD();
    core c("core", 1000000000, {1.0}, 512000000);
    hardware_thread t("t", c, 0, {});
    std::vector<std::pair<uint32_t, bool>> handled;  // vector, low priority inside the handler
    std::optional<bool> low_after;
    t.set_handler(context_level::l1, [&](const interrupt_record& r) {
        handled.emplace_back(r.vector, c.is_low_priority(0));
        t.timers_as_is().write_dec(0x7FFFFFFF);
    });
    sc_core::sc_spawn([&] {
        t.set_level(context_level::l1);
        t.irq().set_msr(msr::sf | msr::me);  // a guest OS, EE=0
        t.timers().write_dec(1000);
        t.set_low_priority(true);
        t.irq().set_msr(guest_msr);
        t.execute(1e6);
        low_after = c.is_low_priority(0);
    });
    sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_MS));
    ASSERT_EQ(handled.size(), 1u);
    EXPECT_EQ(handled[0], std::make_pair(vector::decrementer, false));
    ASSERT_TRUE(low_after.has_value());
    EXPECT_TRUE(*low_after);
}

}  // namespace
}  // namespace nestvp::test
