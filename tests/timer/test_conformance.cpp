// ISA conformance: one TEST per edge-case vector of timer-facilities.md §8 (1..25), run for
// every timer unit implementation (timer_impls()), through exception_logic + spr_access.
#include <gtest/gtest.h>

#include "sc_test_guard.h"
#include "timer_rig.h"

namespace nestvp::test {
namespace {

constexpr uint64_t neg1 = ~0ull;
constexpr uint64_t dec32_max = 0x7FFFFFFFull;
constexpr uint64_t dec56_max = 0x007FFFFFFFFFFFFFull;

class Vector : public ::testing::TestWithParam<std::string> {};

// §8.1 TB increments: monotonic, +512e6 over 1 s at 512 MHz.
TEST_P(Vector, V01_TbIncrements) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, 0);
    r.start();
    const uint64_t a = r.mf(spr::tb);
    r.advance(1);
    const uint64_t b = r.mf(spr::tb);
    sc_core::sc_start(1, sc_core::SC_SEC);
    const uint64_t c = r.mf(spr::tb);
    EXPECT_EQ(b, a + 1);
    EXPECT_EQ(c - b, 512000000u);
}

// §8.2 TBL -> TBU carry.
TEST_P(Vector, V02_TblToTbuCarry) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, 0);
    r.start();
    r.advance(7);
    r.mt(spr::tbu_w, 0x1);
    r.mt(spr::tbl_w, 0xFFFFFFFF);
    EXPECT_EQ(r.mf(spr::tb), 0x00000001FFFFFFFFull);
    r.advance(1);
    EXPECT_EQ(r.mf(spr::tb), 0x0000000200000000ull);
    EXPECT_EQ(r.mf(spr::tbu_r), 2u);
}

// §8.3 TBL write by HV; a supervisor (HV=0) write does not change TB (0xE40 instead).
TEST_P(Vector, V03_TblWriteHvOnly) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, 0);
    r.start();
    r.mt(spr::tbu_w, 0x12345678);
    r.mt(spr::tbl_w, 0x9ABCDEF0);
    EXPECT_EQ(r.mf(spr::tb), 0x123456789ABCDEF0ull);
    r.mt(spr::tbl_w, 0x11);
    EXPECT_EQ(r.mf(spr::tb), 0x1234567800000011ull);
    r.advance(10);
    EXPECT_EQ(r.mf(spr::tb), 0x123456780000001Bull);  // keeps counting
    r.ic.set_msr(msr::sf | msr::me);                  // guest OS: HV=0, PR=0
    const spr_result f = r.sa.mtspr(spr::tbl_w, 0x99);
    ASSERT_FALSE(f.ok());
    EXPECT_EQ(*f.exception, vector::hv_emulation);
    EXPECT_EQ(r.mf(spr::tb), 0x123456780000001Bull);  // unchanged
    const interrupt_record rec = r.sa.raise(f, 0x2000);
    EXPECT_TRUE(rec.hypervisor);
    EXPECT_EQ(r.ic.hsrr0(), 0x2000u);
    EXPECT_TRUE(r.ic.msr() & msr::hv);
}

// §8.4 TBU40: upper 40 bits from the source, low 24 preserved and counting.
TEST_P(Vector, V04_Tbu40) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, 0);
    r.start();
    r.mt(spr::tbu_w, 0x00001234);
    r.mt(spr::tbl_w, 0x56ABCDEF);
    r.mt(spr::tbu40, 0xAAAABBBBCC123456ull);
    EXPECT_EQ(r.mf(spr::tb), 0xAAAABBBBCCABCDEFull);
    r.advance(5);
    EXPECT_EQ(r.mf(spr::tb), 0xAAAABBBBCCABCDF4ull);
}

// §8.5 Offset rounding: KVM_REG_PPC_TB_OFFSET 0x0100_0001 -> 0x0200_0000.
TEST_P(Vector, V05_OffsetRounding) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, 0);
    r.start();
    r.advance(1000);
    r.tbr.set_offset(round_tb_offset(0x01000001));
    EXPECT_EQ(r.tbr.offset(), 0x02000000u);
    EXPECT_EQ(r.mf(spr::tb) - r.tb.ticks(), 0x02000000u);
}

