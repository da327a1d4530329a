// The SystemC wrapper around the Verilated unit (models/rtl_timer_unit): lazy catch-up, one
// event per edge at the exact tick, evaluation counts, the factory names, and the VCD.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "models/lockstep_timer_unit.h"
#include "models/rtl_timer_unit.h"
#include "models/time_base.h"
#include "models/timer_unit_factory.h"
#include "sc_test_guard.h"

namespace nestvp::test {
namespace {

using sc_core::sc_start;

// Records (tick, dec, hdec) each time the unit reports a pending change.
class monitor : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(monitor);
    monitor(const sc_core::sc_module_name& n, time_base& tb, timer_unit_if& u)
        : sc_core::sc_module(n), m_tb(tb), m_unit(u) {
        SC_METHOD(on_change);
        sensitive << u.pending_changed_event();
        dont_initialize();
    }
    std::vector<std::tuple<uint64_t, bool, bool>> log;

private:
    void on_change() {
        log.emplace_back(m_tb.ticks(), m_unit.dec_pending(), m_unit.hdec_pending());
    }
    time_base& m_tb;
    timer_unit_if& m_unit;
};

void advance(time_base& tb, uint64_t ticks) {
    sc_start(tb.time_of(tb.ticks() + ticks) - sc_core::sc_time_stamp());
}

TEST(RtlUnit, OneEventPerEdgeAtTheExactTick) {
    NESTVP_SC_TEST_GUARD();
    time_base tb("tb");
    rtl_timer_unit u("u", tb);
    monitor m("m", tb, u);
    sc_start(sc_core::SC_ZERO_TIME);
    u.set_lpcr(false, true);
    advance(tb, 5);
    const uint64_t t0 = tb.ticks();
    u.write_dec(1000);
    u.write_hdec(50);
    advance(tb, 2000);
    const std::vector<std::tuple<uint64_t, bool, bool>> expect = {
        {t0 + 51, false, true},    // HDEC 0 -> -1 after 51 ticks, latched (HDICE=1)
        {t0 + 1001, true, true}};  // DEC 0 -> -1 after 1001 ticks (§8 vector 7)
    EXPECT_EQ(m.log, expect);
    // reset + the DEC write (catch-up merged) + HDEC write + two edge events; the LPCR change
    // is combinational, no clock.
    EXPECT_EQ(u.evaluations(), 5u);
    EXPECT_EQ(u.evaluated_tick(), t0 + 1001);  // nothing evaluated after the last edge
    EXPECT_EQ(u.ticks_skipped(), t0 + 1001);
    EXPECT_EQ(u.read_dec(), 0xFFFFFFFFull - 999);  // lazy catch-up on the read
    EXPECT_EQ(u.ticks_skipped(), t0 + 2000);
    EXPECT_EQ(u.evaluations(), 6u);
}

// W=32 through simulated time: from -1 the level lasts exactly 2^31 ticks (4.19 s).
TEST(RtlUnit, WrapToPositiveAfterExactlyHalfTheRange) {
    NESTVP_SC_TEST_GUARD();
    time_base tb("tb");
    rtl_timer_unit u("u", tb);
    monitor m("m", tb, u);
    sc_start(sc_core::SC_ZERO_TIME);
    advance(tb, 3);
    const uint64_t t0 = tb.ticks();
    u.write_dec(~0ull);
    advance(tb, (1ull << 31) + 10);
    ASSERT_EQ(m.log.size(), 2u);  // assert at the write (delta), deassert at the wrap
    EXPECT_EQ(m.log[0], std::make_tuple(t0, true, false));
    EXPECT_EQ(m.log[1], std::make_tuple(t0 + (1ull << 31), false, false));
    EXPECT_EQ(u.read_dec(), 0x7FFFFFFFull - 10);
}

TEST(RtlUnit, ReadsFollowSimulatedTime) {
    NESTVP_SC_TEST_GUARD();
    time_base tb("tb");
    rtl_timer_unit u("u", tb);
    sc_start(sc_core::SC_ZERO_TIME);
    EXPECT_EQ(u.read_dec(), 0x7FFFFFFFull);  // reset values (models/decrementer.h)
    EXPECT_EQ(u.read_hdec(), 0x007FFFFFFFFFFFFFull);
    u.write_dec(0x12345);
    sc_start(1, sc_core::SC_MS);  // 512,000 ticks
    EXPECT_EQ(u.read_dec(), (0x12345ull - 512000) & 0xFFFFFFFFull);
    EXPECT_TRUE(u.dec_pending());
    u.set_lpcr(true, false);  // LD=1: same counter, 56-bit view (vector 17)
    EXPECT_EQ(u.read_dec(), 0x12345ull - 512000);
}

TEST(RtlUnit, UnsupportedWidthIsAClearError) {
    NESTVP_SC_TEST_GUARD();
    time_base tb("tb");
    try {
        rtl_timer_unit u("u", tb, 65);
        FAIL() << "dec_bits=65 accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("dec_bits must be 32..64, got 65"), std::string::npos)
            << e.what();
    }
}

TEST(RtlUnit, FactoryKnowsRtlAndLockstep) {
    NESTVP_SC_TEST_GUARD();
    time_base tb("tb");
    const auto impls = timer_impls();
    EXPECT_EQ(impls, (std::vector<std::string>{"tlm", "rtl", "lockstep"}));
    timer_unit_options o;
    o.impl = "rtl";
    auto r = make_timer_unit("r", tb, o);
    EXPECT_NE(dynamic_cast<rtl_timer_unit*>(r.get()), nullptr);
    o.impl = "lockstep";
    auto l = make_timer_unit("l", tb, o);
    EXPECT_NE(dynamic_cast<lockstep_timer_unit*>(l.get()), nullptr);
    o.impl = "verilog";
    try {
        make_timer_unit("x", tb, o);
        FAIL();
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("tlm, rtl, lockstep"), std::string::npos);
    }
}

