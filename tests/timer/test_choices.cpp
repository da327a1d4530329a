// The implementation choices named in timer-facilities.md (§8 vector 17 LD toggle, vector 23
// HDICE=0, §7.2 LD=0 upper bits, §9.3 firing tick) and the event path: a thread waiting on
// deliverable_event() wakes at the exact tick, with no per-tick process.
#include <gtest/gtest.h>

#include "sc_test_guard.h"
#include "timer_rig.h"

namespace nestvp::test {
namespace {

class Choice : public ::testing::TestWithParam<std::string> {};

// Vector 17: clearing LD re-evaluates at once; the wrap in the new width is scheduled too.
TEST_P(Choice, LdToggleReevaluatesAndReschedules) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, lpcr::ld);
    r.start();
    r.mt(spr::dec, 0x80000010);  // positive in 56 bits
    r.advance(4);
    EXPECT_FALSE(r.unit->dec_pending());
    r.mt(spr::lpcr, 0);  // LD=0: 0x8000000C is negative in 32 bits
    EXPECT_TRUE(r.unit->dec_pending());
    r.advance(0xC);  // 0x80000000: still negative
    EXPECT_TRUE(r.unit->dec_pending());
    r.advance(1);  // wraps to 0x7FFFFFFF
    EXPECT_FALSE(r.unit->dec_pending());
    EXPECT_EQ(r.mf(spr::dec), 0x7FFFFFFFu);
}

// Vector 17 through the event path, LD 1 -> 0: the value turns negative in 32 bits and the LPCR
// write itself wakes a waiting thread at that tick (exception_logic re-evaluates on every LPCR
// write, so this does not depend on the timer unit reporting its line).
TEST_P(Choice, LdClearWakesWaiterAtOnce) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv_ee, lpcr::ld);
    waiter w("w", r);
    r.start();
    r.mt(spr::dec, 0x80000100);
    r.advance(40);
    EXPECT_TRUE(w.seen.empty());
    r.mt(spr::lpcr, 0);
    r.advance(1);
    ASSERT_EQ(w.seen.size(), 1u);
    EXPECT_EQ(w.seen[0], std::make_pair(uint64_t{40}, vector::decrementer));
}

// Vector 17, LD 0 -> 1: setting LD drops a pending level (0x8000_0010 is negative in 32 bits,
// positive in 56), and the timer unit must report that drop. Otherwise its line stays "raised"
// and the next 0 -> -1 decrement (§2.2), 2^31 ticks later with no write in between, reports no
// change and wakes nobody: a lost interrupt.
TEST_P(Choice, LdSetDropsLevelThenNextEdgeWakesWaiter) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, 0);  // EE=0: the level is pending but not taken
    waiter w("w", r);
    r.start();
    r.mt(spr::dec, 0x80000010);
    EXPECT_TRUE(r.unit->dec_pending());
    r.mt(spr::lpcr, lpcr::ld);
    EXPECT_FALSE(r.unit->dec_pending());
    r.set_ee(true);
    r.advance(0x80000010);  // DEC 0: nothing yet
    EXPECT_TRUE(w.seen.empty());
    r.advance(2);  // past the 0 -> -1 decrement in 56 bits
    ASSERT_EQ(w.seen.size(), 1u);
    EXPECT_EQ(w.seen[0], std::make_pair(uint64_t{0x80000011}, vector::decrementer));
}

// §7.2 choice: an LD=0 write loads the zero-extended low 32 bits; setting LD later shows them.
TEST_P(Choice, SmallWriteZeroExtendsIntoLargeCounter) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, 0);
    r.start();
    r.mt(spr::dec, 0xFFFFFFFF80000010ull);
    EXPECT_TRUE(r.unit->dec_pending());
    r.advance(2);
    r.mt(spr::lpcr, lpcr::ld);
    EXPECT_EQ(r.mf(spr::dec), 0x000000008000000Eull);
    EXPECT_FALSE(r.unit->dec_pending());
}

// §9.3 firing tick: the 0 -> -1 transition (t0+6 for mtDEC(5)), not QEMU's t0+5; the waiter is
// woken by the DEC's own edge event with no step in between.
TEST_P(Choice, DecFiresOnZeroToMinusOne) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv_ee, 0);
    waiter w("w", r);
    r.start();
    r.run_to(1000);
    r.mt(spr::dec, 5);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
    ASSERT_EQ(w.seen.size(), 1u);
    EXPECT_EQ(w.seen[0], std::make_pair(uint64_t{1006}, vector::decrementer));
}

// HDEC crossing between steps wakes the waiter at the crossing tick (guest, EE=0).
TEST_P(Choice, HdecCrossingWakesWaiter) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr::sf | msr::me, lpcr::ld | lpcr::hdice);
    waiter w("w", r);
    r.start();
    r.mt(spr::dec, 0x7FFFFFFF);
    r.ic.set_msr(msr_hv);
    r.mt(spr::hdec, 123456);
    r.ic.set_msr(msr::sf | msr::me);  // back to the guest
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    ASSERT_EQ(w.seen.size(), 1u);
    EXPECT_EQ(w.seen[0], std::make_pair(uint64_t{123457}, vector::hdecrementer));
}