// §8.6 Offset application with a low-24 wrap between the read and the TBU40 write.
TEST_P(Vector, V06_OffsetApplicationCarry) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, 0);
    r.start();
    r.run_to(0xFFFFF0);
    const uint64_t host = r.mf(spr::tb);
    ASSERT_EQ(host, 0xFFFFF0u);
    int writes = 0;
    apply_tb_offset_tbu40(
        host, 0x01000000, [&] { return r.mf(spr::tb); },
        [&](uint64_t v) {
            if (writes++ == 0) r.advance(0x20);  // 0x20 ticks elapse before the first write
            r.mt(spr::tbu40, v);
        });
    EXPECT_EQ(writes, 2);  // the fix-up rewrote TBU40
    EXPECT_EQ(r.mf(spr::tb) - r.tb.ticks(), 0x01000000u);
    r.advance(100);
    EXPECT_EQ(r.mf(spr::tb) - r.tb.ticks(), 0x01000000u);
}

// §8.7 DEC basic timing: 5,4,3,2,1,0 then -1 and 0x900 at t0+6.
TEST_P(Vector, V07_DecBasicTiming) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv_ee, 0);
    r.start();
    r.run_to(100);
    r.mt(spr::dec, 5);
    for (uint64_t k = 0; k <= 5; ++k) {
        EXPECT_EQ(r.mf(spr::dec), 5 - k) << "t0+" << k;
        EXPECT_FALSE(r.vec()) << "t0+" << k;
        r.advance(1);
    }
    EXPECT_EQ(r.mf(spr::dec), 0xFFFFFFFFull);
    ASSERT_EQ(r.vec(), vector::decrementer);
    const uint64_t before = r.ic.msr();
    const interrupt_record rec = r.ic.take(0x1234);
    EXPECT_EQ(rec.vector, 0x900u);
    EXPECT_FALSE(rec.hypervisor);
    EXPECT_EQ(r.ic.srr0(), 0x1234u);
    EXPECT_EQ(r.ic.srr1(), before);
    EXPECT_FALSE(r.ic.msr() & msr::ee);
}

// §8.8 mtDEC(0): no interrupt at the write instant, one tick later yes.
TEST_P(Vector, V08_DecWriteZero) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, 0);
    r.start();
    r.run_to(10);
    r.mt(spr::dec, 0);
    r.set_ee(true);
    EXPECT_FALSE(r.vec());
    r.set_ee(false);
    r.advance(1);
    r.set_ee(true);
    EXPECT_EQ(r.vec(), vector::decrementer);
}

// §8.9 Negative write with EE=0: pending at once; delivered when EE is enabled.
TEST_P(Vector, V09_DecNegativeWriteLevel) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, 0);
    r.start();
    r.mt(spr::dec, 0xFFFFFFFF);
    EXPECT_TRUE(r.unit->dec_pending());
    EXPECT_FALSE(r.vec());
    r.set_ee(true);
    ASSERT_EQ(r.vec(), vector::decrementer);
    r.ic.take(0x104);
    EXPECT_EQ(r.ic.srr0(), 0x104u);
}

// §8.10 Negative write with EE=1 interrupts immediately.
TEST_P(Vector, V10_DecNegativeWriteEeOn) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv_ee, 0);
    r.start();
    r.mt(spr::dec, dec32_max);
    r.advance(3);
    EXPECT_FALSE(r.vec());
    r.mt(spr::dec, neg1);
    EXPECT_EQ(r.vec(), vector::decrementer);
}

// §8.11 Not cleared by delivery: returning with EE=0 then enabling EE re-takes 0x900.
TEST_P(Vector, V11_DecNotClearedByDelivery) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv_ee, 0);
    r.start();
    r.mt(spr::dec, neg1);
    ASSERT_EQ(r.vec(), vector::decrementer);
    r.ic.take(0x200);
    r.ic.set_srr(r.ic.srr0(), r.ic.srr1() & ~msr::ee);
    EXPECT_EQ(r.ic.rfid(), 0x200u);
    EXPECT_FALSE(r.vec());
    r.advance(10);
    r.set_ee(true);
    EXPECT_EQ(r.vec(), vector::decrementer);
}

