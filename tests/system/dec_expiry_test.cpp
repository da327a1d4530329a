// l0.dec_expiry (docs/l0-firmware.md step 6) on shortened reference runs with QEMU's run
// output: the rule L0 uses to turn a saved DEC into an expiry decides whether an idle vCPU can
// block in L1 at all. Through the nestvp command (SystemC elaborates once per process).
#include <gtest/gtest.h>

#include <string>

#include "reference_run.h"

namespace nestvp {
namespace {

run_metrics run(const std::string& rule, const std::string& policy) {
    return test::run_reference(
        "--set run.duration_s=1 --set l2.vcpus=2 --set l2.devices.irq_hz=0 "
        "--set l2.housekeeping_hz=10 --set l0.run_output=qemu --set l0.dec_expiry=" +
        rule + " --set l1.dec_policy=" + policy);
}

// now + DEC (the DEC counts down, timer-facilities.md §2): under cancel the idle vCPU blocks at
// every cede until its next timer.
TEST(dec_expiry, now_plus_dec_lets_the_idle_vcpu_block) {
    const run_metrics m = run("now-plus-dec", "cancel");
    const double cedes = test::vcpu_counter(m, 1, "l2.cedes");
    EXPECT_GT(cedes, 5);
    EXPECT_LT(cedes, 100);
    EXPECT_NEAR(test::vcpu_counter(m, 1, "l1.blocks"), cedes, 2);
}

// QEMU's now - DEC (spapr_nested.c): the expiry L1 reads after a cede has passed, so
// kvmppc_set_timer queues the DEC and the vCPU never blocks; the L2's DEC is negative at the
// next entry, so it takes a timer interrupt with nothing due and cedes again.
TEST(dec_expiry, now_minus_dec_makes_the_idle_vcpu_cede_in_a_loop) {
    for (const char* policy : {"cancel", "no-cancel"}) {
        SCOPED_TRACE(policy);
        const run_metrics m = run("now-minus-dec", policy);
        const double cedes = test::vcpu_counter(m, 1, "l2.cedes");
        EXPECT_GT(cedes, 1000);
        EXPECT_LE(test::vcpu_counter(m, 1, "l1.blocks"), 2);
        EXPECT_GT(test::vcpu_counter(m, 1, "l2.early_timer_interrupts"), 0.9 * cedes);
    }
}

// The loop does not depend on the DEC policy: the cancel check dequeues a DEC only while its
// expiry lies ahead, and here it never does. The two policies' exits come within 30 %.
TEST(dec_expiry, now_minus_dec_leaves_little_for_the_cancel_check) {
    const run_metrics c = run("now-minus-dec", "cancel");
    const run_metrics n = run("now-minus-dec", "no-cancel");
    EXPECT_LT(static_cast<double>(n.kvm_guest_exit), 1.3 * static_cast<double>(c.kvm_guest_exit));
    EXPECT_GT(static_cast<double>(n.kvm_guest_exit), 0.7 * static_cast<double>(c.kvm_guest_exit));
    EXPECT_LT(test::counter(c, "l1.dec_dequeued"), 0.01 * static_cast<double>(c.kvm_guest_exit));
}

// l2.booted_idle: a vCPU that ceded once before its work started has its DEC queued by L1;
// under now - DEC the cancel check can never dequeue it (the expiry has always passed), so
// every later exit of the busy vCPU reads DEC_EXPIRY_TB for the check: two probe-visible
// GET_STATEs per run (NIA for the tracepoint, the expiry) instead of one.
TEST(dec_expiry, a_dec_queued_at_boot_stays_queued_under_now_minus_dec) {
    const auto gets_per_run = [](const std::string& booted) {
        const run_metrics m = test::run_reference(
            "--set run.duration_s=1 --set l2.vcpus=1 --set l2.devices.irq_hz=0 "
            "--set l0.run_output=qemu --set l0.dec_expiry=now-minus-dec "
            "--set l1.dec_policy=cancel --set l2.dtl=false --set l2.booted_idle=" +
            booted);
        return static_cast<double>(m.gsb_recv) / static_cast<double>(m.h_guest_run_vcpu);
    };
    EXPECT_NEAR(gets_per_run("false"), 1.0, 0.02);
    EXPECT_NEAR(gets_per_run("true"), 2.0, 0.02);
}

}  // namespace
}  // namespace nestvp
