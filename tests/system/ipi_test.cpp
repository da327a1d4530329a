// IPIs between L2 vCPUs (l2.devices.ipi_hz; docs/ipi.md) on shortened reference runs with the
// in-kernel XICS and no device interrupts, through the nestvp command. vCPU 0 sends H_IPI to
// the others in turn; L1 emulates it (XICS),
// queues the target's external and kicks it: a ceded target is woken, one on its CPU exits with
// 0xEA0 (H_VIRT); the target takes the interrupt through LPCR[MER] and answers with H_XIRR,
// H_IPI(self, 0xFF) and H_EOI.
#include <gtest/gtest.h>

#include <string>

#include "reference_run.h"

namespace nestvp {
namespace {

run_metrics run(const std::string& sets) {
    return test::run_reference(
        "--set run.duration_s=1 --set l2.irqchip=in-kernel-xics --set l2.devices.irq_hz=0 " + sets);
}

double exits(const run_metrics& m, const std::string& vector) {  // "0xea0"
    for (const auto& [reason, n] : m.exits_by_reason)
        if (reason.rfind(vector, 0) == 0) return static_cast<double>(n);
    return 0.0;
}

// Under cancel the idle vCPUs sleep in L1 after H_CEDE: most IPIs find their target asleep and
// wake it; each target runs the handler once per IPI, and the round robin spreads them evenly.
TEST(ipi, an_ipi_wakes_a_ceded_vcpu_and_it_runs_its_handler) {
    const run_metrics m = run("--set l1.dec_policy=cancel --set l2.devices.ipi_hz=700");
    const double sent = test::counter(m, "l2.ipis_sent");
    EXPECT_NEAR(sent, 700, 50);
    EXPECT_EQ(test::vcpu_counter(m, 0, "l2.ipis_sent"),
              sent);                                             // vCPU 0 sends them all
    EXPECT_NEAR(test::counter(m, "l2.ipis_received"), sent, 2);  // the last may be in flight
    EXPECT_EQ(test::counter(m, "l1.ipis"), sent);
    EXPECT_GT(test::counter(m, "l1.ipi_wakes"), 0.5 * sent);
    for (unsigned v = 1; v < 8; ++v)
        EXPECT_NEAR(test::vcpu_counter(m, v, "l2.ipis_received"), sent / 7, 2) << "vCPU " << v;
    // Every wake and kick is one host IPI, taken by the target's L1 CPU.
    EXPECT_EQ(test::counter(m, "l1.host_ipis"),
              test::counter(m, "l1.ipi_wakes") + test::counter(m, "l1.ipi_kicks"));
    const run_metrics none = run("--set l1.dec_policy=cancel");
    EXPECT_EQ(test::counter(none, "l1.ipi_wakes"), 0);
    EXPECT_EQ(test::counter(none, "l2.ipis_received"), 0);
}

// Under no-cancel the idle vCPUs are stuck in L2, snoozing between cedes that return at once: a
// wake-up of a snoozing vCPU only sets need_resched (TIF_POLLING_NRFLAG, set_nr_if_polling), so
// most send no IPI. The others kick a vCPU on its CPU, which exits with 0xEA0, never more than
// there were kicks; one H_IPI per IPI sent, and three XICS hcalls per receipt.
TEST(ipi, an_ipi_to_a_running_vcpu_exits_with_h_virt) {
    for (const double hz : {400.0, 800.0}) {
        const run_metrics m =
            run("--set l1.dec_policy=no-cancel --set l2.devices.ipi_hz=" + std::to_string(hz));
        const double sent = test::counter(m, "l2.ipis_sent"),
                     skipped = test::counter(m, "l2.ipis_skipped_polling"),
                     got = test::counter(m, "l2.ipis_received");
        EXPECT_NEAR(sent + skipped, hz, 0.08 * hz) << hz;
        EXPECT_GT(skipped, 0.5 * hz) << hz;  // the stuck vCPUs snooze most of the time
        EXPECT_GT(sent, 0) << hz;
        EXPECT_GT(test::counter(m, "l1.ipi_kicks"), 0.3 * sent) << hz;
        EXPECT_LE(exits(m, "0xea0"), test::counter(m, "l1.ipi_kicks")) << hz;
        EXPECT_NEAR(test::counter(m, "l1.icp_hcalls"), sent + 3 * got, 6) << hz;
        // The sender is never a target: its L1 vCPU emulates exactly its H_IPIs.
        EXPECT_EQ(test::vcpu_counter(m, 0, "l1.icp_hcalls"), sent) << hz;
        EXPECT_EQ(test::vcpu_counter(m, 0, "l2.ipis_received"), 0) << hz;
    }
    const run_metrics none = run("--set l1.dec_policy=no-cancel");
    EXPECT_EQ(exits(none, "0xea0"), 0);
    EXPECT_EQ(test::counter(none, "l1.icp_hcalls"), 0);
}

// Each IPI adds exits (the H_IPI, the target's XICS hcalls, its wake or H_VIRT exit), so the
// exit count grows with the rate (cancel: no target polls).
TEST(ipi, exits_grow_with_the_ipi_rate) {
    for (const char* policy : {"cancel"}) {
        const std::string p = std::string("--set l1.dec_policy=") + policy;
        const run_metrics none = run(p), some = run(p + " --set l2.devices.ipi_hz=300"),
                          more = run(p + " --set l2.devices.ipi_hz=900");
        EXPECT_GT(some.kvm_guest_exit, none.kvm_guest_exit + 3 * 300 * 0.8) << policy;
        EXPECT_GT(more.kvm_guest_exit, some.kvm_guest_exit + 3 * 600 * 0.8) << policy;
    }
}

}  // namespace
}  // namespace nestvp
