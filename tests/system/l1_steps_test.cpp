// The L1 run loop as steps, what the gsb_recv probe sees, exits that never reach L0 and the
// L2 interrupt entry (docs/l1-kvm-run-loop.md, docs/measurement-probes.md), on shortened
// reference runs through the nestvp command.
#include <gtest/gtest.h>

#include <string>

#include "reference_run.h"

namespace nestvp {
namespace {

run_metrics run(const std::string& sets) {
    return test::run_reference("--set run.duration_s=1 " + sets);
}

// No step is a lump: each is at most 40 % of the mean L1 handling latency, under both policies.
TEST(l1_steps, no_step_is_above_forty_percent_of_l1_handling) {
    for (const char* policy : {"no-cancel", "cancel"}) {
        const run_metrics m = run(std::string("--set l1.dec_policy=") + policy);
        const latency_report& l = m.latencies.at("l1_handling_latency_ns");
        ASSERT_GT(l.all.count, 0u) << policy;
        ASSERT_FALSE(l.breakdown.empty()) << policy;
        for (const auto& s : l.breakdown)
            EXPECT_LE(s.mean_ns, 0.4 * l.all.mean) << policy << ": " << s.step;
    }
}

// Every counted exit is a real H_GUEST_RUN_VCPU, an entry whose time limit had passed, or one
// that found an L1 interrupt pending (lazy_irq_pending): the last two never reach L0. A run
// still in L2 when the simulation stops is not counted yet: at most one per vCPU.
TEST(l1_steps, exits_are_runs_plus_the_ones_that_never_reach_l0) {
    for (const char* policy : {"no-cancel", "cancel"}) {
        const run_metrics m = run(std::string("--set l1.dec_policy=") + policy);
        const double reached = double(m.h_guest_run_vcpu),
                     early = test::counter(m, "l1.early_returns"),
                     lazy = test::counter(m, "l1.lazy_irq_returns");
        EXPECT_LE(double(m.kvm_guest_exit), reached + early + lazy) << policy;
        EXPECT_GE(double(m.kvm_guest_exit), reached + early + lazy - 8) << policy;
    }
}

// The probe is blind inside kvmhv_p9_guest_entry: with QEMU's run output (no MSR on an hcall
// exit) each cede's kvmppc_cede reads MSR by GET_STATE there, which the hcall count has and
// gsb_recv has not. With the deduced PowerVM output the two agree.
TEST(l1_steps, gsb_recv_misses_the_reads_inside_the_guest_state_window) {
    const run_metrics q = run("--set l1.dec_policy=cancel --set l0.run_output=qemu");
    const double unseen = test::counter(q, "l1.get_state_unprobed");
    EXPECT_GT(unseen, 0.9 * test::counter(q, "l1.cedes"));
    EXPECT_EQ(double(q.h_guest_get_state), double(q.gsb_recv) + unseen);
    const run_metrics d = run("--set l1.dec_policy=cancel --set l0.run_output=powervm-deduced");
    EXPECT_EQ(test::counter(d, "l1.get_state_unprobed"), 0);
    EXPECT_EQ(d.h_guest_get_state, d.gsb_recv);
}

// Taking a DEC into L2 costs the sourced entry step: the timer interrupt latency of a vCPU
// running in L2 is above 0 and moves with l2.costs.interrupt_entry.
TEST(l1_steps, timer_interrupt_latency_includes_the_interrupt_entry) {
    const auto p50 = [](const run_metrics& m) {
        return m.latencies.at("timer_interrupt_latency_ns").all.p50;
    };
    const run_metrics base = run("--set l1.dec_policy=no-cancel");
    const run_metrics more =
        run("--set l1.dec_policy=no-cancel --set l2.costs.interrupt_entry=600");
    EXPECT_GT(p50(base), 30.0);
    EXPECT_GT(p50(more), p50(base) + 50.0);
}

}  // namespace
}  // namespace nestvp