// §8.12 Cleared by a positive write.
TEST_P(Vector, V12_DecClearedByPositiveWrite) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, 0);
    r.start();
    r.mt(spr::dec, neg1);
    EXPECT_TRUE(r.unit->dec_pending());
    r.mt(spr::dec, dec32_max);
    EXPECT_FALSE(r.unit->dec_pending());
    r.set_ee(true);
    EXPECT_FALSE(r.vec());
}

// §8.13 Wrap to positive (LD=0) clears the level.
TEST_P(Vector, V13_DecWrapToPositive) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, 0);
    r.start();
    r.mt(spr::dec, 0x80000001);
    EXPECT_TRUE(r.unit->dec_pending());
    r.advance(1);
    EXPECT_EQ(r.mf(spr::dec), 0x80000000u);
    EXPECT_TRUE(r.unit->dec_pending());
    r.advance(1);
    EXPECT_EQ(r.mf(spr::dec), 0x7FFFFFFFu);
    EXPECT_FALSE(r.unit->dec_pending());
    r.advance(1);
    r.set_ee(true);
    EXPECT_FALSE(r.vec());
}

// §8.14 LD=1 sign extension of the most negative 56-bit value; it wraps a tick later.
TEST_P(Vector, V14_LargeDecSignExtension) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, lpcr::ld);
    r.start();
    r.mt(spr::dec, 0x0080000000000000ull);
    EXPECT_EQ(r.mf(spr::dec), 0xFF80000000000000ull);
    EXPECT_TRUE(r.unit->dec_pending());
    r.mt(spr::dec, 0x0080000000000005ull);
    r.advance(2);
    EXPECT_EQ(r.mf(spr::dec), 0xFF80000000000003ull);  // minus elapsed
    EXPECT_TRUE(r.unit->dec_pending());
}

// §8.15 LD=1 truncation and the skiboot width probe.
TEST_P(Vector, V15_LargeDecWidthProbe) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, lpcr::ld);
    r.start();
    r.mt(spr::dec, ~0ull);
    EXPECT_EQ(r.mf(spr::dec), ~0ull);
    r.mt(spr::dec, 0x00FFFFFFFFFFFFFFull);
    EXPECT_EQ(r.mf(spr::dec), ~0ull);
    r.mt(spr::dec, dec56_max);
    EXPECT_EQ(r.mf(spr::dec), dec56_max);
    r.advance(2);
    EXPECT_EQ(r.mf(spr::dec), dec56_max - 2);
    // skiboot find_dec_bits: write 2^n - 1 for n = 64, 63, ...; the first read-back with
    // bit 63 clear gives W = n + 1.
    unsigned bits = 0;
    for (unsigned n = 64; n >= 32; --n) {
        r.mt(spr::dec, n == 64 ? ~0ull : (1ull << n) - 1);
        if (!(r.mf(spr::dec) >> 63)) {
            bits = n + 1;
            break;
        }
    }
    EXPECT_EQ(bits, 56u);
}

// §8.16 LD=0: no sign extension, upper 32 bits read as 0, bit 32 is the sign.
TEST_P(Vector, V16_SmallDecNoSignExtension) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, 0);
    r.start();
    r.mt(spr::dec, 0xFFFFFFFF80000000ull);
    EXPECT_EQ(r.mf(spr::dec), 0x0000000080000000ull);
    EXPECT_TRUE(r.unit->dec_pending());
    r.set_ee(true);
    EXPECT_EQ(r.vec(), vector::decrementer);
}

