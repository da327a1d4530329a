// Seeded, reproducible differential test: the native (tlm) unit against the RTL unit over
// >= 100,000 random operations (writes of any value, reads, LD and HDICE toggles, advances of
// 0..2^40 ticks, acknowledges). Every read and every pending line is compared after each
// operation, and the interrupt lines are compared whenever either unit reports a change
// (so an edge at a different tick is a mismatch). The seed is printed on failure;
// NESTVP_SEED=<n> reruns one.
#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <functional>
#include <memory>
#include <random>
#include <sstream>
#include <string>

#include "models/native_timer_unit.h"
#include "models/rtl_timer_unit.h"
#include "models/time_base.h"
#include "models/timer_unit_factory.h"
#include "sc_test_guard.h"

namespace nestvp::test {
namespace {

constexpr uint64_t default_seed = 20261202;
constexpr int operations = 100000;

uint64_t seed_from_env() {
    const char* s = std::getenv("NESTVP_SEED");
    return s ? std::strtoull(s, nullptr, 0) : default_seed;
}

// Compares the pending lines of two units whenever either reports a change.
class line_monitor : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(line_monitor);
    line_monitor(const sc_core::sc_module_name& n, time_base& tb, timer_unit_if& a,
                 timer_unit_if& b)
        : sc_core::sc_module(n), m_tb(tb), m_a(a), m_b(b) {
        SC_METHOD(check);
        sensitive << a.pending_changed_event() << b.pending_changed_event();
        dont_initialize();
    }
    std::string mismatch;  // the first one
    uint64_t checks = 0;

private:
    void check() {
        ++checks;
        const bool ad = m_a.dec_pending(), bd = m_b.dec_pending();
        const bool ah = m_a.hdec_pending(), bh = m_b.hdec_pending();
        if (mismatch.empty() && (ad != bd || ah != bh)) {
            std::ostringstream o;
            o << "interrupt lines differ at tick " << m_tb.ticks() << ": tlm dec=" << ad
              << " hdec=" << ah << ", rtl dec=" << bd << " hdec=" << bh;
            mismatch = o.str();
        }
    }
    time_base& m_tb;
    timer_unit_if& m_a;
    timer_unit_if& m_b;
};

// The random operation stream, shared by both tests.
class stimulus {
public:
    explicit stimulus(uint64_t seed) : m_rng(seed) {}

