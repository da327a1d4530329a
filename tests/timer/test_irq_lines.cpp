// The timer unit's interrupt lines reach the exception logic through its port
// timer_lines, bound by whoever builds the pair (docs/interrupt-delivery.md "Wiring"): a DEC
// edge (a level, timer-facilities.md §2.2) raises 0x900 through the bound port, the LPCR given
// at construction reaches the unit when bound, a port bound through a parent port works after
// elaboration, and an unbound port is an SC_REPORT_ERROR naming it.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "models/exception_logic.h"
#include "models/time_base.h"
#include "models/timer_unit_factory.h"
#include "sc_test_guard.h"

namespace nestvp::test {
namespace {

constexpr uint64_t msr_hv_ee = msr::sf | msr::hv | msr::me | msr::ee;

std::unique_ptr<timer_unit_if> make_unit(const std::string& impl, time_base& tb) {
    timer_unit_options o;
    o.impl = impl;
    return make_timer_unit("timers", tb, o);
}

void advance(time_base& tb, uint64_t ticks) {
    sc_core::sc_start(tb.time_of(tb.ticks() + ticks) - sc_core::sc_time_stamp());
}

// Records the vectors deliverable_event() announces (fed by the port's change event).
struct waiter : sc_core::sc_module {
    SC_HAS_PROCESS(waiter);
    waiter(const sc_core::sc_module_name& n, exception_logic& ic, time_base& tb)
        : sc_core::sc_module(n), m_ic(ic), m_tb(tb) {
        SC_THREAD(run);
    }
    std::vector<std::pair<uint64_t, uint32_t>> seen;

private:
    void run() {
        for (;;) {
            wait(m_ic.deliverable_event());
            if (auto v = m_ic.pending_vector()) seen.emplace_back(m_tb.ticks(), *v);
        }
    }
    exception_logic& m_ic;
    time_base& m_tb;
};

// The default handler throws the report out of the call (tests/support turns it into a
// failure otherwise).
std::string expect_report(const std::function<void()>& f) {
    sc_core::sc_report_handler::set_handler(sc_core::sc_report_handler::default_handler);
    try {
        f();
    } catch (const sc_core::sc_report& r) {
        EXPECT_EQ(r.get_severity(), sc_core::SC_ERROR);
        return r.what();
    }
    ADD_FAILURE() << "no SystemC error was reported";
    return {};
}

class IrqLines : public ::testing::TestWithParam<std::string> {};

// §2.2: DEC goes from 0 to -1 one tick after it reads 0; with EE=1 that is 0x900, seen through
// the bound port both by pending_vector() and by the port's change event.
TEST_P(IrqLines, DecEdgeRaises0x900ThroughBoundPort) {
    NESTVP_SC_TEST_GUARD();
    time_base tb("tb");
    auto unit = make_unit(GetParam(), tb);
    exception_logic ic("ic", msr_hv_ee, 0);
    ic.timer_lines.bind(*unit);
    EXPECT_TRUE(ic.timer_lines.is_bound());
    waiter w("w", ic, tb);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    unit->write_dec(9);
    const uint64_t edge = tb.ticks() + 10;
    advance(tb, 9);
    EXPECT_FALSE(ic.pending_vector());
    EXPECT_TRUE(w.seen.empty());
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
    ASSERT_TRUE(ic.pending_vector());
    EXPECT_EQ(*ic.pending_vector(), vector::decrementer);
    ASSERT_EQ(w.seen.size(), 1u);
    EXPECT_EQ(w.seen[0].first, edge);
    EXPECT_EQ(w.seen[0].second, vector::decrementer);
    EXPECT_EQ(ic.take(0x1000).vector, vector::decrementer);
}

INSTANTIATE_TEST_SUITE_P(Impl, IrqLines, ::testing::ValuesIn(timer_impls()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

// The LPCR the exception logic is built with reaches the unit when the port is bound (§2.1: with
// LD=1 a DEC write keeps its upper bits).
TEST(IrqLinesBind, ConstructionLpcrIsForwardedAtBind) {
    NESTVP_SC_TEST_GUARD();
    time_base tb("tb");
    auto unit = make_unit("tlm", tb);
    exception_logic ic("ic", msr_hv_ee, lpcr::ld);
    ic.timer_lines.bind(*unit);
    unit->write_dec(1ull << 40);
    EXPECT_EQ(unit->read_dec(), 1ull << 40);
}

// An exception logic inside a module whose own port is bound: the interface is known at the end of
// elaboration.
struct wrapper : sc_core::sc_module {
    bound_port<irq_lines_if> lines{"lines"};
    exception_logic ic{"ic", msr_hv_ee, 0};
    explicit wrapper(const sc_core::sc_module_name& n) : sc_core::sc_module(n) {
        ic.timer_lines.bind(lines);
    }
};

TEST(IrqLinesBind, BoundThroughParentPort) {
    NESTVP_SC_TEST_GUARD();
    time_base tb("tb");
    auto unit = make_unit("tlm", tb);
    wrapper top("top");
    top.lines.bind(*unit);
    EXPECT_FALSE(top.ic.timer_lines.is_bound());  // not before the end of elaboration
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    EXPECT_TRUE(top.ic.timer_lines.is_bound());
    unit->write_dec(0x80000000);  // negative in 32 bits (LD=0): pending at once
    EXPECT_EQ(top.ic.pending_vector(), vector::decrementer);
}

TEST(IrqLinesBind, UnboundUseIsAnErrorNamingThePort) {
    NESTVP_SC_TEST_GUARD();
    exception_logic ic("ic", msr_hv_ee, 0);
    EXPECT_FALSE(ic.timer_lines.is_bound());
    const std::string msg = expect_report([&] { ic.pending_vector(); });
    EXPECT_NE(msg.find("port 'ic.timer_lines' is not bound"), std::string::npos) << msg;
    const std::string msg2 = expect_report([&] { ic.set_lpcr(lpcr::ld); });
    EXPECT_NE(msg2.find("ic.timer_lines"), std::string::npos) << msg2;
}

TEST(IrqLinesBind, UnboundAtElaborationIsAnErrorNamingThePort) {
    NESTVP_SC_TEST_GUARD();
    exception_logic ic("ic", msr_hv_ee, 0);
    const std::string msg = expect_report([] { sc_core::sc_start(sc_core::SC_ZERO_TIME); });
    EXPECT_NE(msg.find("ic.timer_lines"), std::string::npos) << msg;
    EXPECT_NE(msg.find("not bound"), std::string::npos) << msg;
}

}  // namespace
}  // namespace nestvp::test
