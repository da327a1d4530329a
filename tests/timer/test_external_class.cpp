// The external class of the exception logic (timer-facilities.md §4.1, §4.2): the interrupt
// controller's line to the partition is a Hypervisor Virtualization interrupt (0xEA0, HSRR)
// under LPCR[HVICE] & (EE | ~HV), else an External (0x500, SRR) under EE; LPCR[MER] raises a
// mediated External in a guest with EE=1; HVI and External come before DEC; External is a
// level that taking it does not clear.
#include <gtest/gtest.h>

#include <memory>

#include <systemc>

#include "models/exception_logic.h"
#include "models/time_base.h"
#include "models/timer_unit_factory.h"
#include "sc_test_guard.h"

namespace nestvp::test {
namespace {

constexpr uint64_t guest_ee = msr::sf | msr::me | msr::ee;  // HV=0
constexpr uint64_t guest_no_ee = msr::sf | msr::me;
constexpr uint64_t hyp_no_ee = msr::sf | msr::hv | msr::me;

struct rig {
    time_base tb{"tb"};
    std::unique_ptr<timer_unit_if> unit = make_timer_unit("timers", tb, timer_unit_options{});
    exception_logic ic{"ic", guest_no_ee, lpcr::ld};
    rig() {
        ic.timer_lines.bind(*unit);
        sc_core::sc_start(sc_core::SC_ZERO_TIME);
    }
};

TEST(ExternalClass, GatingAndDelivery) {
    NESTVP_SC_TEST_GUARD();
    rig r;
    exception_logic& ic = r.ic;
    EXPECT_FALSE(ic.pending_vector());
    ic.set_external(true);
    // L1 (no HVICE) with EE=0: held; EE=1: External through SRR, still pending after it.
    EXPECT_FALSE(ic.pending_vector());
    ic.set_msr(guest_ee);
    ASSERT_TRUE(ic.pending_vector());
    EXPECT_EQ(*ic.pending_vector(), vector::external);
    const interrupt_record ext = ic.take(0x2000);
    EXPECT_FALSE(ext.hypervisor);
    EXPECT_EQ(ic.srr0(), 0x2000u);
    EXPECT_TRUE(ic.external());
    // A guest under HVICE: HVI even with EE=0, through HSRR, to HV.
    ic.set_lpcr(lpcr::ld | lpcr::hvice);
    ic.set_msr(guest_no_ee);
    ASSERT_TRUE(ic.pending_vector());
    EXPECT_EQ(*ic.pending_vector(), vector::hv_virtualization);
    const interrupt_record hvi = ic.take(0x3000);
    EXPECT_TRUE(hvi.hypervisor);
    EXPECT_EQ(ic.hsrr0(), 0x3000u);
    EXPECT_TRUE(ic.msr() & msr::hv);
    // In the hypervisor with EE=0 nothing is deliverable; acknowledged, nothing stays.
    ic.set_msr(hyp_no_ee);
    EXPECT_FALSE(ic.pending_vector());
    ic.set_external(false);
    ic.set_msr(guest_ee);
    EXPECT_FALSE(ic.pending_vector());
}

TEST(ExternalClass, MediatedExternalNeedsAGuestWithEe) {
    NESTVP_SC_TEST_GUARD();
    rig r;
    exception_logic& ic = r.ic;
    ic.set_lpcr(lpcr::ld | lpcr::mer);
    EXPECT_FALSE(ic.pending_vector());  // EE=0
    ic.set_msr(hyp_no_ee | msr::ee);
    EXPECT_FALSE(ic.pending_vector());  // HV=1
    ic.set_msr(guest_ee);
    ASSERT_TRUE(ic.pending_vector());
    EXPECT_EQ(*ic.pending_vector(), vector::external);
    EXPECT_FALSE(ic.take(0x4000).hypervisor);
    ic.set_lpcr(lpcr::ld);
    ic.set_msr(guest_ee);
    EXPECT_FALSE(ic.pending_vector());
}

// §4.2: HVI, then External, come before DEC.
TEST(ExternalClass, ExternalsBeforeDec) {
    NESTVP_SC_TEST_GUARD();
    rig r;
    exception_logic& ic = r.ic;
    ic.set_msr(guest_ee);
    r.unit->write_dec(0);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
    ASSERT_TRUE(ic.pending_vector());
    EXPECT_EQ(*ic.pending_vector(), vector::decrementer);
    ic.set_external(true);
    EXPECT_EQ(*ic.pending_vector(), vector::external);
    ic.set_lpcr(lpcr::ld | lpcr::hvice);
    EXPECT_EQ(*ic.pending_vector(), vector::hv_virtualization);
}

}  // namespace
}  // namespace nestvp::test