// §8.17 LD toggle (choice): the level follows the MSB of the new width at once.
TEST_P(Vector, V17_LdToggleReevaluates) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv_ee, lpcr::ld | lpcr::hdice);
    r.start();
    r.mt(spr::dec, 0x0000000080000000ull);
    EXPECT_EQ(r.mf(spr::dec), 0x80000000u);
    EXPECT_FALSE(r.vec());
    r.mt(spr::lpcr, lpcr::hdice);  // clear LD: bit 31 is now the sign
    EXPECT_TRUE(r.unit->dec_pending());
    EXPECT_EQ(r.mf(spr::dec), 0x80000000u);
    EXPECT_EQ(r.vec(), vector::decrementer);
    r.mt(spr::lpcr, lpcr::ld | lpcr::hdice);  // set LD again: positive in 56 bits
    EXPECT_FALSE(r.unit->dec_pending());
    EXPECT_FALSE(r.vec());
}

// §8.18 HDEC edge survives a positive write; delivered once.
TEST_P(Vector, V18_HdecEdgeSurvivesPositiveWrite) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, lpcr::ld | lpcr::hdice);
    r.start();
    r.mt(spr::hdec, 1);
    r.advance(2);
    EXPECT_EQ(r.mf(spr::hdec), ~0ull);
    r.mt(spr::hdec, dec56_max);
    EXPECT_TRUE(r.unit->hdec_pending());
    r.set_ee(true);
    ASSERT_EQ(r.vec(), vector::hdecrementer);
    const uint64_t before = r.ic.msr();
    const interrupt_record rec = r.ic.take(0x300);
    EXPECT_TRUE(rec.hypervisor);
    EXPECT_EQ(r.ic.hsrr0(), 0x300u);
    EXPECT_EQ(r.ic.hsrr1(), before);
    EXPECT_TRUE(r.ic.msr() & msr::hv);
    r.set_ee(true);
    EXPECT_FALSE(r.vec());
    r.advance(1000);
    EXPECT_FALSE(r.vec());
}

// §8.19 HDEC negative write from positive with EE=1: immediate 0x980.
TEST_P(Vector, V19_HdecNegativeWriteFromPositive) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv_ee, lpcr::ld | lpcr::hdice);
    r.start();
    r.mt(spr::hdec, 1000);
    r.advance(5);
    EXPECT_FALSE(r.vec());
    r.mt(spr::hdec, neg1);
    EXPECT_EQ(r.vec(), vector::hdecrementer);
}

// §8.20 HDEC negative -> negative write: no edge; after the wrap to positive a negative write
// re-arms it. The wrap needs 2^(W-1) ticks, so this vector uses W = 32 (dec_bits=32).
TEST_P(Vector, V20_HdecNegativeToNegativeNoEdge) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv_ee, lpcr::hdice, 32);
    r.start();
    r.mt(spr::hdec, 0xFFFFFFFB);  // -5
    ASSERT_EQ(r.vec(), vector::hdecrementer);
    r.ic.take(0x400);  // delivered
    r.set_ee(true);
    r.mt(spr::hdec, neg1);
    EXPECT_FALSE(r.unit->hdec_pending());
    EXPECT_FALSE(r.vec());
    r.advance(1ull << 31);  // -1 -> 0x7FFF_FFFF: wrapped to positive, no edge on the wrap
    EXPECT_EQ(r.mf(spr::hdec), 0x7FFFFFFFu);
    EXPECT_FALSE(r.unit->hdec_pending());  // (the 32-bit DEC from reset is negative by now)
    EXPECT_NE(r.vec(), vector::hdecrementer);
    r.mt(spr::hdec, neg1);
    EXPECT_EQ(r.vec(), vector::hdecrementer);
}

// §8.21 HDEC set to 0: the 0 -> -1 decrement is an edge, kept across a positive write.
TEST_P(Vector, V21_HdecSetToZero) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv_ee, lpcr::ld | lpcr::hdice);
    r.start();
    r.mt(spr::hdec, neg1);
    ASSERT_EQ(r.vec(), vector::hdecrementer);
    r.ic.take(0x500);  // consumed; EE now 0
    r.mt(spr::hdec, 0);
    EXPECT_FALSE(r.unit->hdec_pending());
    r.advance(1);
    EXPECT_TRUE(r.unit->hdec_pending());
    r.mt(spr::hdec, dec56_max);
    r.set_ee(true);
    EXPECT_EQ(r.vec(), vector::hdecrementer);
}

