// Directed tests of rtl/decrementer_unit.v at module level (Verilated, no SystemC): bit-width
// corner cases, bulk advances that cross edges, write-vs-tick priority, the HDEC latch and the
// next-edge outputs (timer-facilities.md §2, §3, §7.2; docs/rtl-decrementer.md).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "Vdecrementer_unit.h"
#include "verilated.h"
#pragma GCC diagnostic pop

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>

namespace {

constexpr uint64_t p2(unsigned n) {
    return 1ull << n;
}
constexpr uint64_t m56 = p2(56) - 1;

// One unit, clocked explicitly: every call is one clock cycle.
class unit {
public:
    explicit unit(unsigned dec_bits = 56) : m_top(&m_ctx, "dut") {
        m_top.dec_bits = static_cast<uint8_t>(dec_bits);
        m_top.rst = 1;
        cycle();
    }
    ~unit() { m_top.final(); }

    void cycle() {
        m_top.clk = 0;
        m_top.eval();
        m_top.clk = 1;
        m_top.eval();
        m_top.rst = 0;
        m_top.adv = 0;
        m_top.wr_dec = 0;
        m_top.wr_hdec = 0;
        m_top.hdec_ack = 0;
        m_top.pm_enter = 0;
    }
    void advance(uint64_t n) {
        m_top.adv = n;
        cycle();
    }
    void lpcr(bool ld, bool hdice) {
        m_top.lpcr_ld = ld;
        m_top.lpcr_hdice = hdice;
        cycle();
    }
    void write_dec(uint64_t v, uint64_t adv = 0) {
        m_top.wr_dec = 1;
        m_top.dec_wdata = v;
        advance(adv);
    }
    void write_hdec(uint64_t v, uint64_t adv = 0) {
        m_top.wr_hdec = 1;
        m_top.hdec_wdata = v;
        advance(adv);
    }
    void ack() {
        m_top.hdec_ack = 1;
        cycle();
    }
    Vdecrementer_unit* operator->() { return &m_top; }

private:
    VerilatedContext m_ctx;
    Vdecrementer_unit m_top;
};

TEST(RtlModule, ResetValues) {
    unit u;
    EXPECT_EQ(u->dec_rd, 0x7FFFFFFFu);             // models/decrementer.h reset value
    EXPECT_EQ(u->hdec_rd, 0x007FFFFFFFFFFFFFull);  // HDEC max positive
    EXPECT_FALSE(u->dec_irq);
    EXPECT_FALSE(u->hdec_irq);
    EXPECT_EQ(u->dec_edge_ticks, 0x80000000ull);  // 0x7FFF_FFFF + 1 ticks to 0 -> -1
    EXPECT_EQ(u->hdec_edge_ticks, p2(55));
}

// §2.1: bits above the width are dropped on writes; reads are formatted per LD.
TEST(RtlModule, WritesWithBitsAboveTheWidth) {
    unit u;
    u.lpcr(false, true);
    u.write_dec(0xFFFFFFFF80000000ull);  // §8 vector 16: LD=0, upper 32 bits dropped
    EXPECT_EQ(u->dec_rd, 0x80000000ull);
    EXPECT_TRUE(u->dec_irq);
    EXPECT_EQ(u->dec_state, 0x80000000ull);  // LD=0 write clears bits 55:32
    u.lpcr(true, true);                      // vector 17: positive in 56 bits, level drops
    EXPECT_EQ(u->dec_rd, 0x80000000ull);
    EXPECT_FALSE(u->dec_irq);
    u.write_dec(0xFF00000000000005ull);  // LD=1: bits 63:56 dropped
    EXPECT_EQ(u->dec_rd, 5u);
    u.write_dec(0x00FFFFFFFFFFFFFFull);  // §8 vector 15: bit 55 set reads all ones
    EXPECT_EQ(u->dec_rd, ~0ull);
    u.write_dec(0x007FFFFFFFFFFFFFull);
    EXPECT_EQ(u->dec_rd, 0x007FFFFFFFFFFFFFull);
    EXPECT_FALSE(u->dec_irq);
    // HDEC: always 56 bits, sign-extended; bits 63:56 of the write are ignored.
    u.write_hdec(0x12ABCDEF01234567ull);
    EXPECT_EQ(u->hdec_rd, 0xFFABCDEF01234567ull);
    EXPECT_TRUE(u->hdec_irq);  // non-negative -> negative: edge
    u.ack();
    u.write_hdec(0xFF7FFFFF00000000ull);
    EXPECT_EQ(u->hdec_rd, 0x007FFFFF00000000ull);
    EXPECT_FALSE(u->hdec_irq);
}

// The most negative value of each width: pending, and one tick later wrapped to positive.
TEST(RtlModule, MostNegativeValue) {
    unit u;
    u.lpcr(false, true);
    u.write_dec(0x80000000ull);
    EXPECT_TRUE(u->dec_irq);
    EXPECT_EQ(u->dec_edge_ticks, 1u);
    u.advance(1);
    EXPECT_EQ(u->dec_rd, 0x7FFFFFFFull);
    EXPECT_FALSE(u->dec_irq);

    u.lpcr(true, true);
    u.write_dec(0x0080000000000000ull);  // §8 vector 14
    EXPECT_EQ(u->dec_rd, 0xFF80000000000000ull);
    EXPECT_TRUE(u->dec_irq);
    u.advance(1);
    EXPECT_EQ(u->dec_rd, 0x007FFFFFFFFFFFFFull);
    EXPECT_FALSE(u->dec_irq);

    u.write_hdec(0x0080000000000000ull);  // from positive: an edge
    EXPECT_EQ(u->hdec_rd, 0xFF80000000000000ull);
    EXPECT_TRUE(u->hdec_irq);
    EXPECT_EQ(u->hdec_edge_ticks, p2(55) + 1);  // wraps, then counts down to 0 -> -1
    u.advance(1);
    EXPECT_EQ(u->hdec_rd, 0x007FFFFFFFFFFFFFull);
    EXPECT_TRUE(u->hdec_irq);  // latched: not cancelled by the value turning positive
}

// §2.2: from -1 the level lasts exactly 2^(W-1) ticks, then the value wraps to positive.
TEST(RtlModule, WrapAfterExactlyHalfTheRange) {
    for (const bool ld : {false, true}) {
        SCOPED_TRACE(ld ? "LD=1 (W=56)" : "LD=0 (W=32)");
        const unsigned w = ld ? 56 : 32;
        unit u;
        u.lpcr(ld, false);
        u.write_dec(~0ull);
        EXPECT_TRUE(u->dec_irq);
        EXPECT_EQ(u->dec_edge_ticks, p2(w - 1));
        u.advance(p2(w - 1) - 1);  // the most negative value: still pending
        EXPECT_TRUE(u->dec_irq);
        EXPECT_EQ(u->dec_rd, ld ? 0xFF80000000000000ull : 0x80000000ull);
        EXPECT_EQ(u->dec_edge_ticks, 1u);
        u.advance(1);  // exactly 2^(W-1) ticks after -1
        EXPECT_FALSE(u->dec_irq);
        EXPECT_EQ(u->dec_rd, ld ? 0x007FFFFFFFFFFFFFull : 0x7FFFFFFFull);
        EXPECT_EQ(u->dec_edge_ticks, p2(w - 1));  // back down to 0 -> -1
    }
}

// The width strap: W = 32 (no large decrementer) and W = 64.
TEST(RtlModule, OtherWidths) {
    {
        SCOPED_TRACE("W=32");
        unit u(32);
        EXPECT_EQ(u->hdec_rd, 0x7FFFFFFFull);  // HDEC reset: 2^(W-1)-1
        u.lpcr(true, true);
        u.write_dec(0x1FFFFFFFFull);  // bit 32 dropped; LD=1 sign-extends from bit 31
        EXPECT_EQ(u->dec_rd, ~0ull);
        EXPECT_TRUE(u->dec_irq);
        u.write_hdec(0x80000000ull);
        EXPECT_EQ(u->hdec_rd, 0xFFFFFFFF80000000ull);
        EXPECT_TRUE(u->hdec_irq);
        u.ack();
        u.write_hdec(~0ull);
        EXPECT_EQ(u->hdec_edge_ticks, p2(32));  // from -1: wrap, then 0 -> -1 after 2^32
        u.advance(p2(31));                      // wrapped to positive exactly 2^31 ticks after -1
        EXPECT_EQ(u->hdec_rd, 0x7FFFFFFFull);
        EXPECT_FALSE(u->hdec_irq);
    }
    {
        SCOPED_TRACE("W=64");
        unit u(64);
        EXPECT_EQ(u->hdec_rd, 0x7FFFFFFFFFFFFFFFull);
        u.lpcr(true, true);
        u.write_dec(0x8000000000000000ull);  // the most negative 64-bit value
        EXPECT_EQ(u->dec_rd, 0x8000000000000000ull);
        EXPECT_TRUE(u->dec_irq);
        EXPECT_EQ(u->dec_edge_ticks, 1u);
        u.advance(1);
        EXPECT_EQ(u->dec_rd, 0x7FFFFFFFFFFFFFFFull);
        EXPECT_FALSE(u->dec_irq);
        u.write_dec(~0ull);
        EXPECT_EQ(u->dec_edge_ticks, p2(63));
        u.advance(p2(63));
        EXPECT_FALSE(u->dec_irq);
        u.write_hdec(~0ull);
        EXPECT_TRUE(u->hdec_irq);
        EXPECT_EQ(u->hdec_edge_ticks, ~0ull);  // 2^64 saturates: "never"
        u.ack();
        u.advance(~0ull);  // 2^64 - 1 ticks: down to 0, no crossing
        EXPECT_EQ(u->hdec_rd, 0u);
        EXPECT_FALSE(u->hdec_irq);
        u.advance(1);
        EXPECT_TRUE(u->hdec_irq);
    }
}

// One advance that crosses two DEC edges: the level is the state at the end.
TEST(RtlModule, AdvanceCrossingTwoDecEdges) {
    unit u;
    u.lpcr(false, false);
    u.write_dec(0);
    EXPECT_EQ(u->dec_edge_ticks, 1u);
    u.advance(p2(31) + 1);  // assert after 1 tick, deassert (wrap) after 2^31 + 1
    EXPECT_FALSE(u->dec_irq);
    EXPECT_EQ(u->dec_rd, 0x7FFFFFFFull);
    u.write_dec(0);
    u.advance(p2(31));  // assert crossed, deassert one tick ahead
    EXPECT_TRUE(u->dec_irq);
    EXPECT_EQ(u->dec_rd, 0x80000000ull);
    // Three edges (assert, deassert, assert): pending at the end.
    u.write_dec(5);
    u.advance(6 + p2(31) + p2(31));
    EXPECT_TRUE(u->dec_irq);
    EXPECT_EQ(u->dec_rd, 0xFFFFFFFFull);
}

// One advance that crosses two HDEC 0 -> -1 edges latches once; a wrap to positive followed
// by a crossing within one advance latches; HDICE=0 drops the crossing.
TEST(RtlModule, AdvanceCrossingTwoHdecEdges) {
    unit u;
    u.lpcr(true, true);
    u.write_hdec(0);
    EXPECT_FALSE(u->hdec_irq);
    u.advance(p2(56) + 1);  // crossings at tick 1 and tick 2^56 + 1
    EXPECT_TRUE(u->hdec_irq);
    EXPECT_EQ(u->hdec_rd, ~0ull);
    u.ack();
    EXPECT_FALSE(u->hdec_irq);
    // From -1 (consumed): wrap to positive after 2^55, next crossing after 2^56.
    EXPECT_EQ(u->hdec_edge_ticks, p2(56));
    u.advance(p2(56) - 1);  // wrapped to positive and counted down to 0: no crossing yet
    EXPECT_FALSE(u->hdec_irq);
    EXPECT_EQ(u->hdec_rd, 0u);
    u.advance(1);
    EXPECT_TRUE(u->hdec_irq);
    u.ack();
    // HDICE=0: the crossing is dropped, and enabling later does not resurrect it (vector 23).
    u.lpcr(true, false);
    u.write_hdec(3);
    u.advance(10);
    EXPECT_FALSE(u->hdec_irq);
    u.lpcr(true, true);
    EXPECT_FALSE(u->hdec_irq);
    // Crossing on the very last tick of an advance counts.
    u.write_hdec(9);
    u.advance(10);
    EXPECT_TRUE(u->hdec_irq);
    u.ack();
    u.write_hdec(9);
    u.advance(9);
    EXPECT_FALSE(u->hdec_irq);
    EXPECT_EQ(u->hdec_rd, 0u);
}

// §7.2: a register write wins over a simultaneous tick.
TEST(RtlModule, WriteWinsOverSimultaneousTick) {
    unit u;
    u.lpcr(true, true);
    u.write_dec(10);
    u.write_dec(100, 1);  // the tick and the write in one clock: 100, not 99
    EXPECT_EQ(u->dec_rd, 100u);
    u.write_dec(100, 7);  // 6 ticks then the write replaces the 7th
    EXPECT_EQ(u->dec_rd, 100u);
    // HDEC: crossing within the first N-1 ticks latches.
    u.write_hdec(2);
    u.write_hdec(7, 5);  // ticks 1..4 cross 0 -> -1 at tick 3
    EXPECT_TRUE(u->hdec_irq);
    EXPECT_EQ(u->hdec_rd, 7u);
    u.ack();
    // The crossing that the replaced tick would have made is lost.
    u.write_hdec(3);
    u.write_hdec(7, 4);  // ticks 1..3 reach 0; the 4th (0 -> -1) is replaced by the write
    EXPECT_FALSE(u->hdec_irq);
    EXPECT_EQ(u->hdec_rd, 7u);
    // ... unless the write itself is negative: old value 0 (after 3 ticks), new -1: an edge.
    u.write_hdec(3);
    u.write_hdec(~0ull, 4);
    EXPECT_TRUE(u->hdec_irq);
    // The other register still sees every tick.
    u.write_dec(50);
    u.write_hdec(20, 10);
    EXPECT_EQ(u->dec_rd, 40u);
}

// §3: negative -> negative write is no edge; set wins over a simultaneous acknowledge;
// pm_enter discards the latch.
TEST(RtlModule, HdecLatchRules) {
    unit u;
    u.lpcr(true, true);
    u.write_hdec(~0ull);
    EXPECT_TRUE(u->hdec_irq);
    u.ack();
    u.write_hdec(~0ull - 4);  // -5 -> -5 ... negative to negative: no edge (vector 20)
    EXPECT_FALSE(u->hdec_irq);
    u.write_hdec(0x7FFF);  // positive write does not cancel, and does not set
    EXPECT_FALSE(u->hdec_irq);
    u.write_hdec(0);
    u->hdec_ack = 1;  // ack and a crossing in one clock: the new edge stays latched
    u.advance(1);
    EXPECT_TRUE(u->hdec_irq);
    u->pm_enter = 1;
    u.cycle();
    EXPECT_FALSE(u->hdec_irq);
    // HDICE cleared with a latch set: the latch stays (delivery is gated elsewhere, §4.1).
    u.write_hdec(0);
    u.advance(1);
    EXPECT_TRUE(u->hdec_irq);
    u.lpcr(true, false);
    EXPECT_TRUE(u->hdec_irq);
}

// next_edge_ticks: the nearest edge that can change an output.
TEST(RtlModule, NextEdgeOutputs) {
    unit u;
    u.lpcr(true, false);
    u.write_dec(1000);
    u.write_hdec(10);
    EXPECT_EQ(u->dec_edge_ticks, 1001u);
    EXPECT_EQ(u->hdec_edge_ticks, 11u);
    EXPECT_EQ(u->next_edge_ticks, 1001u);  // HDICE=0: the HDEC edge changes nothing
    u.lpcr(true, true);
    EXPECT_EQ(u->next_edge_ticks, 11u);
    u.advance(11);
    EXPECT_TRUE(u->hdec_irq);
    EXPECT_EQ(u->next_edge_ticks, 990u);  // latched: only the DEC edge matters
    u.write_dec(~0ull);                   // negative: deassert 2^55 ticks away
    EXPECT_EQ(u->dec_edge_ticks, p2(55));
    EXPECT_EQ(u->hdec_edge_ticks, p2(56));
    u.lpcr(false, true);  // LD=0: the low 32 bits are all ones: 2^31 ticks to the wrap
    EXPECT_EQ(u->dec_edge_ticks, p2(31));
    EXPECT_EQ(u->hdec_state, m56);
}

}  // namespace