// ---- VCD -----------------------------------------------------------------------------------

struct vcd_file {
    std::map<std::string, std::string> id_of;  // "scope.name" -> id
    std::map<std::string, unsigned> width;     // id -> width
    // id -> (time, value) changes, in file order
    std::map<std::string, std::vector<std::pair<uint64_t, std::string>>> changes;
    std::string error;
};

vcd_file parse_vcd(const std::string& path) {
    vcd_file f;
    std::ifstream in(path);
    if (!in) {
        f.error = "cannot open " + path;
        return f;
    }
    std::string tok, scope;
    bool defs = true, have_time = false, saw_timescale = false;
    uint64_t time = 0;
    while (in >> tok) {
        if (defs) {
            if (tok == "$timescale") saw_timescale = true;
            if (tok == "$scope") {
                std::string kind;
                in >> kind >> scope;
            } else if (tok == "$var") {
                std::string kind, id, name, end;
                unsigned w = 0;
                in >> kind >> w >> id >> name >> end;
                if (end != "$end") in >> end;  // "[63:0] $end"
                if (end != "$end") f.error = "malformed $var for " + name;
                f.id_of[scope + "." + name] = id;
                f.width[id] = w;
            } else if (tok == "$enddefinitions") {
                defs = false;
                in >> tok;
                if (!saw_timescale) f.error = "no $timescale";
            }
            continue;
        }
        if (tok == "$dumpvars" || tok == "$end") continue;
        if (tok[0] == '#') {
            const uint64_t t = std::stoull(tok.substr(1));
            if (have_time && t <= time) f.error = "time not increasing at " + tok;
            time = t;
            have_time = true;
        } else if (tok[0] == 'b') {
            std::string id;
            in >> id;
            if (!f.width.count(id)) f.error = "undeclared id " + id;
            if (tok.size() - 1 > f.width[id]) f.error = "value wider than " + id;
            f.changes[id].emplace_back(time, tok.substr(1));
        } else if (tok[0] == '0' || tok[0] == '1' || tok[0] == 'x') {
            const std::string id = tok.substr(1);
            if (!f.width.count(id)) f.error = "undeclared id " + id;
            f.changes[id].emplace_back(time, tok.substr(0, 1));
        } else {
            f.error = "unexpected token " + tok;
        }
        if (!have_time) f.error = "value change before the first timestamp";
    }
    return f;
}

// Ticks at which a 1-bit signal becomes 1.
std::vector<uint64_t> rises(const vcd_file& f, const std::string& signal) {
    std::vector<uint64_t> r;
    std::string last = "0";
    for (const auto& [t, v] : f.changes.at(f.id_of.at(signal))) {
        if (v == "1" && last != "1") r.push_back(t);
        last = v;
    }
    return r;
}

