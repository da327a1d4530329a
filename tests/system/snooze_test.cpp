// The pseries idle path (l2-idle-and-get-state-paths.md §1, docs/l2-kernel.md) on shortened
// reference runs, through the nestvp command (SystemC elaborates once per process). Housekeeping
// timers are rare here, so what an idle vCPU does is the governor's and the policy's doing.
#include <gtest/gtest.h>

#include <string>

#include "reference_run.h"

namespace nestvp {
namespace {

run_metrics run(const std::string& sets) {
    return test::run_reference(
        "--set run.duration_s=1 --set l2.vcpus=3 --set l2.housekeeping_hz=10 "
        "--set l2.devices.irq_hz=0 " +
        sets);
}

// Under no-cancel a stuck idle vCPU snoozes to the time limit (the governor saw a cede that
// returned at once), then cedes (menu counts a timed-out snooze as a long idle), and the cede
// returns at once: one snooze, one cede and one exit per round, and it never blocks again.
TEST(l2_idle, no_cancel_stuck_vcpu_alternates_snooze_and_immediate_cede) {
    const run_metrics m = run("--set l1.dec_policy=no-cancel");
    ASSERT_EQ(m.vcpu_counters.size(), 3u);
    for (unsigned v = 1; v < 3; ++v) {
        const double snoozes = test::vcpu_counter(m, v, "l2.snoozes"),
                     cedes = test::vcpu_counter(m, v, "l2.cedes");
        const double timeouts = test::vcpu_counter(m, v, "l2.snooze_timeouts");
        EXPECT_GT(cedes, 1000) << "vcpu " << v;
        EXPECT_NEAR(snoozes, cedes, 0.02 * cedes + 2) << "vcpu " << v;
        EXPECT_GT(timeouts, 0.98 * snoozes) << "vcpu " << v;
        EXPECT_LE(test::vcpu_counter(m, v, "l1.blocks"), 2) << "vcpu " << v;
        EXPECT_NEAR(test::vcpu_counter(m, v, "l1.guest_exits"), cedes, 0.02 * cedes + 2)
            << "vcpu " << v;
    }
    EXPECT_EQ(test::vcpu_counter(m, 0, "l2.snoozes"), 0);  // vCPU 0 runs arithoh
}

// Interrupt entry saves PPR and runs at medium priority (exceptions-64s.S; an L0 saves the
// partition's PPR): a stuck vCPU's trap out of its snooze must not drag L0's exit path, L1 and
// the next entry at the low-priority share. Entries then cost what they cost on a normal
// thread: no tail ten times the median, as when L0 ran at HMT_low.
TEST(l2_idle, the_path_after_a_snooze_runs_at_normal_priority) {
    const run_metrics m = run("--set l1.dec_policy=no-cancel");
    const latency_summary& entry = m.latencies.at("nested_entry_latency_ns").all;
    const latency_summary& handling = m.latencies.at("l1_handling_latency_ns").all;
    ASSERT_GT(entry.count, 1000u);
    EXPECT_LT(entry.p99, 2 * entry.p50);
    EXPECT_LT(entry.max, 3 * entry.p50);
    EXPECT_LT(handling.max, 20 * handling.p50);
}

// Under cancel the same vCPU blocks in L1 at each cede; with its next timer far away the
// governor picks Shared Cede every time, so it never snoozes.
TEST(l2_idle, cancel_idle_vcpu_cedes_and_blocks) {
    const run_metrics m = run("--set l1.dec_policy=cancel");
    for (unsigned v = 1; v < 3; ++v) {
        EXPECT_EQ(test::vcpu_counter(m, v, "l2.snoozes"), 0) << "vcpu " << v;
        EXPECT_NEAR(test::vcpu_counter(m, v, "l1.blocks"), test::vcpu_counter(m, v, "l2.cedes"), 2)
            << "vcpu " << v;
    }
}

// A stuck vCPU cedes once per round of snooze timeout T plus path time p, from its first timer
// wake t0 on (the same in runs with the same seed): cedes = (1 s - t0) / (T + p). Doubling the
// timeout roughly halves them, and the path time solved from T = 100 and 200 us agrees with the
// one from T = 100 and 400 us: the rate follows from the timeout and the path costs.
TEST(l2_idle, doubling_the_snooze_timeout_roughly_halves_stuck_exits) {
    const std::string nc = "--set l1.dec_policy=no-cancel --set l2.cede_target_residency_us=";
    const run_metrics a = run(nc + "100"), b = run(nc + "200"), c = run(nc + "400");
    for (unsigned v = 1; v < 3; ++v) {
        const double ca = test::vcpu_counter(a, v, "l2.cedes"),
                     cb = test::vcpu_counter(b, v, "l2.cedes"),
                     cc = test::vcpu_counter(c, v, "l2.cedes");
        ASSERT_GT(ca, 1000);
        EXPECT_GT(cb / ca, 0.45) << "vcpu " << v;
        EXPECT_LT(cb / ca, 0.65) << "vcpu " << v;
        // ca (100 + p) = cb (200 + p)  and  ca (100 + p) = cc (400 + p), in us
        const double p_ab = (200 * cb - 100 * ca) / (ca - cb);
        const double p_ac = (400 * cc - 100 * ca) / (ca - cc);
        EXPECT_GT(p_ab, 1) << "vcpu " << v;
        EXPECT_LT(p_ab, 100) << "vcpu " << v;
        EXPECT_NEAR(p_ab, p_ac, 0.15 * p_ab) << "vcpu " << v;
        const double stuck_s = ca * (100 + p_ab) / 1e6;  // 1 s - t0
        EXPECT_GT(stuck_s, 0.5) << "vcpu " << v;
        EXPECT_LE(stuck_s, 1.0) << "vcpu " << v;
    }
}

// Without the snooze state every idle period cedes: the stuck vCPU spins through L0 as fast as
// the path allows, many times the snoozing rate.
TEST(l2_idle, without_snooze_a_stuck_vcpu_spins_through_l0) {
    const run_metrics a = run("--set l1.dec_policy=no-cancel");
    const run_metrics b = run("--set l1.dec_policy=no-cancel --set l2.snooze=false");
    for (unsigned v = 1; v < 3; ++v) {
        EXPECT_EQ(test::vcpu_counter(b, v, "l2.snoozes"), 0);
        EXPECT_GT(test::vcpu_counter(b, v, "l1.guest_exits"),
                  3 * test::vcpu_counter(a, v, "l1.guest_exits"));
    }
}

// vCPU 2 snoozes on the benchmark's core (spread placement): at low SMT priority it takes
// less of the core, so arithoh retires more than when it counts as a full thread.
TEST(l2_idle, a_snoozing_sibling_at_low_priority_slows_the_benchmark_less) {
    const std::string nc =
        "--set l1.dec_policy=no-cancel --set machine.core.smt_low_priority_share=";
    const run_metrics low = run(nc + "0.1"), full = run(nc + "1");
    EXPECT_GT(low.arithoh_count, 1.03 * full.arithoh_count);
    const run_metrics alone = run("--set l1.dec_policy=cancel");  // vCPU 2 ceded, not spinning
    EXPECT_GT(alone.arithoh_count, low.arithoh_count);
}

}  // namespace
}  // namespace nestvp