// Vector 23 (POWER9): an underflow while HDICE=0 is dropped.
TEST_P(Choice, HdiceZeroDropsDecrementEdge) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv_ee, lpcr::ld);
    waiter w("w", r);
    r.start();
    r.mt(spr::hdec, 100);
    r.advance(200);
    r.mt(spr::lpcr, lpcr::ld | lpcr::hdice);
    r.advance(10);
    EXPECT_FALSE(r.unit->hdec_pending());
    EXPECT_TRUE(w.seen.empty());
}

// Vector 23: a negative write while HDICE=0 is dropped as well.
TEST_P(Choice, HdiceZeroDropsWriteEdge) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv_ee, lpcr::ld);
    r.start();
    r.mt(spr::hdec, ~0ull);
    r.mt(spr::lpcr, lpcr::ld | lpcr::hdice);
    EXPECT_FALSE(r.unit->hdec_pending());
    EXPECT_FALSE(r.vec());
}

// Choice: clearing HDICE does not clear an edge already latched; it only gates delivery.
TEST_P(Choice, HdiceClearedKeepsLatchedEdge) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, lpcr::ld | lpcr::hdice);
    r.start();
    r.mt(spr::hdec, ~0ull);
    EXPECT_TRUE(r.unit->hdec_pending());
    r.mt(spr::lpcr, lpcr::ld);
    r.set_ee(true);
    EXPECT_FALSE(r.vec());  // gated by HDICE
    r.set_ee(false);
    r.mt(spr::lpcr, lpcr::ld | lpcr::hdice);
    r.set_ee(true);
    EXPECT_EQ(r.vec(), vector::hdecrementer);
}

// §3: a guest cannot touch HDEC/LPCR/TBU40 (0xE40), problem state cannot touch DEC (0x700);
// refused accesses change nothing.
TEST_P(Choice, PrivilegeRules) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr::sf | msr::me, lpcr::ld | lpcr::hdice);  // guest OS
    r.start();
    const uint64_t hdec = r.unit->read_hdec();
    for (unsigned n : {spr::hdec, spr::lpcr, spr::tbu40, spr::tbl_w, spr::tbu_w}) {
        const spr_result f = r.sa.mtspr(n, 5);
        ASSERT_FALSE(f.ok()) << n;
        EXPECT_EQ(*f.exception, vector::hv_emulation) << n;
    }
    for (unsigned n : {spr::hdec, spr::lpcr}) {
        const spr_result f = r.sa.mfspr(n);
        ASSERT_FALSE(f.ok()) << n;
        EXPECT_EQ(*f.exception, vector::hv_emulation) << n;
    }
    EXPECT_EQ(r.unit->read_hdec(), hdec);
    EXPECT_EQ(r.ic.lpcr(), lpcr::ld | lpcr::hdice);
    EXPECT_EQ(r.tbr.offset(), 0u);
    EXPECT_TRUE(r.sa.mtspr(spr::dec, 77).ok());  // DEC is the guest's own
    EXPECT_TRUE(r.sa.mfspr(spr::tb).ok());
    EXPECT_FALSE(r.sa.hrfid().ok());
    r.ic.set_msr(msr::sf | msr::me | msr::pr);  // problem state
    const spr_result f = r.sa.mfspr(spr::dec);
    ASSERT_FALSE(f.ok());
    EXPECT_EQ(*f.exception, vector::program);
    EXPECT_TRUE(r.sa.mfspr(spr::tbu_r).ok());
    const interrupt_record rec = r.sa.raise(f, 0x4000);
    EXPECT_EQ(rec.vector, vector::program);
    EXPECT_EQ(r.ic.srr0(), 0x4000u);
    EXPECT_TRUE(r.ic.srr1() & srr1_privileged);
    EXPECT_FALSE(r.ic.msr() & msr::hv);  // a Program interrupt keeps HV
}

// §1: DEC/HDEC expiries are in host ticks; TB register writes (offset changes) do not move them.
TEST_P(Choice, TbWritesDoNotMoveDecOrHdec) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, lpcr::ld | lpcr::hdice);
    r.start();
    r.mt(spr::dec, 1000);
    r.mt(spr::hdec, 2000);
    r.advance(10);
    r.mt(spr::tbu40, 0x5500000000000000ull);
    r.mt(spr::tbl_w, 0x12345);
    r.tbr.apply_offset(round_tb_offset(0x123));
    r.advance(10);
    EXPECT_EQ(r.mf(spr::dec), 980u);
    EXPECT_EQ(r.mf(spr::hdec), 1980u);
    r.advance(981);
    EXPECT_TRUE(r.unit->dec_pending());
    EXPECT_FALSE(r.unit->hdec_pending());
}

// Misuse by a model (not by guest software) is reported, never a crash.
TEST_P(Choice, MisuseIsReported) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, 0);
    r.start();
    EXPECT_THROW(r.ic.take(0), std::logic_error);  // nothing deliverable
    EXPECT_THROW(r.sa.mfspr(spr::tbu40), std::invalid_argument);
    EXPECT_THROW(r.sa.mtspr(spr::tb, 1), std::invalid_argument);
    EXPECT_THROW(r.sa.raise(r.sa.mfspr(spr::tb), 0), std::logic_error);
    timer_unit_options o;
    o.impl = "bogus";
    EXPECT_THROW(make_timer_unit("x", r.tb, o), std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(Impl, Choice, ::testing::ValuesIn(timer_impls()), impl_name);

}  // namespace
}  // namespace nestvp::test
