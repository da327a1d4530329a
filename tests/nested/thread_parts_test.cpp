// The parts a hardware_thread composes, each on its own: the hcall initiator (the TLM
// transaction of `sc 1`), the context switch (entry, traps, the L1 -> L0 call state) and the
// interrupt dispatch (a trap to the hypervisor or the running level's handler).
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>

#include <tlm_utils/simple_target_socket.h>
#include <systemc>

#include "models/context_switch.h"
#include "models/hcall_initiator.h"
#include "models/interrupt_dispatch.h"
#include "models/time_base.h"
#include "models/timer_unit_factory.h"
#include "sc_test_guard.h"

namespace nestvp {
namespace {

// A firmware stand-in: answers r4 + 1 in r4, names the calling thread in r5, annotates 5 ns, and
// can answer an error or call back into the initiator.
struct echo_target : sc_core::sc_module {
    tlm_utils::simple_target_socket<echo_target> socket;
    tlm::tlm_response_status answer = tlm::TLM_OK_RESPONSE;
    hcall_initiator* reenter = nullptr;

    explicit echo_target(const sc_core::sc_module_name& n)
        : sc_core::sc_module(n), socket("socket") {
        socket.register_b_transport(this, &echo_target::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
        hcall_extension* ext = nullptr;
        gp.get_extension(ext);
        ASSERT_NE(ext, nullptr);
        EXPECT_EQ(gp.get_address(), ext->frame.r[3]);
        if (reenter) {
            hcall_frame again{};
            reenter->call(again, 0);  // throws: one call at a time
        }
        ext->frame.r[4] += 1;
        ext->frame.r[5] = ext->thread_id;
        ext->frame.r[3] = 0;
        delay += sc_core::sc_time(5, sc_core::SC_NS);
        gp.set_response_status(answer);
    }
};

struct initiator_rig : sc_core::sc_module {
    hcall_initiator hcalls{"hcall_socket", "rig.t0"};
    explicit initiator_rig(const sc_core::sc_module_name& n) : sc_core::sc_module(n) {}
};

TEST(HcallInitiator, CarriesTheFrameAndThreadAndReturnsTheAnnotatedDelay) {
    NESTVP_SC_TEST_GUARD();
    initiator_rig rig("rig");
    echo_target fw("fw");
    rig.hcalls.socket.bind(fw.socket);
    hcall_frame f{};
    f.r[3] = 0x480;
    f.r[4] = 41;
    sc_core::sc_time delay;
    sc_core::sc_spawn([&] { delay = rig.hcalls.call(f, 7); });
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
    EXPECT_TRUE(rig.hcalls.bound());
    EXPECT_EQ(f.r[3], 0u);
    EXPECT_EQ(f.r[4], 42u);
    EXPECT_EQ(f.r[5], 7u);
    EXPECT_EQ(delay, sc_core::sc_time(5, sc_core::SC_NS));
}

TEST(HcallInitiator, AnErrorResponseAnswersHFunction) {
    NESTVP_SC_TEST_GUARD();
    initiator_rig rig("rig");
    echo_target fw("fw");
    fw.answer = tlm::TLM_ADDRESS_ERROR_RESPONSE;
    rig.hcalls.socket.bind(fw.socket);
    hcall_frame f{};
    f.r[3] = 0x480;
    sc_core::sc_spawn([&] { rig.hcalls.call(f, 0); });
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
    EXPECT_EQ(f.r[3], static_cast<uint64_t>(-2));
}

TEST(HcallInitiator, ACallWhileOneIsInFlightIsALogicErrorAndTheNextCallWorks) {
    NESTVP_SC_TEST_GUARD();
    initiator_rig rig("rig");
    echo_target fw("fw");
    rig.hcalls.socket.bind(fw.socket);
    std::string error;
    hcall_frame f{};
    f.r[4] = 1;
    sc_core::sc_spawn([&] {
        fw.reenter = &rig.hcalls;
        try {
            rig.hcalls.call(f, 0);
        } catch (const std::logic_error& e) {
            error = e.what();
        }
        fw.reenter = nullptr;
        rig.hcalls.call(f, 0);  // no longer in flight
    });
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
    EXPECT_NE(error.find("rig.t0: hcall issued while another is in flight"), std::string::npos)
        << error;
    EXPECT_EQ(f.r[4], 2u);
}

TEST(HcallInitiator, UnboundIsSaidSo) {
    NESTVP_SC_TEST_GUARD();
    initiator_rig rig("rig");
    EXPECT_FALSE(rig.hcalls.bound());
}

// One thread's interrupt state and TB register, with the two parts on them.
struct contexts_rig {
    time_base tb{"tb"};
    std::unique_ptr<timer_unit_if> unit{make_timer_unit("timers", tb, {})};
    exception_logic irq{"irq", msr::sf | msr::hv | msr::me, lpcr::hdice | lpcr::hvice};
    tb_register tbr{tb};
    local_time::wake_slot wake_at;
    std::function<void()> trace;
    unsigned traced = 0;
    context_switch contexts{"t0", irq, tbr, wake_at, trace};
    interrupt_dispatch dispatch{"t0", irq, contexts};
    sw_context host, guest;

