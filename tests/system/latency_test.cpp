// The nested-path latencies on shortened reference runs (1 s, three vCPUs: vCPU 1 alone on its
// core under spread placement), through the nestvp command (SystemC elaborates once per process).
// Each assertion is a direction or a difference that the modelled steps give
// (docs/nested-entry-exit.md), not a figure copied from a run.
#include <gtest/gtest.h>

#include <string>

#include "reference_run.h"

namespace nestvp {
namespace {

run_metrics run(const std::string& sets) {
    return test::run_reference(
        "--set run.duration_s=1 --set l2.vcpus=3 --set l2.devices.irq_hz=0 " + sets);
}

const latency_report& lat(const run_metrics& m, const std::string& kind) {
    return m.latencies.at(kind);
}

double step(const latency_report& r, const std::string& name) {
    for (const latency_step& s : r.breakdown)
        if (s.step == name) return s.mean_ns;
    return 0;
}

// vCPU v's mean for its most frequent reason in `a`, and the same reason's mean in `b`: the
// same kind of sample on both sides, whatever else a changed cost shifts in the mix.
std::pair<double, double> vcpu_means(const latency_report& a, const latency_report& b, unsigned v) {
    const auto& ra = a.by_vcpu.at(v);
    const auto& rb = b.by_vcpu.at(v);
    std::string top;
    uint64_t most = 0;
    for (const auto& [reason, s] : ra)
        if (s.count > most && rb.count(reason)) most = s.count, top = reason;
    if (top.empty()) throw std::runtime_error("no common reason");
    return {ra.at(top).mean, rb.at(top).mean};
}

// Under `powervm` the output carries no DEC_EXPIRY_TB: cancel's check after a cede exit with a
// queued DEC reloads it, so L1 takes longer to handle an exit, by what the GET_STATE costs.
TEST(nested_latency, cancel_handles_exits_slower_by_its_get_state) {
    const run_metrics nc = run("--set l1.dec_policy=no-cancel --set l0.run_output=powervm");
    const run_metrics c = run("--set l1.dec_policy=cancel --set l0.run_output=powervm");
    const latency_report &hn = lat(nc, "l1_handling_latency_ns"),
                         &hc = lat(c, "l1_handling_latency_ns");
    ASSERT_GT(hn.all.count, 1000u);
    ASSERT_GT(hc.all.count, 1000u);
    EXPECT_GT(hc.all.mean, hn.all.mean);
    const double diff = hc.all.mean - hn.all.mean;
    const double get_state = step(hc, "L1 GET_STATE") - step(hn, "L1 GET_STATE");
    EXPECT_GT(get_state, 0.8 * diff) << "difference " << diff << " ns, GET_STATE " << get_state;
}

// With `powervm-dec-expiry` the check reads the expiry from the output: no GET_STATE on the
// path, and the exit carries one more element.
// Idle vCPUs cede at every idle (no snooze), so cede exits dominate the handling samples.
TEST(nested_latency, dec_expiry_firmware_removes_the_get_state) {
    const std::string base = "--set l2.snooze=false --set l2.housekeeping_hz=10000 ";
    const run_metrics nc =
        run(base + "--set l1.dec_policy=no-cancel --set l0.run_output=powervm-dec-expiry");
    const run_metrics c =
        run(base + "--set l1.dec_policy=cancel --set l0.run_output=powervm-dec-expiry");
    const run_metrics cp = run(base + "--set l1.dec_policy=cancel --set l0.run_output=powervm");
    const latency_report &hn = lat(nc, "l1_handling_latency_ns"),
                         &hc = lat(c, "l1_handling_latency_ns");
    EXPECT_LT(step(hc, "L1 GET_STATE"), 0.01 * hc.all.mean);
    // What is left between the policies is cancel's own work before it blocks (set_timer).
    const double rest = (hc.all.mean - step(hc, "L1 set_timer")) - hn.all.mean;
    EXPECT_LT(std::abs(rest), 0.05 * hn.all.mean) << "left " << rest << " ns";
    // The exit writes one more element (DEC_EXPIRY_TB): only the output step grows.
    const latency_report &ex = lat(c, "nested_exit_latency_ns"),
                         &ep = lat(cp, "nested_exit_latency_ns");
    const double grown = ex.all.mean - ep.all.mean;
    const double output = step(ex, "L0 write output") - step(ep, "L0 write output");
    EXPECT_GT(output, 0);
    EXPECT_NEAR(grown, output, 0.1 * output + 1.0);
}

// v1 moves all of hv_guest_state and pt_regs into L0 at every entry; v2 only the dirty elements.
TEST(nested_latency, v1_entry_reads_more_than_v2) {
    const run_metrics v1 = run("--set l0.api=v1 --set l1.dec_policy=cancel");
    const run_metrics v2 = run("--set l0.api=v2 --set l1.dec_policy=cancel");
    const latency_report &e1 = lat(v1, "nested_entry_latency_ns"),
                         &e2 = lat(v2, "nested_entry_latency_ns");
    ASSERT_GT(e1.all.count, 100u);
    EXPECT_GT(e1.all.mean, e2.all.mean);
    const double input = step(e1, "L0 read input") - step(e2, "L0 read input");
    EXPECT_GT(input, 0.8 * (e1.all.mean - e2.all.mean));
}

// A stuck idle vCPU polls through L0 under no-cancel, so its timer is served on the next cede
// return; under cancel it sleeps in L1 until the hrtimer, the wake-up and a full entry.
TEST(nested_latency, polling_serves_timers_sooner_than_blocking) {
    const run_metrics nc = run("--set l1.dec_policy=no-cancel");
    const run_metrics c = run("--set l1.dec_policy=cancel");
    const latency_report &tn = lat(nc, "timer_interrupt_latency_ns"),
                         &tc = lat(c, "timer_interrupt_latency_ns");
    EXPECT_LT(tn.by_reason.count("blocked in L1") ? tn.by_reason.at("blocked in L1").count : 0,
              tn.all.count / 100);
    ASSERT_TRUE(tc.by_reason.count("blocked in L1"));
    EXPECT_GT(tc.by_reason.at("blocked in L1").count, tc.all.count / 2);
    const double idle_nc = tn.all.mean, idle_c = tc.by_reason.at("blocked in L1").mean;
    EXPECT_LT(idle_nc, idle_c);
    EXPECT_GT(step(tc, "L1 blocked") + step(tc, "L1 wake"), 0);
}

// Changing one step's cost moves the latencies that include that step by that cost and no
// others. vCPU 1 is alone on its core (spread placement), so a cycle is 1/3 ns there.
void expect_step_moves(const std::string& key, uint64_t base, uint64_t added,
                       const std::vector<std::string>& moved,
                       const std::vector<std::string>& unmoved) {
    const std::string common = " --set l1.dec_policy=cancel --set l0.costs." + key + "=";
    const run_metrics a = run(common + std::to_string(base));
    const run_metrics b = run(common + std::to_string(base + added));
    const double shift = static_cast<double>(added) / 3.0;  // ns at 3 GHz, one thread per core
    for (const std::string& k : moved) {
        const auto [ma, mb] = vcpu_means(lat(a, k), lat(b, k), 1);
        EXPECT_NEAR(mb - ma, shift, 0.02 * shift) << k;
    }
    for (const std::string& k : unmoved) {
        const auto [ma, mb] = vcpu_means(lat(a, k), lat(b, k), 1);
        EXPECT_NEAR(mb, ma, 0.02 * shift) << k;
    }
}

TEST(nested_latency, exit_interrupt_cost_moves_exit_and_round_trip_only) {
    expect_step_moves("exit_interrupt", 500, 3000,
                      {"nested_exit_latency_ns", "round_trip_latency_ns"},
                      {"nested_entry_latency_ns", "l1_handling_latency_ns"});
}

TEST(nested_latency, return_to_guest_cost_moves_entry_and_wake_only) {
    expect_step_moves("return_to_guest", 300, 3000, {"nested_entry_latency_ns", "wake_latency_ns"},
                      {"nested_exit_latency_ns", "l1_handling_latency_ns"});
}

// Every breakdown sums to its latency's mean (the steps partition each sample).
TEST(nested_latency, breakdowns_sum_to_the_mean) {
    const run_metrics m = run("--set l1.dec_policy=cancel --set run.duration_s=0.3");
    for (const std::string& k : latency_kinds()) {
        const latency_report& r = lat(m, k);
        if (r.all.count == 0) continue;
        double sum = 0;
        for (const latency_step& s : r.breakdown) sum += s.mean_ns;
        EXPECT_NEAR(sum, r.all.mean, 1e-6 * r.all.mean + 1e-3) << k;
    }
}

}  // namespace
}  // namespace nestvp
