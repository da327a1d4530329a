#pragma once
// Which software context a hardware thread runs, and the switches between them: a hypervisor
// entering its guest (hrfid) and blocking until the guest traps, the guest's traps (an HV-class
// interrupt, `sc 1`, an HDSI on emulated MMIO), and an L1 `sc 1` into the L0 firmware on the
// same thread (timer-facilities.md §4.3; docs/hardware-thread.md). Each context is a SystemC
// thread; the run-ahead offset is handed between the two at entry and trap (docs/local-time.md).
// The owner retires the work charged so far before each switch.
#include <cstdint>
#include <functional>
#include <string>

#include <systemc>

#include "models/exception_logic.h"
#include "models/local_time.h"
#include "models/power_regs.h"
#include "models/sw_context.h"
#include "models/tb_register.h"

namespace nestvp {

class context_switch {
public:
    // `owner` names the thread in log lines; `trace` runs at each point where the thread's
    // software acts (the owner's trace hook, which may be empty); `wake_at` is the owner's
    // timed-wait slot, which the resumed context takes over.
    context_switch(std::string owner, exception_logic& irq, tb_register& tbr,
                   local_time::wake_slot& wake_at, const std::function<void()>& trace);

    context_level level() const { return m_level; }
    void set_level(context_level lvl) { m_level = lvl; }
    sw_context* host() { return m_host; }
    const sw_context* host() const { return m_host; }
    void set_host(sw_context* ctx) { m_host = ctx; }
    sw_context* guest() { return m_guest; }
    // The running context's NIA (the guest's in L2, else the host's).
    uint64_t current_nia() const;
    void set_nia(uint64_t nia);

    // From the hypervisor context: hrfid into `guest` (HSRR0/1 <- its NIA and MSR), then block
    // until it traps. Returns the trap.
    trap_info enter(sw_context& guest);
    // From the guest context: the trap `t` hands the thread back to the hypervisor; returns
    // when the guest is entered again.
    void guest_trap(const trap_info& t);
    // From the guest context: waits for the next entry of `guest`.
    void await_entry(sw_context& guest);
    // From the guest context: `sc 1` (System Call, LEV=1) with the hcall in guest.gpr; returns
    // the guest's r3 once re-entered.
    uint64_t guest_hcall();
    // From the guest context: an HDSI (0xE00) for an access to `ea` that has no translation.
    void guest_mmio_trap(uint64_t ea, bool store);

    // An L1 `sc 1` into the firmware on this thread: SRR0/1 <- the return NIA and MSR, MSR HV=1,
    // level L0, host ticks. hv_call_return restores what hv_call_enter saved (hrfid).
    struct hv_call_state {
        uint64_t msr = 0;
        context_level level = context_level::l0;
        uint64_t tb_offset = 0;
    };
    hv_call_state hv_call_enter();
    void hv_call_return(const hv_call_state& s);

    // When the last entry began running the guest, and when its trap was taken.
    sc_core::sc_time entry_time() const { return m_entry_time; }
    sc_core::sc_time trap_time() const { return m_trap_time; }

private:
    void trace() const {
        if (m_trace) m_trace();
    }

    std::string m_owner;
    exception_logic& m_irq;
    tb_register& m_tbr;
    local_time::wake_slot& m_wake_at;
    const std::function<void()>& m_trace;
    context_level m_level = context_level::l0;
    sw_context* m_host = nullptr;
    sw_context* m_guest = nullptr;
    trap_info m_trap;
    bool m_trap_pending = false;
    sc_core::sc_event m_trap_event;
    sc_core::sc_event m_resume;  // enter(): the guest context m_guest runs
    sc_core::sc_time m_entry_time, m_trap_time;
    sc_dt::uint64 m_handoff = 0;  // run-ahead passed between contexts at entry and trap
};

}  // namespace nestvp