// §8.22 HDEC in a guest (HV=0) ignores the guest's EE: taken at the crossing tick.
TEST_P(Vector, V22_HdecInGuestIgnoresEe) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, lpcr::ld | lpcr::hdice);
    r.start();
    r.run_to(50);
    r.mt(spr::hdec, 3);
    const uint64_t guest = msr::sf | msr::me;  // HV=0, PR=0, EE=0
    r.ic.set_msr(guest);
    r.advance(3);
    EXPECT_FALSE(r.vec());
    r.advance(1);  // 0 -> -1
    ASSERT_EQ(r.vec(), vector::hdecrementer);
    r.ic.take(0x7000);
    EXPECT_EQ(r.ic.hsrr1(), guest);
    EXPECT_FALSE(r.ic.hsrr1() & msr::hv);
    EXPECT_TRUE(r.ic.msr() & msr::hv);
    EXPECT_FALSE(r.ic.msr() & msr::ee);
}

// §8.23 HDICE=0 (POWER9 choice): the edge is dropped, not delivered when HDICE becomes 1.
TEST_P(Vector, V23_HdiceZeroDropsEdge) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv_ee, lpcr::ld);
    r.start();
    r.mt(spr::hdec, 2);
    r.advance(5);  // underflow while HDICE=0
    r.mt(spr::lpcr, lpcr::ld | lpcr::hdice);
    EXPECT_FALSE(r.unit->hdec_pending());
    EXPECT_FALSE(r.vec());
    r.mt(spr::lpcr, lpcr::ld);
    r.mt(spr::hdec, 10);
    r.mt(spr::hdec, neg1);  // write edge while HDICE=0: dropped too
    r.mt(spr::lpcr, lpcr::ld | lpcr::hdice);
    EXPECT_FALSE(r.vec());
}

// §8.24 Priority: HDEC before DEC; after hrfid the still-negative DEC is taken.
TEST_P(Vector, V24_PriorityHdecOverDec) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv, lpcr::ld | lpcr::hdice);
    r.start();
    r.mt(spr::dec, neg1);
    r.mt(spr::hdec, neg1);
    const uint64_t guest = msr::sf | msr::me | msr::ee;  // HV=0, EE=1
    r.ic.set_msr(guest);
    ASSERT_EQ(r.vec(), vector::hdecrementer);
    r.ic.take(0x8000);
    EXPECT_EQ(r.ic.hsrr1(), guest);
    EXPECT_FALSE(r.vec());  // hypervisor with EE=0
    EXPECT_EQ(r.ic.hrfid(), 0x8000u);
    EXPECT_EQ(r.ic.msr(), guest);
    ASSERT_EQ(r.vec(), vector::decrementer);
    r.ic.take(0x8000);
    EXPECT_EQ(r.ic.srr1(), guest);
    EXPECT_FALSE(r.ic.msr() & msr::hv);  // DEC keeps HV=0
}

// §8.25 DEC in hypervisor uses SRR0/1 and keeps HV=1. (The power-saving variant is out of
// scope: no stop states are modelled.)
TEST_P(Vector, V25_DecInHypervisorUsesSrr) {
    NESTVP_SC_TEST_GUARD();
    rig r(GetParam(), msr_hv_ee, lpcr::ld | lpcr::hdice);
    r.start();
    r.mt(spr::dec, 0);
    EXPECT_FALSE(r.vec());
    r.advance(1);
    ASSERT_EQ(r.vec(), vector::decrementer);
    const interrupt_record rec = r.ic.take(0x900c);
    EXPECT_FALSE(rec.hypervisor);
    EXPECT_EQ(r.ic.srr0(), 0x900cu);
    EXPECT_EQ(r.ic.srr1(), msr_hv_ee);
    EXPECT_EQ(r.ic.hsrr0(), 0u);
    EXPECT_EQ(r.ic.hsrr1(), 0u);
    EXPECT_TRUE(r.ic.msr() & msr::hv);
    EXPECT_FALSE(r.ic.msr() & msr::ee);
}

INSTANTIATE_TEST_SUITE_P(Impl, Vector, ::testing::ValuesIn(timer_impls()), impl_name);

}  // namespace
}  // namespace nestvp::test
