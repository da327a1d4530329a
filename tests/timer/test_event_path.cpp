// The event path from the timer lines to a waiting thread (docs/interrupt-delivery.md): a thread
// that waits on deliverable_event() instead of polling must wake exactly when an interrupt
// becomes deliverable (timer-facilities.md §2.2 level DEC, §3 edge HDEC, §4.3 return), and not
// otherwise; the unit reports a line only when it changes. Each case here is one a polling
// check cannot see.
#include <gtest/gtest.h>

#include <vector>

#include "sc_test_guard.h"
#include "timer_rig.h"

namespace nestvp::test {
namespace {

constexpr uint64_t msr_guest = msr::sf | msr::me;  // HV=0, EE=0
constexpr uint64_t hdec56_max = 0x007FFFFFFFFFFFFFull;

class EventPath : public ::testing::TestWithParam<std::string> {};

// Counts the unit's pending_changed_event() notifications.
struct line_watcher : sc_core::sc_module {
    SC_HAS_PROCESS(line_watcher);
    line_watcher(const sc_core::sc_module_name& n, timer_unit_if& u)
        : sc_core::sc_module(n), m_u(u) {
        SC_THREAD(run);
    }
    unsigned changes = 0;

private:
    void run() {
        for (;;) {
            wait(m_u.pending_changed_event());
            ++changes;
        }
    }
    timer_unit_if& m_u;
};

// Vector 17: clearing LD makes the low 32 bits the DEC (§2.1). DEC = 0x1_0000_0010 written with
// LD=1 is 0x10 in 32 bits, so its 0 -> -1 decrement (§2.2) comes 2^32 ticks before the 56-bit
// one: the LD write must arm that earlier edge, or the interrupt is 2^32 ticks late.
TEST_P(EventPath, LdClearArmsTheEdgeOfThe32BitValue) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv_ee, lpcr::ld);
    waiter w("w", r);
    r.start();
    r.mt(spr::dec, 0x100000010ull);
    r.advance(4);
    r.mt(spr::lpcr, 0);
    EXPECT_EQ(r.mf(spr::dec), 0xCu);
    r.advance(0x20);
    ASSERT_EQ(w.seen.size(), 1u);
    EXPECT_EQ(w.seen[0], std::make_pair(uint64_t{0x11}, vector::decrementer));
}

// The lines are levels (§2.2) and a latch (§3): a write that leaves both as they were is no
// change, and the unit reports none (models/native_timer_unit.h, the RTL unit alike).
TEST_P(EventPath, UnchangedLinesAreNotReported) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, lpcr::ld | lpcr::hdice);
    line_watcher lw("lw", *r.unit);
    r.start();
    r.mt(spr::dec, 100);  // positive -> positive
    r.mt(spr::hdec, 100);
    r.advance(1);
    EXPECT_EQ(lw.changes, 0u);
    r.mt(spr::dec, ~0ull);  // DEC line raised
    r.advance(1);
    EXPECT_EQ(lw.changes, 1u);
    r.mt(spr::dec, ~0ull - 5);  // negative -> negative: still raised
    r.mt(spr::hdec, 200);
    r.advance(1);
    EXPECT_EQ(lw.changes, 1u);
    r.mt(spr::dec, 7);  // lowered
    r.advance(1);
    EXPECT_EQ(lw.changes, 2u);
}

// §4.3 / vector 11: rfid restoring EE=1 while DEC is still negative re-takes it; the return
// itself wakes the waiting thread, since no timer line changes.
TEST_P(EventPath, RfidWithEeRetakesNegativeDec) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv_ee, 0);
    waiter w("w", r);
    r.start();
    r.mt(spr::dec, ~0ull);
    r.advance(3);
    ASSERT_EQ(w.seen.size(), 1u);  // taken at tick 0; the handler runs with EE=0
    EXPECT_FALSE(r.ic.msr() & msr::ee);
    r.ic.rfid();  // SRR1 holds EE=1
    r.advance(1);
    ASSERT_EQ(w.seen.size(), 2u);
    EXPECT_EQ(w.seen[1], std::make_pair(uint64_t{3}, vector::decrementer));
}

// §2.2 / vector 9: DEC pending with EE=0; mtmsrd EE=1 delivers it at once, so the MSR write
// wakes the waiting thread at that tick.
TEST_P(EventPath, EnablingEeWakesWaiterForPendingDec) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, 0);
    waiter w("w", r);
    r.start();
    r.mt(spr::dec, ~0ull);
    r.advance(5);
    EXPECT_TRUE(w.seen.empty());
    r.set_ee(true);
    r.advance(1);
    ASSERT_EQ(w.seen.size(), 1u);
    EXPECT_EQ(w.seen[0], std::make_pair(uint64_t{5}, vector::decrementer));
}

