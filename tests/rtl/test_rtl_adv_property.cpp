// Property test of the bulk time step of rtl/decrementer_unit.v (docs/rtl-decrementer.md,
// "Bulk time steps"): one clock with adv=N leaves every output exactly as N clocks with adv=1
// do. A write or pm_enter in the bulk clock stands for the last of the N clocks (a write
// replaces the last tick, §7.2), an hdec_ack for the first (set wins over ack, §3). Random widths
// 32..64, LD, HDICE, latch state and register values, biased so that many advances cross the
// 0 -> -1 boundary or the wrap from the most negative value to positive. Fixed seed.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "Vdecrementer_unit.h"
#include "verilated.h"
#pragma GCC diagnostic pop

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <sstream>
#include <string>

namespace {

constexpr uint64_t seed = 20261203;
constexpr int cases = 6000;
constexpr uint64_t max_single_steps = 1u << 12;  // N for the clock-by-clock side

// One random starting state and step.
struct scenario {
    unsigned bits = 56;
    bool ld = true, hdice = true, latched = false;
    uint64_t dec = 0, hdec = 0, n = 0;
    bool wr_dec = false, wr_hdec = false, ack = false, pm_enter = false;
    uint64_t dec_wdata = 0, hdec_wdata = 0;

    std::string str() const {
        std::ostringstream o;
        o << std::hex << "W=" << std::dec << bits << " LD=" << ld << " HDICE=" << hdice
          << " latched=" << latched << std::hex << " DEC=0x" << dec << " HDEC=0x" << hdec
          << std::dec << " N=" << n;
        if (wr_dec) o << std::hex << " wr_dec=0x" << dec_wdata << std::dec;
        if (wr_hdec) o << std::hex << " wr_hdec=0x" << hdec_wdata << std::dec;
        if (ack) o << " hdec_ack";
        if (pm_enter) o << " pm_enter";
        return o.str();
    }
};

// Every output port of the unit.
struct outputs {
    uint64_t dec_rd, hdec_rd, dec_edge, hdec_edge, next_edge, dec_state, hdec_state;
    bool dec_irq, hdec_irq;
};

// The first output that differs, "" if none.
std::string first_difference(const outputs& a, const outputs& b) {
    std::ostringstream o;
    o << std::hex;
    auto cmp = [&](const char* name, uint64_t x, uint64_t y) {
        if (x != y && o.tellp() == 0) o << name << ": bulk=0x" << x << " single=0x" << y;
    };
    cmp("dec_rd", a.dec_rd, b.dec_rd);
    cmp("hdec_rd", a.hdec_rd, b.hdec_rd);
    cmp("dec_irq", a.dec_irq, b.dec_irq);
    cmp("hdec_irq", a.hdec_irq, b.hdec_irq);
    cmp("dec_edge_ticks", a.dec_edge, b.dec_edge);
    cmp("hdec_edge_ticks", a.hdec_edge, b.hdec_edge);
    cmp("next_edge_ticks", a.next_edge, b.next_edge);
    cmp("dec_state", a.dec_state, b.dec_state);
    cmp("hdec_state", a.hdec_state, b.hdec_state);
    return o.str();
}

// One unit driven clock by clock, as test_rtl_module.cpp does.
class unit {
public:
    unit() : m_top(&m_ctx, "dut") {}
    ~unit() { m_top.final(); }

    // Reset with HDICE=1; a write of -1 latches an edge if wanted; then the registers are
    // loaded with HDICE=0 (no edge, the latch kept) and the LPCR bits set as asked.
    void load(const scenario& s) {
        m_top.dec_bits = static_cast<uint8_t>(s.bits);
        m_top.lpcr_ld = s.ld;
        m_top.lpcr_hdice = 1;
        m_top.rst = 1;
        clock();
        if (s.latched) {
            m_top.wr_hdec = 1;
            m_top.hdec_wdata = ~0ull;
            clock();
        }
        m_top.lpcr_hdice = 0;
        m_top.wr_dec = 1;
        m_top.dec_wdata = s.dec;
        m_top.wr_hdec = 1;
        m_top.hdec_wdata = s.hdec;
        clock();
        m_top.lpcr_hdice = s.hdice;
        clock();
    }

    // One clock with the strobes of `s` and the given advance.
    void step(const scenario& s, uint64_t adv, bool first, bool last) {
        m_top.adv = adv;
        m_top.hdec_ack = first && s.ack;
        m_top.wr_dec = last && s.wr_dec;
        m_top.dec_wdata = s.dec_wdata;
        m_top.wr_hdec = last && s.wr_hdec;
        m_top.hdec_wdata = s.hdec_wdata;
        m_top.pm_enter = last && s.pm_enter;
        clock();
    }
    outputs read() const {
        return {m_top.dec_rd,          m_top.hdec_rd,         m_top.dec_edge_ticks,
                m_top.hdec_edge_ticks, m_top.next_edge_ticks, m_top.dec_state,
                m_top.hdec_state,      m_top.dec_irq != 0,    m_top.hdec_irq != 0};
    }

private:
    void clock() {
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

    VerilatedContext m_ctx;
    Vdecrementer_unit m_top;
};

class generator {
public:
    uint64_t pick(uint64_t n) { return m_rng() % n; }
    bool one_in(unsigned n) { return pick(n) == 0; }

