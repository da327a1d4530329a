// The kvm-unit-tests powerpc/timebase.c checks (field-anchors.md §1.11), ported as GoogleTest
// cases against the model, for every timer unit implementation.
#include <gtest/gtest.h>

#include "sc_test_guard.h"
#include "timer_rig.h"

namespace nestvp::test {
namespace {

class KutTimebase : public ::testing::TestWithParam<std::string> {};

// 1. TB never goes backwards and it increments (also across TB offset changes made to look
// like a migration: the offset only moves forward).
TEST_P(KutTimebase, K1_TbMonotonicAndIncrements) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, 0);
    r.start();
    uint64_t prev = r.mf(spr::tb);
    for (int i = 0; i < 50; ++i) {
        r.advance(1 + i * 37);
        const uint64_t now = r.mf(spr::tb);
        EXPECT_GT(now, prev);
        prev = now;
    }
    r.tbr.apply_offset(round_tb_offset(0x1000));  // "migration": destination TB ahead
    EXPECT_GE(r.mf(spr::tb), prev);
    r.advance(1);
    EXPECT_GT(r.mf(spr::tb), prev);
}

// 2. DEC stays within TB after mtDEC: DEC + (TB - TB at write) == written value.
TEST_P(KutTimebase, K2_DecTracksTb) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, lpcr::ld);
    r.start();
    r.mt(spr::dec, 1000000);
    const uint64_t tb0 = r.mf(spr::tb);
    for (int i = 0; i < 20; ++i) {
        r.advance(777);
        const uint64_t dec = r.mf(spr::dec);
        const uint64_t tb = r.mf(spr::tb);
        EXPECT_EQ(dec + (tb - tb0), 1000000u);
    }
}

// 3. No interrupt while DEC is positive.
TEST_P(KutTimebase, K3_NoInterruptWhileDecPositive) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv_ee, lpcr::ld);
    r.start();
    r.mt(spr::dec, 100000);
    for (int i = 0; i < 10; ++i) {
        r.advance(10000);
        EXPECT_FALSE(r.vec());
    }
    r.advance(1);  // 0 -> -1 exactly now
    EXPECT_EQ(r.vec(), vector::decrementer);
}

// 4. Interrupt on underflow, and again while still negative (level).
TEST_P(KutTimebase, K4_InterruptOnUnderflowAndWhileNegative) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv_ee, lpcr::ld);
    r.start();
    r.mt(spr::dec, 10);
    r.advance(11);
    ASSERT_EQ(r.vec(), vector::decrementer);
    r.ic.take(0x1000);
    EXPECT_FALSE(r.vec());
    r.ic.rfid();  // SRR1 has EE=1: still negative, so taken again
    EXPECT_EQ(r.vec(), vector::decrementer);
}

// 5. Writing 0 and writing a value with the MSB set both interrupt.
TEST_P(KutTimebase, K5_WriteZeroAndWriteMsb) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, lpcr::ld);
    r.start();
    r.mt(spr::dec, 0);
    r.advance(1);
    r.set_ee(true);
    EXPECT_EQ(r.vec(), vector::decrementer);
    r.set_ee(false);
    r.mt(spr::dec, 100);
    r.set_ee(true);
    EXPECT_FALSE(r.vec());
    r.mt(spr::dec, 0x0080000000000010ull);  // MSB of the 56-bit DEC set
    EXPECT_EQ(r.vec(), vector::decrementer);
}

// 6. No interrupt after wrapping back to positive (the known TCG failure).
TEST_P(KutTimebase, K6_NoInterruptAfterWrapToPositive) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, 0);
    r.start();
    r.mt(spr::dec, 0x80000000);  // most negative 32-bit value
    EXPECT_TRUE(r.unit->dec_pending());
    r.advance(1);
    r.set_ee(true);
    EXPECT_FALSE(r.vec());
}

// 7a. HDEC: interrupt on underflow even if re-armed before interrupts are enabled (edge).
TEST_P(KutTimebase, K7a_HdecEdgeSurvivesRearm) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, lpcr::ld | lpcr::hdice);
    r.start();
    r.mt(spr::hdec, 5);
    r.advance(10);
    r.mt(spr::hdec, 0x007FFFFFFFFFFFFFull);
    r.set_ee(true);
    EXPECT_EQ(r.vec(), vector::hdecrementer);
}

// 7b. HDEC: no second interrupt while it stays negative.
TEST_P(KutTimebase, K7b_HdecNoInterruptWhileStillNegative) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv_ee, lpcr::ld | lpcr::hdice);
    r.start();
    r.mt(spr::hdec, 5);
    r.advance(6);
    ASSERT_EQ(r.vec(), vector::hdecrementer);
    r.ic.take(0x1000);
    r.ic.hrfid();  // EE=1 again, HDEC still negative
    EXPECT_FALSE(r.vec());
    r.advance(1000);
    EXPECT_FALSE(r.vec());
    EXPECT_EQ(r.mf(spr::hdec), ~0ull - 1000);
}

// 7c. HDEC: the edge re-arms after the value wraps to positive (W = 32 so the wrap fits in a
// test: 2^31 ticks, about 4.2 s at 512 MHz).
TEST_P(KutTimebase, K7c_HdecEdgeRearmsAfterWrap) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv_ee, lpcr::hdice, 32);
    r.start();
    r.mt(spr::hdec, 0);
    r.mt(spr::dec, 0x7FFFFFFF);
    r.advance(1);
    ASSERT_EQ(r.vec(), vector::hdecrementer);
    r.ic.take(0x1000);
    r.ic.hrfid();
    r.advance(1ull << 31);  // -1 wrapped to 0x7FFFFFFF
    EXPECT_EQ(r.mf(spr::hdec), 0x7FFFFFFFu);
    EXPECT_FALSE(r.unit->hdec_pending());
    r.mt(spr::dec, 0x7FFFFFFF);  // keep the DEC out of the way
    r.advance(0x80000000ull);    // counts down through 0 -> -1 again: a new edge
    EXPECT_EQ(r.vec(), vector::hdecrementer);
}

// 8. dec_bits: the width probe gives ibm,dec-bits; dec_max = 2^(bits-1) - 1 reads back positive
// and dec_max + 1 is negative.
TEST_P(KutTimebase, K8_DecBitsAndDecMax) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, lpcr::ld);
    r.start();
    unsigned bits = 0;
    for (unsigned n = 63; n >= 31; --n) {
        r.mt(spr::dec, (1ull << n) - 1);
        if (!(r.mf(spr::dec) >> 63)) {
            bits = n + 1;
            break;
        }
    }
    ASSERT_EQ(bits, 56u);
    const uint64_t dec_max = (1ull << (bits - 1)) - 1;
    r.mt(spr::dec, dec_max);
    EXPECT_EQ(r.mf(spr::dec), dec_max);
    EXPECT_FALSE(r.unit->dec_pending());
    r.mt(spr::dec, dec_max + 1);
    EXPECT_TRUE(r.unit->dec_pending());
}

INSTANTIATE_TEST_SUITE_P(Impl, KutTimebase, ::testing::ValuesIn(timer_impls()), impl_name);

}  // namespace
}  // namespace nestvp::test
