// An L2 (guest, HV=0) context cannot write HDEC, LPCR or TBU40: the attempt raises the
// Hypervisor Emulation Assistance interrupt (0xE40, spr_access; timer-facilities.md §1, §4)
// and leaves the hypervisor's state unchanged.
#include <gtest/gtest.h>

#include <systemc>

#include "models/core.h"
#include "models/hardware_thread.h"
#include "models/spr_access.h"
#include "sc_test_guard.h"

TEST(guest_isolation, l2_cannot_write_hdec_lpcr_or_tbu40) {
    NESTVP_SC_TEST_GUARD();
    nestvp::core c("core", 3000000000ull, {1.0}, 512000000);
    nestvp::hardware_thread t("t", c, 0, {});
    bool checked = false;
    sc_core::sc_spawn([&] {
        using namespace nestvp;
        sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
        // The hypervisor sets its state, then runs a guest (HV=0, PR=0).
        t.irq().set_lpcr(lpcr::ld | lpcr::hdice);
        t.timers().write_hdec(1000000);
        t.tbr().set_offset(5ull << 24);
        t.irq().set_msr(msr::sf | msr::me | msr::ee);
        spr_access spr(t.irq(), t.timers(), t.tbr());
        const uint64_t hdec_before = t.timers().read_hdec();
        const uint64_t lpcr_before = t.irq().lpcr();
        const uint64_t offset_before = t.tbr().offset();
        for (unsigned num : {spr::hdec, spr::lpcr, spr::tbu40, spr::tbl_w}) {
            const spr_result r = spr.mtspr(num, 0x5);
            ASSERT_FALSE(r.ok()) << spr_access::spr_name(num);
            EXPECT_EQ(*r.exception, vector::hv_emulation) << spr_access::spr_name(num);
        }
        EXPECT_EQ(t.timers().read_hdec(), hdec_before - 0);  // same tick: unchanged
        EXPECT_EQ(t.irq().lpcr(), lpcr_before);
        EXPECT_EQ(t.tbr().offset(), offset_before);
        // The guest may still program its own DEC.
        EXPECT_TRUE(spr.mtspr(spr::dec, 1000).ok());
        // Taking the refused access goes to the hypervisor: HSRR0/1, MSR[HV]=1.
        const interrupt_record rec = spr.raise(spr.mtspr(spr::hdec, 1), 0x4000);
        EXPECT_TRUE(rec.hypervisor);
        EXPECT_EQ(t.irq().hsrr0(), 0x4000u);
        EXPECT_TRUE(t.irq().msr() & msr::hv);
        checked = true;
    });
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    EXPECT_TRUE(checked);
}