TEST(RtlUnit, VcdOfPortsAndStateAtTickResolution) {
    NESTVP_SC_TEST_GUARD();
    const std::string path = std::string(NESTVP_BINARY_DIR) + "/tests/rtl/rtl_unit_trace.vcd";
    time_base tb("tb");
    auto u = std::make_unique<rtl_timer_unit>("dec_unit", tb, 56, path);
    sc_start(sc_core::SC_ZERO_TIME);
    u->set_lpcr(false, true);
    advance(tb, 5);
    u->write_dec(1000);  // tick 5
    u->write_hdec(50);
    advance(tb, 100);   // HDEC edge at 56
    u->ack_hdec();      // tick 105
    advance(tb, 2000);  // DEC edge at 1006
    u.reset();          // flushes and closes the file

    const vcd_file f = parse_vcd(path);
    ASSERT_TRUE(f.error.empty()) << f.error;
    for (const char* s :
         {"adv", "wr_dec", "dec_wdata", "wr_hdec", "hdec_wdata", "lpcr_ld", "lpcr_hdice",
          "hdec_ack", "dec_rd", "hdec_rd", "dec_irq", "hdec_irq", "dec_edge_ticks",
          "hdec_edge_ticks", "next_edge_ticks", "dec_state", "hdec_state"})
        EXPECT_TRUE(f.id_of.count(std::string("dec_unit.") + s)) << s;
    EXPECT_EQ(f.width.at(f.id_of.at("dec_unit.dec_state")), 56u);  // the unit's width W
    EXPECT_EQ(rises(f, "dec_unit.dec_irq"), std::vector<uint64_t>{1006});
    EXPECT_EQ(rises(f, "dec_unit.hdec_irq"), std::vector<uint64_t>{56});
    EXPECT_EQ(rises(f, "dec_unit.wr_dec"), std::vector<uint64_t>{5});
    EXPECT_EQ(rises(f, "dec_unit.hdec_ack"), std::vector<uint64_t>{105});
    // The write strobe is a one-tick pulse.
    const auto& wr = f.changes.at(f.id_of.at("dec_unit.wr_dec"));
    ASSERT_GE(wr.size(), 3u);
    EXPECT_EQ(wr[2], std::make_pair(uint64_t{6}, std::string("0")));
}

TEST(RtlUnit, TraceFileErrorsAreClear) {
    NESTVP_SC_TEST_GUARD();
    const std::string path = std::string(NESTVP_BINARY_DIR) + "/tests/rtl/shared_trace.vcd";
    time_base tb("tb");
    rtl_timer_unit a("a", tb, 56, path);
    try {
        rtl_timer_unit b("b", tb, 56, path);
        FAIL() << "two units on one VCD file";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("already written by another unit"), std::string::npos)
            << e.what();
    }
    try {
        rtl_timer_unit c("c", tb, 56, "/nonexistent-dir/x.vcd");
        FAIL() << "unwritable VCD path accepted";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("cannot open VCD file '/nonexistent-dir/x.vcd'"),
                  std::string::npos)
            << e.what();
    }
}

TEST(RtlUnit, LockstepVcdHasTheNativeInterruptLines) {
    NESTVP_SC_TEST_GUARD();
    const std::string path = std::string(NESTVP_BINARY_DIR) + "/tests/rtl/lockstep_trace.vcd";
    time_base tb("tb");
    timer_unit_options o;
    o.impl = "lockstep";
    o.trace_path = path;
    auto u = make_timer_unit("timer", tb, o);
    sc_start(sc_core::SC_ZERO_TIME);
    u->set_lpcr(true, true);
    u->write_dec(300);
    u->write_hdec(20);
    advance(tb, 1000);
    u->ack_hdec();
    advance(tb, 10);
    u.reset();

    const vcd_file f = parse_vcd(path);
    ASSERT_TRUE(f.error.empty()) << f.error;
    ASSERT_TRUE(f.id_of.count("tlm.dec_irq"));
    ASSERT_TRUE(f.id_of.count("tlm.hdec_irq"));
    EXPECT_EQ(rises(f, "tlm.dec_irq"), std::vector<uint64_t>{301});
    EXPECT_EQ(rises(f, "tlm.hdec_irq"), std::vector<uint64_t>{21});
    EXPECT_EQ(rises(f, "rtl.dec_irq"), rises(f, "tlm.dec_irq"));
    EXPECT_EQ(rises(f, "rtl.hdec_irq"), rises(f, "tlm.hdec_irq"));
}

}  // namespace
}  // namespace nestvp::test
