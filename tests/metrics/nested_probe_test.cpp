// The nested probe and its observers (sw/probes/nested_probe.h, docs/measurement-probes.md):
// an unbound probe reaches nobody, a fan-out reaches each observer in order, and the metrics
// observer classifies L2 timer interrupts and keeps L1's step around a GET_STATE.
#include "sw/probes/nested_probe.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sw/metrics/nested_metrics.h"

namespace {

using namespace nestvp;

// Records the order of what it hears.
struct journal final : probe_observer {
    std::string tag;
    std::vector<std::string>* out;
    journal(std::string t, std::vector<std::string>& o) : tag(std::move(t)), out(&o) {}
    void on_count(counter c, unsigned, uint64_t n) override {
        out->push_back(tag + ":count " + counter_name(c) + " " + std::to_string(n));
    }
    void on_step(unsigned, path_step s, uint64_t) override {
        out->push_back(tag + ":step " + path_step_name(s));
    }
    void on_latency(latency_kind, unsigned, uint32_t, uint64_t, uint64_t, uint64_t) override {
        out->push_back(tag + ":latency");
    }
    void on_timer_interrupt(unsigned, uint64_t, uint64_t) override {
        out->push_back(tag + ":timer");
    }
    void on_get_state_begin(unsigned, uint64_t) override { out->push_back(tag + ":gs+"); }
    void on_get_state_end(unsigned, uint64_t) override { out->push_back(tag + ":gs-"); }
    void on_hcall(unsigned, uint64_t nr) override {
        out->push_back(tag + ":hcall " + std::to_string(nr));
    }
    void on_exit_vector(unsigned, uint32_t v) override {
        out->push_back(tag + ":exit " + std::to_string(v));
    }
    void on_guest_exit_tracepoint(unsigned, uint32_t) override { out->push_back(tag + ":tp"); }
    void on_run_returned(unsigned, double) override { out->push_back(tag + ":run"); }
};

uint64_t timer_samples(const nested_metrics& m, uint32_t reason) {
    for (const auto& h : m.paths().histograms(latency_kind::timer_interrupt, 0))
        if (h.reason == reason) return h.hist.count();
    return 0;
}

}  // namespace

TEST(nested_probe, unbound_reaches_nobody_and_unbinding_stops_it) {
    std::vector<std::string> heard;
    journal j("a", heard);
    nested_probe p;
    EXPECT_FALSE(p.bound());
    p.count(counter::l1_cedes, 0);
    p.hcall(0, 0x100);
    EXPECT_TRUE(heard.empty());
    p.bind(&j);
    p.count(counter::l1_cedes, 0, 2);
    p.bind(nullptr);
    p.exit_vector(0, 0x980);
    EXPECT_EQ(heard, std::vector<std::string>{"a:count l1.cedes 2"});
}

TEST(nested_probe, fanout_reaches_every_observer_in_the_order_bound) {
    std::vector<std::string> heard;
    journal a("a", heard), b("b", heard);
    probe_fanout fan;
    fan.add(a);
    fan.add(b);
    nested_probe p;
    p.bind(&fan);
    p.step(0, path_step::l1_flush, 5);
    p.hcall(0, 7);
    p.get_state_begin(0, 6);
    p.get_state_end(0, 8);
    EXPECT_EQ(heard, (std::vector<std::string>{"a:step L1 flush", "b:step L1 flush", "a:hcall 7",
                                               "b:hcall 7", "a:gs+", "b:gs+", "a:gs-", "b:gs-"}));
}

TEST(nested_metrics_observer, timer_interrupt_classified_by_where_the_vcpu_was_at_the_edge) {
    nested_metrics m(1, 1.0);
    nested_probe p;
    p.bind(&m);
    p.step(0, path_step::l2_running, 0);
    p.step(0, path_step::l0_exit_interrupt, 100);
    p.step(0, path_step::l1_blocked, 200);
    p.step(0, path_step::l2_running, 300);
    p.timer_interrupt(0, 50, 400);   // edge while L2 ran
    p.timer_interrupt(0, 150, 400);  // ... while in L0
    p.timer_interrupt(0, 250, 400);  // ... while L1 slept
    p.timer_interrupt(0, 500, 400);  // edge after the handler's start: not a sample
    EXPECT_EQ(timer_samples(m, latency_reason::in_l2), 1u);
    EXPECT_EQ(timer_samples(m, latency_reason::in_l0_l1), 1u);
    EXPECT_EQ(timer_samples(m, latency_reason::blocked_in_l1), 1u);
    EXPECT_EQ(m.paths().samples(latency_kind::timer_interrupt), 3u);
}

TEST(nested_metrics_observer, get_state_is_a_step_inside_its_caller) {
    nested_metrics m(1, 1.0);
    nested_probe p;
    p.bind(&m);
    p.step(0, path_step::l1_dec_policy, 0);
    p.get_state_begin(0, 10);
    EXPECT_EQ(m.paths().current(0), path_step::l1_get_state);
    p.get_state_end(0, 20);
    EXPECT_EQ(m.paths().current(0), path_step::l1_dec_policy);
    EXPECT_EQ(m.paths().step_at(0, 15), path_step::l1_get_state);
    EXPECT_EQ(m.paths().step_at(0, 25), path_step::l1_dec_policy);
}

TEST(nested_metrics_observer, counts_hcalls_exits_and_tracepoint_traps) {
    nested_metrics m(2);
    nested_probe p;
    p.bind(&m);
    p.count(counter::l0_hcalls, 1, 3);
    p.hcall(1, 0xF0);
    p.exit_vector(1, 0x980);
    p.guest_exit_tracepoint(1, 0x980);
    EXPECT_EQ(m.total(counter::l0_hcalls), 3u);
    EXPECT_EQ(m.on_thread(counter::l0_hcalls, 1), 3u);
    EXPECT_EQ(m.hcalls_by_number().at(0xF0), 1u);
    EXPECT_EQ(m.exits_by_reason().at(0x980), 1u);
    EXPECT_EQ(m.guest_exits_by_trap().at(0x980), 1u);
}
