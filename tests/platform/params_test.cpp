// models/params.h: a component's declarations read and write its fields through member
// pointers, and the platform schema holds each declared key once, at its mounted path.
#include <gtest/gtest.h>

#include <set>

#include "models/params.h"
#include "platforms/config/param_schema.h"

using namespace nestvp;

namespace {
struct widget_config {
    unsigned count = 3;
    double rate_hz = 2.5;
    bool enabled = true;
    std::string mode = "fast";
    std::vector<double> speeds = {1.0, 0.5};
    cost_param step{40, "assumption: a test figure", {10, 80}};

    static void describe(param_list<widget_config>& p) {
        using c = widget_config;
        p.add_uint("count", &c::count, 1, 8, "", "how many");
        p.add_real("rate_hz", &c::rate_hz, 0, 100, true, "Hz", "how often");
        p.add_bool("enabled", &c::enabled, "on or off");
        p.add_text("mode", &c::mode, {"fast", "slow"}, "which way");
        p.add_list("speeds", &c::speeds, 0, 1, true, "per thread");
        p.add_cost("costs.step", &c::step, "one step");
    }
};

const param_decl<widget_config>& decl(const param_list<widget_config>& l, const std::string& k) {
    for (const auto& d : l.decls())
        if (d.meta.path == k) return d;
    throw std::out_of_range(k);
}
}  // namespace

TEST(Params, DeclarationsDescribeEachField) {
    param_list<widget_config> l;
    widget_config::describe(l);
    ASSERT_EQ(l.decls().size(), 6u);
    const param_meta& rate = decl(l, "rate_hz").meta;
    EXPECT_EQ(rate.type, param_type::real);
    EXPECT_EQ(rate.unit, "Hz");
    EXPECT_TRUE(rate.min_open);
    EXPECT_EQ(rate.max, 100);
    EXPECT_EQ(decl(l, "mode").meta.type, param_type::choice);
    EXPECT_EQ(decl(l, "mode").meta.choices, (std::vector<std::string>{"fast", "slow"}));
    EXPECT_EQ(decl(l, "costs.step").meta.unit, "cycles");
}

TEST(Params, GetReadsTheDefaultAndSetWritesTheField) {
    param_list<widget_config> l;
    widget_config::describe(l);
    widget_config w;
    EXPECT_EQ(decl(l, "count").get(w).u, 3u);
    EXPECT_DOUBLE_EQ(decl(l, "rate_hz").get(w).d, 2.5);
    param_value v;
    v.u = 7;
    decl(l, "count").set(w, v);
    EXPECT_EQ(w.count, 7u);
    v.s = "slow";
    decl(l, "mode").set(w, v);
    EXPECT_EQ(w.mode, "slow");
    v.list = {0.9};
    decl(l, "speeds").set(w, v);
    EXPECT_EQ(w.speeds, (std::vector<double>{0.9}));
    v.b = false;
    decl(l, "enabled").set(w, v);
    EXPECT_FALSE(w.enabled);
}

TEST(Params, CostKeepsItsSourceAndRange) {
    param_list<widget_config> l;
    widget_config::describe(l);
    widget_config w;
    const param_value got = decl(l, "costs.step").get(w);
    EXPECT_EQ(got.d, 40.0);
    EXPECT_EQ(got.s, "assumption: a test figure");
    EXPECT_EQ(got.list, (std::vector<double>{10, 80}));
    param_value v;
    v.d = 55.5;  // a cost may be fractional
    v.s = "a source";
    decl(l, "costs.step").set(w, v);
    EXPECT_EQ(w.step.cycles, 55.5);
    EXPECT_EQ(w.step.source, "a source");
    EXPECT_TRUE(w.step.range.empty());
}

// Each mounted key appears once, and a key's setter writes the platform_config field the
// component reads.
TEST(Params, SchemaMountsEachKeyOnceAtItsPath) {
    std::set<std::string> seen;
    for (const auto& d : param_schema()) EXPECT_TRUE(seen.insert(d.path).second) << d.path;
    platform_config c = default_platform();
    param_value v;
    v.d = 123.0;
    find_param("l2.housekeeping_hz")->set(c, v);
    EXPECT_DOUBLE_EQ(c.l2.housekeeping_hz, 123.0);
    v.d = 777;
    v.s = "test";
    find_param("l1.costs.wake")->set(c, v);
    EXPECT_EQ(c.l1.costs.wake.cycles, 777.0);
    v.u = 2;
    find_param("machine.core.threads")->set(c, v);
    EXPECT_EQ(c.machine.core.threads, 2u);
    EXPECT_EQ(find_param("machine.timer.impl")->get(c).s, "tlm");
}
