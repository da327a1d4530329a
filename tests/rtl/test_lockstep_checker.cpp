// The lockstep checker itself (docs/lockstep-checker.md): fed a unit with a known fault, it must
// stop at the first mismatch and report the tick, the operation, both values and the last 16
// operations; fed two good units, it must stay silent.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>

#include "faulty_timer_unit.h"
#include "models/lockstep_timer_unit.h"
#include "models/native_timer_unit.h"
#include "models/rtl_timer_unit.h"
#include "models/time_base.h"
#include "models/timer_unit_factory.h"
#include "sc_test_guard.h"

namespace nestvp::test {
namespace {

using sc_core::sc_start;

std::unique_ptr<lockstep_timer_unit> make_checker(time_base& tb, fault f, unsigned nth = 1) {
    auto ref = [&tb](const char* n) -> std::unique_ptr<timer_unit_if> {
        return std::make_unique<native_timer_unit>(n, tb);
    };
    auto dut = [&tb, f, nth](const char* n) -> std::unique_ptr<timer_unit_if> {
        return std::make_unique<faulty_timer_unit>(n, tb, f, nth);
    };
    return std::make_unique<lockstep_timer_unit>("ls", tb, ref, dut, "tlm", "faulty");
}

// The platform's pair (timer_unit_factory): the native reference and the Verilated unit.
std::unique_ptr<timer_unit_if> make_native_rtl_checker(time_base& tb) {
    timer_unit_options o;
    o.impl = "lockstep";
    return make_timer_unit("ls", tb, o);
}

void advance(time_base& tb, uint64_t ticks) {
    sc_start(tb.time_of(tb.ticks() + ticks) - sc_core::sc_time_stamp());
}

size_t count(const std::string& s, const std::string& what) {
    size_t n = 0;
    for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
    return n;
}

// A corrupted read is caught at the read, with both values and a 16-deep history.
TEST(LockstepChecker, CatchesCorruptRead) {
    NESTVP_SC_TEST_GUARD();
    time_base tb("tb");
    auto ls = make_checker(tb, fault::corrupt_read, 20);
    sc_start(sc_core::SC_ZERO_TIME);
    ls->set_lpcr(false, true);
    ls->write_dec(0x1000);
    const uint64_t t0 = tb.ticks();
    for (int i = 0; i < 19; ++i) {
        advance(tb, 3);
        EXPECT_EQ(ls->read_dec(), 0x1000u - (tb.ticks() - t0));
    }
    advance(tb, 5);
    const uint64_t expect = 0x1000u - (tb.ticks() - t0);
    try {
        ls->read_dec();
        FAIL() << "the corrupted read was not caught";
    } catch (const lockstep_mismatch& e) {
        const std::string msg = e.what();
        std::printf("%s", msg.c_str());  // the report, as a user sees it
        EXPECT_EQ(e.tick(), tb.ticks());
        EXPECT_EQ(e.op(), "read_dec");
        EXPECT_EQ(e.ref_value(), expect);
        EXPECT_EQ(e.dut_value(), expect ^ 1);
        EXPECT_NE(msg.find("lockstep mismatch at tick " + std::to_string(tb.ticks())),
                  std::string::npos)
            << msg;
        EXPECT_NE(msg.find("read_dec: tlm=0x"), std::string::npos) << msg;
        EXPECT_NE(msg.find("faulty=0x"), std::string::npos) << msg;
        EXPECT_NE(msg.find("last 16 operations"), std::string::npos) << msg;
        EXPECT_EQ(count(msg, "\n  tick "), 16u) << msg;
        // The newest history entry is the failing read itself, with the reference result.
        char tail[64];
        std::snprintf(tail, sizeof tail, "read_dec() -> 0x%016llx\n",
                      static_cast<unsigned long long>(expect));
        EXPECT_NE(msg.rfind(tail), std::string::npos) << msg;
        EXPECT_TRUE(ls->failed());
    }
}

// A level that is not lowered on the wrap to positive (QEMU's deviation, §2.3) is caught at
// the deassert tick, inside the simulation: the run stops with the report.
TEST(LockstepChecker, CatchesMissingDeassertAtItsTick) {
    NESTVP_SC_TEST_GUARD();
    time_base tb("tb");
    auto ls = make_checker(tb, fault::sticky_level);
    sc_start(sc_core::SC_ZERO_TIME);
    ls->set_lpcr(false, false);
    ls->write_dec(0x80000001);  // negative: pending; wraps to positive 2 ticks later
    EXPECT_TRUE(ls->dec_pending());
    const uint64_t wrap = tb.ticks() + 2;
    // The mismatch is thrown from the checker's process: SystemC turns it into an error
    // report. Use the default handler here (it throws the report out of sc_start).
    sc_core::sc_report_handler::set_handler(sc_core::sc_report_handler::default_handler);
    try {
        advance(tb, 10);
        FAIL() << "the missing deassert was not caught";
    } catch (const sc_core::sc_report& r) {
        const std::string msg = r.what();
        std::printf("%s\n", msg.c_str());  // the report, as a user sees it
        EXPECT_NE(msg.find("lockstep mismatch at tick " + std::to_string(wrap)), std::string::npos)
            << msg;
        EXPECT_NE(msg.find("DEC interrupt line (assert/deassert tick): tlm=0x0000000000000000 "
                           "faulty=0x0000000000000001"),
                  std::string::npos)
            << msg;
        EXPECT_NE(msg.find("dec_irq deassert"), std::string::npos) << msg;
        EXPECT_NE(msg.find("write_dec(0x0000000080000001)"), std::string::npos) << msg;
    }
    EXPECT_TRUE(ls->failed());
}

// An edge one tick early (QEMU fires when the value reaches 0) is caught at the early tick.
TEST(LockstepChecker, CatchesEarlyEdge) {
    NESTVP_SC_TEST_GUARD();
    time_base tb("tb");
    auto ls = make_checker(tb, fault::early_edge);
    sc_start(sc_core::SC_ZERO_TIME);
    ls->set_lpcr(false, false);
    advance(tb, 7);
    ls->write_dec(10);  // native asserts 11 ticks later, the faulty unit 10 ticks later
    const uint64_t early = tb.ticks() + 10;
    sc_core::sc_report_handler::set_handler(sc_core::sc_report_handler::default_handler);
    try {
        advance(tb, 100);
        FAIL() << "the early edge was not caught";
    } catch (const sc_core::sc_report& r) {
        const std::string msg = r.what();
        EXPECT_NE(msg.find("lockstep mismatch at tick " + std::to_string(early)), std::string::npos)
            << msg;
        EXPECT_NE(msg.find("DEC interrupt line (assert/deassert tick): tlm=0x0000000000000000 "
                           "faulty=0x0000000000000001"),
                  std::string::npos)
            << msg;
    }
}

// Two good units (native vs RTL) over the same operations: no report, and the lines agree.
TEST(LockstepChecker, SilentOnAgreeingUnits) {
    NESTVP_SC_TEST_GUARD();
    time_base tb("tb");
    auto ref = [&tb](const char* n) -> std::unique_ptr<timer_unit_if> {
        return std::make_unique<native_timer_unit>(n, tb);
    };
    auto dut = [&tb](const char* n) -> std::unique_ptr<timer_unit_if> {
        return std::make_unique<rtl_timer_unit>(n, tb);
    };
    lockstep_timer_unit ls("ls", tb, ref, dut);
    sc_start(sc_core::SC_ZERO_TIME);
    ls.set_lpcr(false, true);
    ls.write_dec(0x80000001);
    ls.write_hdec(5);
    advance(tb, 20);  // DEC wraps to positive, HDEC crosses 0 -> -1
    EXPECT_FALSE(ls.dec_pending());
    EXPECT_TRUE(ls.hdec_pending());
    ls.ack_hdec();
    ls.set_lpcr(true, true);
    ls.write_dec(100);
    advance(tb, 200);
    EXPECT_TRUE(ls.dec_pending());
    EXPECT_EQ(ls.read_dec(), ~0ull - 99);
    EXPECT_FALSE(ls.failed());
    EXPECT_GT(ls.comparisons(), 10u);
}

// Native reference and RTL unit: the predicted next edges are compared after every operation.
// Desynchronise the reference behind the checker's back: the next operation reports it.
TEST(LockstepChecker, ComparesPredictedEdgesOfNativeAndRtl) {
    NESTVP_SC_TEST_GUARD();
    time_base tb("tb");
    auto u = make_native_rtl_checker(tb);
    auto& ls = dynamic_cast<lockstep_timer_unit&>(*u);
    sc_start(sc_core::SC_ZERO_TIME);
    ls.set_lpcr(true, true);
    ls.write_dec(1000);
    advance(tb, 10);
    dynamic_cast<native_timer_unit&>(ls.ref()).write_dec(500);  // only the reference
    const uint64_t now = tb.ticks();
    try {
        ls.write_hdec(77);
        FAIL() << "the desynchronised DEC was not caught";
    } catch (const lockstep_mismatch& e) {
        EXPECT_EQ(e.op(), "next DEC edge tick after write_hdec");
        EXPECT_EQ(e.ref_value(), now + 501);
        EXPECT_EQ(e.dut_value(), now + 991);
        EXPECT_NE(std::string(e.what()).find("tlm=0x"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find(" rtl=0x"), std::string::npos);
    }
}

// Native reference and RTL unit: lines compared after a write are held only up to the next
// edge. A thread that wakes at the edge's own time runs before the change report reaches the
// checker (the report is a delta notification of the edge method), so the held span itself
// must end there: the query sees the new level (timer-facilities.md §2.2).
TEST(LockstepChecker, HeldLinesEndAtTheEdgeTick) {
    NESTVP_SC_TEST_GUARD();
    time_base tb("tb");
    auto u = make_native_rtl_checker(tb);
    auto& ls = dynamic_cast<lockstep_timer_unit&>(*u);
    bool before = true, at = false;
    sc_core::sc_spawn([&] {
        ls.write_dec(10);  // 0 -> -1 eleven ticks later
        const uint64_t edge = tb.ticks() + 11;
        before = ls.dec_pending();
        sc_core::wait(tb.time_of(edge) - sc_core::sc_time_stamp());
        at = ls.dec_pending();
    });
    sc_start(tb.time_of(20));
    EXPECT_FALSE(before);
    EXPECT_TRUE(at);
    EXPECT_FALSE(ls.failed());
}

// A unit maker that returns nothing is a clear error.
TEST(LockstepChecker, NullUnitIsAnError) {
    NESTVP_SC_TEST_GUARD();
    time_base tb("tb");
    auto ref = [&tb](const char* n) -> std::unique_ptr<timer_unit_if> {
        return std::make_unique<native_timer_unit>(n, tb);
    };
    auto none = [](const char*) -> std::unique_ptr<timer_unit_if> { return nullptr; };
    EXPECT_THROW(lockstep_timer_unit("ls", tb, ref, none), std::invalid_argument);
}

}  // namespace
}  // namespace nestvp::test