    uint64_t value() {
        static constexpr std::array<uint64_t, 16> special = {0,
                                                             1,
                                                             2,
                                                             ~0ull,
                                                             ~0ull - 1,
                                                             0x7FFFFFFF,
                                                             0x80000000,
                                                             0x80000001,
                                                             0xFFFFFFFF,
                                                             0x100000000,
                                                             0x007FFFFFFFFFFFFF,
                                                             0x0080000000000000,
                                                             0x00FFFFFFFFFFFFFF,
                                                             0x8000000000000000,
                                                             0xFFFFFFFF80000000,
                                                             0x7FFFFFFFFFFFFFFF};
        const unsigned k = pick(4);
        if (k == 0) return special[pick(special.size())];
        if (k == 1) return static_cast<uint64_t>(static_cast<int64_t>(pick(201)) - 100);
        return m_rng();
    }
    // 0..2^40 ticks: small, log-uniform, or exactly around the next edge of either unit.
    uint64_t advance(uint64_t now, native_timer_unit& ref) {
        const unsigned k = pick(10);
        if (k < 3) return pick(17);
        if (k < 5) {
            const uint64_t e = pick(2) ? ref.dec().next_edge_tick() : ref.hdec().next_edge_tick();
            if (e != time_base::never && e > now && e - now < (1ull << 40))
                return e - now - 1 + pick(3);  // one before, at, one after
            return pick(17);
        }
        const unsigned bits = pick(41);
        return bits == 0 ? 0 : ((1ull << (bits - 1)) | (m_rng() & ((1ull << (bits - 1)) - 1)));
    }
    unsigned pick(size_t n) { return static_cast<unsigned>(m_rng() % n); }

private:
    std::mt19937_64 m_rng;
};

std::string hexs(uint64_t v) {
    std::ostringstream o;
    o << "0x" << std::hex << v;
    return o.str();
}

// Runs the stream against `a` (the reference) and `b`; returns the first failure or "".
// `ref` is the native unit that `a` is or contains (used to aim advances at edges).
std::string run(uint64_t seed, time_base& tb, timer_unit_if& a, timer_unit_if& b,
                native_timer_unit& ref, const std::function<std::string()>& extra_failure) {
    stimulus s(seed);
    std::array<std::string, 16> last;
    size_t n = 0;
    auto fail = [&](const std::string& what) {
        std::ostringstream o;
        o << "seed " << seed << " (rerun: NESTVP_SEED=" << seed << "), operation " << n
          << " at tick " << tb.ticks() << ": " << what << "\nlast operations:\n";
        for (size_t i = n > last.size() ? n - last.size() : 0; i < n; ++i)
            o << "  " << last[i % last.size()] << "\n";
        return o.str();
    };
    uint64_t total_ticks = 0;
    for (n = 0; n < static_cast<size_t>(operations);) {
        std::string op;
        const unsigned k = s.pick(100);
        if (k < 15) {
            const uint64_t v = s.value();
            op = "write_dec " + hexs(v);
            a.write_dec(v);
            b.write_dec(v);
        } else if (k < 25) {
            const uint64_t v = s.value();
            op = "write_hdec " + hexs(v);
            a.write_hdec(v);
            b.write_hdec(v);
        } else if (k < 40) {
            const uint64_t va = a.read_dec(), vb = b.read_dec();
            op = "read_dec -> " + hexs(va);
            if (va != vb) return fail(op + ": tlm " + hexs(va) + " rtl " + hexs(vb));
        } else if (k < 50) {
            const uint64_t va = a.read_hdec(), vb = b.read_hdec();
            op = "read_hdec -> " + hexs(va);
            if (va != vb) return fail(op + ": tlm " + hexs(va) + " rtl " + hexs(vb));
        } else if (k < 55) {
            const bool ld = s.pick(2), hdice = s.pick(2);
            op = std::string("set_lpcr LD=") + (ld ? "1" : "0") + " HDICE=" + (hdice ? "1" : "0");
            a.set_lpcr(ld, hdice);
            b.set_lpcr(ld, hdice);
        } else if (k < 60) {
            op = "ack_hdec";
            a.ack_hdec();
            b.ack_hdec();
        } else {
            uint64_t t = s.advance(tb.ticks(), ref);
            if (total_ticks + t > (1ull << 52)) t = s.pick(17);  // stay well inside sc_time
            total_ticks += t;
            op = "advance " + std::to_string(t);
            const sc_core::sc_time d = tb.time_of(tb.ticks() + t) - sc_core::sc_time_stamp();
            // A zero advance still runs the pending delta notifications, if there are any.
            if (d != sc_core::SC_ZERO_TIME || sc_core::sc_pending_activity_at_current_time())
                sc_core::sc_start(d);
        }
        last[n % last.size()] = "tick " + std::to_string(tb.ticks()) + ": " + op;
        ++n;
        const bool ad = a.dec_pending(), bd = b.dec_pending();
        const bool ah = a.hdec_pending(), bh = b.hdec_pending();
        if (ad != bd)
            return fail("dec_pending tlm " + std::to_string(ad) + " rtl " + std::to_string(bd));
        if (ah != bh)
            return fail("hdec_pending tlm " + std::to_string(ah) + " rtl " + std::to_string(bh));
        const std::string e = extra_failure();
        if (!e.empty()) return fail(e);
    }
    return "";
}

// Per implemented width: 56 (POWER9/10), 32 (no large decrementer) and 64.
class RtlDifferential : public ::testing::TestWithParam<unsigned> {};

TEST_P(RtlDifferential, NativeVsRtlRandomOperations) {
    NESTVP_SC_TEST_GUARD();
    const uint64_t seed = seed_from_env();
    const unsigned bits = GetParam();
    SCOPED_TRACE("dec_bits " + std::to_string(bits));
    time_base tb("tb");
    native_timer_unit tlm("tlm", tb, bits);
    rtl_timer_unit rtl("rtl", tb, bits);
    line_monitor mon("mon", tb, tlm, rtl);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    const std::string failure = run(seed, tb, tlm, rtl, tlm, [&mon] { return mon.mismatch; });
    EXPECT_EQ(failure, "") << "differential test failed with seed " << seed;
    EXPECT_GT(mon.checks, 1000u);  // the edges really were compared
    EXPECT_GT(rtl.ticks_skipped(), rtl.evaluations());
    std::printf(
        "seed %llu: %d operations, %llu line checks, %llu RTL evaluations, %.3g ticks "
        "skipped per evaluation\n",
        static_cast<unsigned long long>(seed), operations,
        static_cast<unsigned long long>(mon.checks),
        static_cast<unsigned long long>(rtl.evaluations()),
        static_cast<double>(rtl.ticks_skipped()) / rtl.evaluations());
}

// The same stream through the lockstep checker (factory "lockstep") against a second native
// unit: the checker must not report anything, and its answers must equal the native ones.
TEST_P(RtlDifferential, LockstepRandomOperations) {
    NESTVP_SC_TEST_GUARD();
    const uint64_t seed = seed_from_env() + 1;
    const unsigned bits = GetParam();
    time_base tb("tb");
    native_timer_unit tlm("tlm", tb, bits);
    timer_unit_options o;
    o.impl = "lockstep";
    o.dec_bits = bits;
    auto ls = make_timer_unit("ls", tb, o);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    std::string failure;
    try {
        failure = run(seed, tb, tlm, *ls, tlm, [] { return std::string(); });
    } catch (const std::exception& e) {
        failure = e.what();
    }
    EXPECT_EQ(failure, "") << "lockstep differential failed with seed " << seed;
}

INSTANTIATE_TEST_SUITE_P(Width, RtlDifferential, ::testing::Values(56u, 32u, 64u),
                         [](const auto& info) { return "W" + std::to_string(info.param); });

}  // namespace
}  // namespace nestvp::test