// §2.2: DEC is delivered only with EE=1. A DEC edge under EE=0 leaves nothing deliverable and
// wakes no waiter (deliverable_event() is for deliverable interrupts only).
TEST_P(EventPath, MaskedDecEdgeWakesNobody) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, 0);
    waiter w("w", r);
    r.start();
    r.mt(spr::dec, 5);
    r.advance(10);
    EXPECT_TRUE(r.unit->dec_pending());
    EXPECT_EQ(w.wakeups, 0u);
}

// §3 / vector 19: mtHDEC of a negative value over a non-negative one is an edge; with EE=1 the
// waiting thread takes 0x980 at the write's tick.
TEST_P(EventPath, NegativeHdecWriteWakesWaiter) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv_ee, lpcr::ld | lpcr::hdice);
    waiter w("w", r);
    r.start();
    r.advance(3);
    r.mt(spr::hdec, ~0ull);
    r.advance(1);
    ASSERT_EQ(w.seen.size(), 1u);
    EXPECT_EQ(w.seen[0], std::make_pair(uint64_t{3}, vector::hdecrementer));
}

// §3: delivery clears the HDEC latch, and the clear must be reported: the next 0 -> -1
// decrement (2^32 ticks later with a 32-bit HDEC, no write in between) is a new edge that must
// wake the waiter (§3, §4.1: taken in a guest regardless of EE).
TEST_P(EventPath, HdecAckIsReportedSoTheNextEdgeWakes) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, lpcr::ld | lpcr::hdice, 32);
    waiter w("w", r);
    r.start();
    r.mt(spr::hdec, 5);
    r.ic.set_msr(msr_guest);
    r.advance(10);
    ASSERT_EQ(w.seen.size(), 1u);
    EXPECT_EQ(w.seen[0], std::make_pair(uint64_t{6}, vector::hdecrementer));
    r.ic.set_msr(msr_guest);  // the hypervisor re-enters the guest
    r.run_to(6 + (1ull << 32) + 1);
    ASSERT_EQ(w.seen.size(), 2u);
    EXPECT_EQ(w.seen[1], std::make_pair(6 + (uint64_t{1} << 32), vector::hdecrementer));
}

// §3 / vector 21: the 0 -> -1 decrement at tick 1 happens before an mtHDEC at that same tick
// (a read there gives -1), so the write of a positive value finds the edge already latched.
TEST_P(EventPath, HdecCrossingAtTheWriteTickIsLatched) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, lpcr::ld | lpcr::hdice);
    r.start();
    r.mt(spr::hdec, 0);
    r.run_to(1);  // the decrement's tick, nothing asked of the HDEC since the write
    r.mt(spr::hdec, hdec56_max);
    r.set_ee(true);
    EXPECT_EQ(r.vec(), vector::hdecrementer);
}

// Vector 23: the 0 -> -1 decrement at tick 1 happens while HDICE=0, so it is dropped, even
// when HDICE is set at that same tick.
TEST_P(EventPath, HdecCrossingAtTheHdiceWriteTickIsDropped) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, lpcr::ld);
    r.start();
    r.mt(spr::hdec, 0);
    r.run_to(1);
    r.mt(spr::lpcr, lpcr::ld | lpcr::hdice);
    r.advance(5);
    r.set_ee(true);
    EXPECT_FALSE(r.unit->hdec_pending());
    EXPECT_FALSE(r.vec());
}

// §2.2 action: SRR1 <- MSR with bits 33:36 and 42:47 cleared.
TEST_P(EventPath, Srr1ClearsMsrBits33To36And42To47) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv_ee | msr::srr1_cleared, 0);
    r.start();
    r.mt(spr::dec, ~0ull);
    ASSERT_EQ(r.vec(), vector::decrementer);
    r.ic.take(0x700);
    EXPECT_EQ(r.ic.srr1(), msr_hv_ee);
    EXPECT_EQ(r.ic.srr0(), 0x700u);
}

// §4.3 with Power ISA rfid: MSR[HV] <- SRR1[HV] & MSR[HV], so rfid never enters hypervisor
// state from a guest; in hypervisor state it may leave it.
TEST_P(EventPath, RfidCannotRaiseHv) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_guest, 0);
    r.start();
    r.ic.set_srr(0x2000, msr_hv_ee);
    EXPECT_EQ(r.ic.rfid(), 0x2000u);
    EXPECT_EQ(r.ic.msr(), msr_guest | msr::ee);
    r.ic.set_msr(msr_hv);
    r.ic.set_srr(0x3000, msr_guest);
    EXPECT_EQ(r.ic.rfid(), 0x3000u);
    EXPECT_EQ(r.ic.msr(), msr_guest);
}

INSTANTIATE_TEST_SUITE_P(Impl, EventPath, ::testing::ValuesIn(timer_impls()), impl_name);

}  // namespace
}  // namespace nestvp::test
