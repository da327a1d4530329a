// Unit tests for TB arithmetic (timer-facilities.md §1, §8 vectors 1-6): the pure TBL/TBU/TBU40
// and offset functions, the KVM TBU40 apply sequence against a fake clock, time_base
// conversions (ns -> TB rounds down, TB -> time rounds up) and tb_register offsets.
#include <gtest/gtest.h>

#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "models/local_time.h"
#include "models/tb_register.h"
#include "models/time_base.h"
#include "sc_test_guard.h"

namespace nestvp {
namespace {

TEST(TbArith, TblWriteReplacesLowHalf) {  // vector 3
    EXPECT_EQ(tb_with_tbl(0x123456789ABCDEF0ull, 0x11), 0x1234567800000011ull);
    EXPECT_EQ(tb_with_tbl(0x123456789ABCDEF0ull, 0xFFFFFFFF00000022ull), 0x1234567800000022ull);
}

TEST(TbArith, TbuWriteReplacesHighHalf) {
    EXPECT_EQ(tb_with_tbu(0x123456789ABCDEF0ull, 0xCAFE), 0x0000CAFE9ABCDEF0ull);
    EXPECT_EQ(tb_with_tbu(0, 0xFFFFFFFFull), 0xFFFFFFFF00000000ull);
}

TEST(TbArith, Tbu40KeepsLow24) {  // vector 4
    EXPECT_EQ(tb_with_tbu40(0x0000123456ABCDEFull, 0xAAAABBBBCC123456ull), 0xAAAABBBBCCABCDEFull);
    EXPECT_EQ(tb_with_tbu40(0xFFFFFFull, 0), 0xFFFFFFull);
}

TEST(TbArith, CarryFromTblToTbu) {  // vector 2 as arithmetic on the 64-bit value
    const uint64_t tb = 0x00000001FFFFFFFFull;
    EXPECT_EQ(tb + 1, 0x0000000200000000ull);
    EXPECT_EQ((tb + 1) >> 32, 2u);
}

TEST(TbArith, OffsetRoundsUpTo2Pow24) {  // vector 5
    EXPECT_EQ(round_tb_offset(0x01000001), 0x02000000u);
    EXPECT_EQ(round_tb_offset(0x01000000), 0x01000000u);
    EXPECT_EQ(round_tb_offset(0), 0u);
    EXPECT_EQ(round_tb_offset(1), 0x01000000u);
    // A negative offset (two's complement) rounds towards zero magnitude, like KVM's u64 math.
    EXPECT_EQ(round_tb_offset(0xFFFFFFFFFF000001ull), 0xFFFFFFFFFF000000ull + 0x01000000ull);
}

// A TB that the test advances by hand, with TBU40 writes applied like the hardware.
struct fake_tb {
    uint64_t host = 0;    // host ticks
    uint64_t offset = 0;  // what the partition register adds
    std::vector<uint64_t> writes;
    uint64_t elapse_before_first_write = 0;