    contexts_rig() {
        irq.timer_lines.bind(*unit);
        trace = [this] { ++traced; };
        host.name = "l1";
        host.level = context_level::l1;
        host.nia = 0x1000;
        contexts.set_host(&host);
        contexts.set_level(context_level::l1);
        guest.name = "l2";
        guest.level = context_level::l2;
        guest.nia = 0x7000;
        guest.msr = msr::sf | msr::me | msr::ee;  // a guest: HV=0
        guest.tb_offset = 1234;
    }
};

// Entry (hrfid) runs the guest with its MSR, level and TB offset; its `sc 1` traps back with
// SRR0/1 and vector 0xC00 at NIA + 4, and L0 runs on host ticks; the next entry returns the
// guest's r3 from its hcall.
TEST(ContextSwitch, EntryAndAGuestHcallRoundTrip) {
    NESTVP_SC_TEST_GUARD();
    contexts_rig r;
    trap_info trap;
    uint64_t guest_r3 = 0, msr_in_guest = 0, offset_in_guest = 0;
    context_level level_in_guest = context_level::l0;
    sc_core::sc_spawn([&] {
        r.contexts.await_entry(r.guest);
        level_in_guest = r.contexts.level();
        msr_in_guest = r.irq.msr();
        offset_in_guest = r.tbr.offset();
        r.guest.gpr[3] = 0x1234;
        guest_r3 = r.contexts.guest_hcall();
    });
    sc_core::sc_spawn([&] {
        trap = r.contexts.enter(r.guest);
        EXPECT_EQ(r.contexts.level(), context_level::l0);
        EXPECT_EQ(r.tbr.offset(), 0u);  // L0 on host ticks
        r.guest.gpr[3] = 99;            // the hcall's answer
        r.guest.msr = msr::sf | msr::me | msr::ee;
        r.contexts.enter(r.guest);
    });
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
    EXPECT_EQ(level_in_guest, context_level::l2);
    EXPECT_EQ(msr_in_guest, r.guest.msr);
    EXPECT_EQ(offset_in_guest, 1234u);
    EXPECT_EQ(trap.vector, 0xC00u);
    EXPECT_EQ(trap.nia, 0x7004u);
    EXPECT_EQ(r.guest.srr0, 0x7004u);  // SRR0 <- NIA of the sc + 4
    EXPECT_EQ(guest_r3, 99u);
    EXPECT_GE(r.traced, 2u);  // before the hand-over and after the trap
}

// HDSI: HDAR the address, HDSISR's store bit for a store only, ASDR its page.
TEST(ContextSwitch, AnMmioStoreTrapsAsHdsiWithItsAddress) {
    NESTVP_SC_TEST_GUARD();
    contexts_rig r;
    trap_info trap;
    sc_core::sc_spawn([&] {
        r.contexts.await_entry(r.guest);
        r.contexts.guest_mmio_trap(0x6003'0011ull, true);
    });
    sc_core::sc_spawn([&] { trap = r.contexts.enter(r.guest); });
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
    EXPECT_EQ(trap.vector, 0xE00u);
    EXPECT_EQ(trap.nia, 0x7000u);
    EXPECT_EQ(trap.hdar, 0x6003'0011ull);
    EXPECT_EQ(trap.hdsisr, 0x02000000ull);
    EXPECT_EQ(trap.asdr, 0x6003'0000ull);
}

// An L1 `sc 1` into L0: SRR0 the return NIA, MSR HV=1, level L0, host ticks; all restored.
TEST(ContextSwitch, AnL1CallIntoL0SavesAndRestoresTheCallersState) {
    NESTVP_SC_TEST_GUARD();
    contexts_rig r;
    r.irq.set_msr(msr::sf | msr::me | msr::ee);  // L1: a partition of L0, HV=0
    r.tbr.set_offset(500);
    const auto saved = r.contexts.hv_call_enter();
    EXPECT_EQ(r.irq.srr0(), 0x1004u);
    EXPECT_TRUE(r.irq.msr() & msr::hv);
    EXPECT_FALSE(r.irq.msr() & msr::ee);
    EXPECT_EQ(r.contexts.level(), context_level::l0);
    EXPECT_EQ(r.tbr.offset(), 0u);
    r.contexts.hv_call_return(saved);
    EXPECT_EQ(r.irq.msr(), msr::sf | msr::me | msr::ee);
    EXPECT_EQ(r.contexts.level(), context_level::l1);
    EXPECT_EQ(r.tbr.offset(), 500u);
}

TEST(InterruptDispatch, OnlyHdecAndHviInAGuestTrapToTheHypervisor) {
    EXPECT_TRUE(interrupt_dispatch::traps_to_hypervisor(context_level::l2, vector::hdecrementer));
    EXPECT_TRUE(
        interrupt_dispatch::traps_to_hypervisor(context_level::l2, vector::hv_virtualization));
    EXPECT_FALSE(interrupt_dispatch::traps_to_hypervisor(context_level::l2, vector::decrementer));
    EXPECT_FALSE(interrupt_dispatch::traps_to_hypervisor(context_level::l2, vector::external));
    EXPECT_FALSE(interrupt_dispatch::traps_to_hypervisor(context_level::l1, vector::hdecrementer));
    EXPECT_FALSE(interrupt_dispatch::traps_to_hypervisor(context_level::l0, vector::hdecrementer));
}

// A DEC at L1 runs L1's handler with SRR0 = the running NIA; with no handler, a logic error
// names the thread.
TEST(InterruptDispatch, ADecAtL1RunsL1sHandlerAndNoHandlerIsAnError) {
    NESTVP_SC_TEST_GUARD();
    contexts_rig r;
    r.irq.set_msr(msr::sf | msr::me | msr::ee);
    interrupt_record got;
    unsigned calls = 0;
    r.dispatch.set_handler(context_level::l1, [&](const interrupt_record& rec) {
        got = rec;
        ++calls;
    });
    std::string error;
    sc_core::sc_spawn([&] {
        r.unit->write_dec(0x80000000u);  // bit 31 set: the DEC level (§2.2)
        ASSERT_EQ(r.irq.pending_vector(), std::optional<uint32_t>(vector::decrementer));
        r.dispatch.take(vector::decrementer);
        r.contexts.set_level(context_level::l0);
        try {
            r.dispatch.take(vector::decrementer);
        } catch (const std::logic_error& e) {
            error = e.what();
        }
    });
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
    EXPECT_EQ(calls, 1u);
    EXPECT_EQ(got.vector, vector::decrementer);
    EXPECT_EQ(got.save0, 0x1000u);
    EXPECT_FALSE(got.hypervisor);
    EXPECT_NE(error.find("t0: no handler"), std::string::npos) << error;
}

// An HDEC while the guest runs is a trap to its hypervisor (vector 0x980, HSRR0 the guest's
// NIA), not the guest's handler.
TEST(InterruptDispatch, AnHdecInTheGuestTrapsToItsHypervisor) {
    NESTVP_SC_TEST_GUARD();
    contexts_rig r;
    bool guest_handler_ran = false;
    r.dispatch.set_handler(context_level::l2,
                           [&](const interrupt_record&) { guest_handler_ran = true; });
    trap_info trap;
    sc_core::sc_spawn([&] {
        r.contexts.await_entry(r.guest);
        r.unit->write_hdec(0);  // 0 -> -1 at the next tick: the HDEC edge (§3)
        sc_core::wait(r.tb.time_of(r.tb.ticks() + 2) - sc_core::sc_time_stamp());
        ASSERT_TRUE(r.irq.pending_vector().has_value());
        r.dispatch.take(*r.irq.pending_vector());
    });
    sc_core::sc_spawn([&] { trap = r.contexts.enter(r.guest); });
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
    EXPECT_FALSE(guest_handler_ran);
    EXPECT_EQ(trap.vector, vector::hdecrementer);
    EXPECT_EQ(trap.nia, 0x7000u);
}

}  // namespace
}  // namespace nestvp