    // A value near the places where things happen in a W-bit counter of active width `a`.
    uint64_t value(unsigned w, unsigned a) {
        const uint64_t msb = 1ull << (a - 1);
        const uint64_t k = pick(max_single_steps + 8);
        switch (pick(6)) {
            case 0:
                return k;  // reaches 0 -> -1 after k+1 ticks
            case 1:
                return msb + k;  // the most negative value + k: wraps
            case 2:
                return msb - 1 - pick(4);  // the most positive values
            case 3:
                return ~0ull - pick(8);  // small negative
            case 4:
                return m_rng() | (w < 64 ? 1ull << w : 0);  // bits above W too
            default:
                return m_rng();
        }
    }
    unsigned width() {
        static constexpr unsigned common[] = {32, 56, 64};
        return one_in(2) ? common[pick(3)] : 32 + static_cast<unsigned>(pick(33));
    }

    scenario next() {
        scenario s;
        s.bits = width();
        s.ld = !one_in(3);
        s.hdice = !one_in(4);
        s.latched = one_in(4);
        s.dec = value(s.bits, s.ld ? s.bits : 32);
        s.hdec = value(s.bits, s.bits);
        s.wr_dec = one_in(8);
        s.wr_hdec = one_in(8);
        s.ack = one_in(6);
        s.pm_enter = one_in(16);
        s.dec_wdata = value(s.bits, s.ld ? s.bits : 32);
        s.hdec_wdata = value(s.bits, s.bits);
        return s;
    }

    // N: tiny, uniform up to the single-step limit, or around a reported edge.
    uint64_t steps(const outputs& o) {
        switch (pick(5)) {
            case 0:
                return pick(4);
            case 1:
                return pick(max_single_steps + 1);
            default: {
                const uint64_t e = one_in(2) ? o.dec_edge : o.hdec_edge;
                if (e > max_single_steps) return pick(max_single_steps + 1);
                return e - 1 + pick(3);  // one before the edge, at it, one after
            }
        }
    }

private:
    std::mt19937_64 m_rng{seed};
};

// What the advances did, so that the test can show it was not vacuous.
struct tally {
    int dec_assert = 0, dec_wrap = 0, hdec_crossing = 0, hdec_wrap = 0;
    void add(const outputs& before, const outputs& after, uint64_t n, bool wrote) {
        if (n == 0 || wrote) return;
        if (!before.dec_irq && n >= before.dec_edge) ++dec_assert;
        if (before.dec_irq && n >= before.dec_edge) ++dec_wrap;
        if (n >= before.hdec_edge) ++hdec_crossing;
        if ((before.hdec_rd >> 63) && !(after.hdec_rd >> 63)) ++hdec_wrap;
    }
};

TEST(RtlAdvProperty, OneClockOfNEqualsNClocksOfOne) {
    generator g;
    tally t;
    unit bulk, single;
    for (int c = 0; c < cases; ++c) {
        scenario s = g.next();
        bulk.load(s);
        single.load(s);
        const outputs before = bulk.read();
        ASSERT_EQ(first_difference(before, single.read()), "") << "set-up, case " << c;
        s.n = g.steps(before);
        bulk.step(s, s.n, true, true);
        const uint64_t clocks = s.n ? s.n : 1;  // strobes need one clock even for N = 0
        for (uint64_t i = 0; i < clocks; ++i) single.step(s, s.n ? 1 : 0, i == 0, i + 1 == clocks);
        const outputs after = bulk.read();
        const std::string diff = first_difference(after, single.read());
        ASSERT_EQ(diff, "") << "case " << c << " (seed " << seed << "): " << s.str();
        t.add(before, after, s.n, s.wr_dec || s.wr_hdec);
    }
    // The stream must have exercised the edges, or equality would prove little.
    EXPECT_GT(t.dec_assert, cases / 40);
    EXPECT_GT(t.dec_wrap, cases / 40);
    EXPECT_GT(t.hdec_crossing, cases / 40);
    EXPECT_GT(t.hdec_wrap, cases / 40);
}

// The same law for advances far beyond what clock-by-clock can reach (up to 2^64-1, so two HDEC
// crossings and full wraps in one step): adv=N equals adv=a followed by adv=N-a, for splits at,
// before and after the edges.
TEST(RtlAdvProperty, OneClockOfNEqualsTwoClocksSplittingIt) {
    generator g;
    std::mt19937_64 rng(seed + 1);
    unit bulk, split;
    int double_crossings = 0;
    for (int c = 0; c < cases; ++c) {
        scenario s = g.next();
        s.wr_dec = s.wr_hdec = s.ack = s.pm_enter = false;
        bulk.load(s);
        split.load(s);
        const outputs before = bulk.read();
        const unsigned k = static_cast<unsigned>(rng() % 4);
        // N: any 64-bit value, log-uniform, or around the first HDEC crossing (k = 2) or the
        // second one 2^W ticks later (k = 3).
        const uint64_t period = k == 3 && s.bits < 64 ? 1ull << s.bits : 0;
        s.n = k == 0   ? rng()
              : k == 1 ? rng() >> (rng() % 64)
                       : before.hdec_edge + period - 1 + rng() % 3;
        uint64_t a = rng() % 3 == 0 ? before.dec_edge : rng() % 2 ? before.hdec_edge : rng();
        if (s.n != ~0ull) a %= s.n + 1;  // 0 <= a <= N
        bulk.step(s, s.n, true, true);
        split.step(s, a, true, false);
        split.step(s, s.n - a, false, true);
        const std::string diff = first_difference(bulk.read(), split.read());
        ASSERT_EQ(diff, "") << "case " << c << " (seed " << seed << "), split after " << a << ": "
                            << s.str();
        if (s.bits < 64 && s.n > before.hdec_edge + (1ull << s.bits)) ++double_crossings;
    }
    EXPECT_GT(double_crossings, cases / 10);
}

}  // namespace