    uint64_t read() const { return host + offset; }
    void tbu40(uint64_t v) {
        if (writes.empty()) host += elapse_before_first_write;
        writes.push_back(v);
        offset = tb_with_tbu40(read(), v) - host;
    }
};

// The hot path converts time values to seconds inline; it must give SystemC's double exactly.
TEST(TbArith, InlineSecondsEqualSystemC) {
    const double res = local_time::resolution_fs();
    for (sc_dt::uint64 v : {0ull, 1ull, 3ull, 999ull, 123456789ull, 1000000000007ull,
                            (1ull << 53) + 1, (1ull << 63) + 5, ~0ull}) {
        const double want = sc_core::sc_time::from_value(v).to_seconds();
        EXPECT_EQ(local_time::seconds_of(v, res), want) << v;
    }
}

TEST(TbArith, ApplyOffsetWithLow24Wrap) {  // vector 6
    fake_tb t;
    t.host = 0xFFFFF0;
    t.elapse_before_first_write = 0x20;
    const uint64_t last = apply_tb_offset_tbu40(
        t.read(), 0x01000000, [&] { return t.read(); }, [&](uint64_t v) { t.tbu40(v); });
    ASSERT_EQ(t.writes.size(), 2u);
    EXPECT_EQ(t.writes[0], 0x01FFFFF0u);
    EXPECT_EQ(last, 0x02FFFFF0u);
    EXPECT_EQ(t.read() - t.host, 0x01000000u);
}

TEST(TbArith, ApplyOffsetWithoutWrapWritesOnce) {
    fake_tb t;
    t.host = 0x123400;
    t.elapse_before_first_write = 0x20;
    apply_tb_offset_tbu40(
        t.read(), 0x05000000, [&] { return t.read(); }, [&](uint64_t v) { t.tbu40(v); });
    EXPECT_EQ(t.writes.size(), 1u);
    EXPECT_EQ(t.read() - t.host, 0x05000000u);
}

TEST(TbArith, RemoveOffsetOnExit) {  // exit applies -offset with the same fix-up
    fake_tb t;
    t.host = 0x7FFFFF8;
    t.offset = 0x03000000;
    t.elapse_before_first_write = 0x10;  // low 24 bits wrap before the write
    apply_tb_offset_tbu40(
        t.read(), 0 - 0x03000000ull, [&] { return t.read(); }, [&](uint64_t v) { t.tbu40(v); });
    EXPECT_EQ(t.writes.size(), 2u);
    EXPECT_EQ(t.read(), t.host);
}

TEST(TbArith, TimeBaseRounding) {
    NESTVP_SC_TEST_GUARD();
    time_base tb("tb");  // 512 MHz: 1 tick = 1.953125 ns
    EXPECT_EQ(tb.ticks_at(sc_core::sc_time(1, sc_core::SC_NS)), 0u);  // rounds down
    EXPECT_EQ(tb.ticks_at(sc_core::sc_time(1953, sc_core::SC_PS)), 0u);
    EXPECT_EQ(tb.ticks_at(sc_core::sc_time(1954, sc_core::SC_PS)), 1u);
    EXPECT_EQ(tb.time_of(1), sc_core::sc_time(1954, sc_core::SC_PS));  // rounds up
    EXPECT_EQ(tb.time_of(512), sc_core::sc_time(1, sc_core::SC_US));
    EXPECT_EQ(tb.ticks_at(sc_core::sc_time(1, sc_core::SC_SEC)), 512000000u);
    for (uint64_t t : {1ull, 6ull, 1000003ull, 1ull << 40})
        EXPECT_EQ(tb.ticks_at(tb.time_of(t)), t) << t;
    EXPECT_EQ(tb.time_of(1ull << 55), sc_core::sc_max_time());  // beyond sc_time: "never"
}

// The conversions reduce freq / resolution to lowest terms and use 64-bit arithmetic while the
// product fits: they must equal the plain 128-bit formulas everywhere, across that boundary too.
TEST(TbArith, TimeBaseReducedArithmeticEqualsWide) {
    NESTVP_SC_TEST_GUARD();
    using u128 = unsigned __int128;
    const uint64_t units = 1000000000000ull;  // ps resolution (SystemC default)
    std::mt19937_64 rng(7);
    unsigned n = 0;
    for (uint64_t f : {512000000ull, 1000000000ull, 999999937ull, 3ull, 12345678911ull}) {
        time_base tb(("tb" + std::to_string(n++)).c_str(), f);
        const uint64_t g = std::gcd(f, units), fr = f / g, ur = units / g;
        std::vector<uint64_t> vs = {0,
                                    1,
                                    2,
                                    UINT64_MAX,
                                    UINT64_MAX / fr,
                                    UINT64_MAX / fr + 1,
                                    UINT64_MAX / ur,
                                    UINT64_MAX / ur + 1};
        for (int i = 0; i < 2000; ++i) vs.push_back(rng() >> (rng() % 64));
        for (uint64_t v : vs) {
            const auto wide_ticks = static_cast<uint64_t>((static_cast<u128>(v) * f) / units);
            ASSERT_EQ(tb.ticks_at_value(v), wide_ticks) << "f=" << f << " v=" << v;
            const u128 wide_units = (static_cast<u128>(v) * units + f - 1) / f;
            const sc_core::sc_time expect =
                wide_units > static_cast<u128>(sc_core::sc_max_time().value())
                    ? sc_core::sc_max_time()
                    : sc_core::sc_time::from_value(static_cast<sc_dt::uint64>(wide_units));
            ASSERT_EQ(tb.time_of(v), expect) << "f=" << f << " tick=" << v;
            ASSERT_EQ(tb.duration_of(v), expect) << "f=" << f << " ticks=" << v;
        }
    }
}

TEST(TbArith, TbRegisterWritesChangeOffsetOnly) {
    NESTVP_SC_TEST_GUARD();
    time_base tb("tb");
    tb_register r(tb);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));  // 512 ticks
    ASSERT_EQ(tb.ticks(), 512u);
    EXPECT_EQ(r.read(), 512u);
    r.write_tbu(0x12345678);
    r.write_tbl(0x9ABCDEF0);
    EXPECT_EQ(r.read(), 0x123456789ABCDEF0ull);
    EXPECT_EQ(tb.ticks(), 512u);  // host ticks untouched
    EXPECT_EQ(r.offset(), 0x123456789ABCDEF0ull - 512);
    EXPECT_EQ(r.read_tbu(), 0x12345678u);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
    EXPECT_EQ(r.read(), 0x123456789ABCDEF0ull + 512);
    r.write_tbu40(0xAAAABBBBCC123456ull);
    EXPECT_EQ(r.read(), 0xAAAABBBBCC000000ull | ((0x9ABCDEF0ull + 512) & 0xFFFFFF));
    EXPECT_EQ(r.to_host(r.read()), tb.ticks());
}

TEST(TbArith, TbRegisterApplyOffset) {
    NESTVP_SC_TEST_GUARD();
    time_base tb("tb");
    tb_register r(tb);
    sc_core::sc_start(sc_core::sc_time(5, sc_core::SC_MS));
    r.apply_offset(round_tb_offset(0x01000001));
    EXPECT_EQ(r.offset(), 0x02000000u);
    r.apply_offset(0 - 0x02000000ull);
    EXPECT_EQ(r.offset(), 0u);
}

}  // namespace
}  // namespace nestvp
