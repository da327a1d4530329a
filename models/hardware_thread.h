#pragma once
// One SMT hardware thread: its DEC/HDEC unit, interrupt delivery and TB register, the context
// it runs (L0 firmware, an L1 vCPU or an L2 vCPU), and the work primitive compute(cycles).
//
// Each software context is a SystemC thread (coroutine); exactly one runs on the hardware
// thread at a time. A hypervisor context enters a guest with enter() and blocks until the
// guest traps (an HV-class interrupt or `sc 1`). Hypervisor calls from L1 leave the thread as
// TLM-2.0 transactions to the L0 firmware (hcall_socket, models/hcall_protocol.h); the call runs
// L0's code on this thread, which L0 reaches through hv_thread_if, bound by the platform.
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "models/context_switch.h"
#include "models/core.h"
#include "models/cpu_if.h"
#include "models/exception_logic.h"
#include "models/hcall_initiator.h"
#include "models/hcall_protocol.h"
#include "models/interrupt_dispatch.h"
#include "models/local_time.h"
#include "models/sw_context.h"
#include "models/tb_register.h"
#include "models/timer_unit_factory.h"

namespace nestvp {

class hardware_thread final : public sc_core::sc_module,
                              public local_time::wake_source,
                              public rate_listener,
                              public hv_thread_if,
                              public cpu_if {
public:
    // Optional: a thread with no firmware attached (unit tests) answers hcalls with H_FUNCTION.
    // The hcall initiator's socket (models/hcall_initiator.h).
    tlm_utils::simple_initiator_socket_optional<hcall_initiator>& hcall_socket;

    hardware_thread(const sc_core::sc_module_name& name, core& owner, unsigned index,
                    const timer_unit_options& timer_opts);

    core& owner() { return m_core; }
    unsigned index() const { return m_index; }  // within its core
    // Platform-wide thread number (statistics); defaults to the index within the core.
    unsigned id() const override { return hv_thread_if::id(); }
    void set_id(unsigned id) { set_thread_id(id); }
    // Architected state. Each access first retires the cycles charged so far (settle()), so
    // whatever the software observes or changes happens at the right simulated time.
    timer_unit_if& timers() override {
        settle();
        return *m_timers;
    }
    exception_logic& irq() override {
        settle();
        return m_irq;
    }
    // The timer unit as it is, for observers outside the thread's software (a trace sampling
    // every thread): retires nothing. A thread whose software is suspended owes no cycles.
    timer_unit_if& timers_as_is() { return *m_timers; }
    tb_register& tbr() {
        settle();
        return m_tbr;
    }
    uint64_t mftb() override {
        settle();
        return m_tbr.read();
    }
    uint64_t tb_freq_hz() const override { return m_core.tb().freq_hz(); }
    uint64_t time_of_host_ticks(uint64_t host_ticks) const override {
        return m_core.tb().time_of(host_ticks).value();
    }
    double now_seconds() const override;

    // cpu_if's SPR and interrupt-state accesses: each through timers() or irq(), which settle.
    uint64_t read_dec() override { return timers().read_dec(); }
    void write_dec(uint64_t value) override { timers().write_dec(value); }
    bool dec_pending() override { return timers().dec_pending(); }
    uint64_t msr() override { return irq().msr(); }
    void set_msr(uint64_t value) override { irq().set_msr(value); }
    uint64_t lpcr() override { return irq().lpcr(); }
    uint64_t srr0() override { return irq().srr0(); }
    uint64_t srr1() override { return irq().srr1(); }
    void set_srr(uint64_t srr0, uint64_t srr1) override { irq().set_srr(srr0, srr1); }
    uint64_t rfid() override { return irq().rfid(); }
    std::optional<uint32_t> pending_vector() override { return irq().pending_vector(); }
    bool external_pending() override { return irq().external(); }

    // Work: retire `cycles` at this thread's share of the core. Returns early, with the cycles
    // done, as soon as an enabled interrupt is pending; re-rated whenever a sibling starts or
    // stops. Must be called from the running context's SystemC thread.
    struct compute_result {
        double done = 0;
        bool interrupted = false;
    };
    compute_result compute(double cycles);
    // Busy-waits (a spin loop: the thread stays active) for `d` of simulated time or until
    // `stop()` holds, taking each interrupt as it comes (a handler may make it hold). Returns
    // true if the time ran out. The guest's snooze loop (docs/l2-kernel.md), L1's halt polling.
    bool spin_for(const sc_core::sc_time& d, const std::function<bool()>& stop);
    bool spin_for(double amount, time_unit unit, const std::function<bool()>& stop) override {
        return spin_for(
            sc_core::sc_time(amount, unit == time_unit::us ? sc_core::SC_US : sc_core::SC_NS),
            stop);
    }
    // compute() until all cycles are done, taking each interrupt as it comes: OS-level ones go
    // to the running level's handler; HV-class ones in a guest trap to the hypervisor.
    void execute(double cycles) override;
    // The cost of a software step. With MSR[EE]=1 it is retired at once (an interrupt handler
    // may observe the order of the steps). With EE=0 no interrupt of this context can run, so
    // steps are accumulated and retired in one compute() at the next point where the thread
    // does something observable (an architected-state access, an hcall, a guest entry or trap,
    // an activity or level change, or compute()); nothing moves in simulated time in between.
    void charge(double cycles) override {
        if (m_irq.msr() & msr::ee)
            execute(cycles);
        else
            m_owed += cycles;
    }
    void settle() override {
        if (m_owed > 0) execute(0);
    }
    // A stall of `d` that occupies the thread (a memory access's annotated delay): charged as
    // the cycles the thread retires in `d` at its current share of the core.
    void stall(const sc_core::sc_time& d) override {
        if (d == sc_core::SC_ZERO_TIME) return;
        charge(static_cast<double>(d.value()) / m_units_per_second * m_core.thread_rate(m_index));
    }
    // When the work charged so far ends if retired at the current rate (sc_time value): the
    // start of the software's next step, for path marks. Retires nothing.
    uint64_t step_time() const override;
    uint64_t host_ticks() override {
        settle();
        return m_core.tb().ticks();
    }
    uint64_t host_tb_offset() const override {
        const sw_context* h = m_contexts.host();
        return h ? h->tb_offset : 0;
    }
    void set_handler(context_level lvl, interrupt_handler handler) override;

    // Context bookkeeping.
    context_level level() const { return m_contexts.level(); }
    void set_level(context_level lvl) override {
        settle();
        m_contexts.set_level(lvl);
    }
    sw_context* host() { return m_contexts.host(); }
    void set_host(sw_context* ctx) { m_contexts.set_host(ctx); }
    sw_context* guest() { return m_contexts.guest(); }
    uint64_t current_nia() const { return m_contexts.current_nia(); }
    void set_nia(uint64_t nia) override { m_contexts.set_nia(nia); }

    // From the hypervisor context: hand the thread to `guest` (MSR <- guest.msr via hrfid) and
    // block until it traps. Returns the trap.
    trap_info enter(sw_context& guest) override;
    // From the guest context: waits for the next entry (enter()), at the entering thread's
    // local time. A guest's first instruction waits here.
    void await_entry(sw_context& guest) override { m_contexts.await_entry(guest); }
    // From the guest context: `sc 1` with the hcall in guest.gpr; blocks until re-entered and
    // returns the guest's r3 then.
    uint64_t guest_hcall() override;
    // From the guest context: a store to emulated MMIO at `ea` (no translation for it in the
    // partition): a Hypervisor Data Storage interrupt to the hypervisor; blocks until re-entered.
    void guest_mmio_store(uint64_t ea) override;
    // The same for a load: HDSISR without the store bit. Returns the loaded value (the VMM's
    // reply, which L1 writes into the target GPR before the next entry).
    uint64_t guest_mmio_load(uint64_t ea) override;
    // The HDSI both take.
    void guest_mmio_trap(uint64_t ea, bool store);
    // From another thread's software: an interrupt-controller message to this thread's
    // partition (a host IPI: XIVE or msgsnd) raises its external line, which that partition's
    // handler acknowledges (ack_external). Retires nothing of this thread's work.
    void host_ipi() override { m_irq.set_external(true); }
    void ack_external() override { irq().set_external(false); }
    // From the L1 context: `sc 1` to L0 as a TLM transaction; frame.r[3] holds the number.
    void hcall(hcall_frame& frame) override;

    // SMT activity (a ceded thread is inactive).
    void set_active(bool active) override {
        settle();
        m_core.set_active(m_index, active);
        trace();
    }
    // Called at every point where the thread's software acts (tracing); empty by default.
    void set_trace_hook(std::function<void()> hook) { m_trace_hook = std::move(hook); }
    bool active() const { return m_core.is_active(m_index); }
    // SMT thread priority: low while spinning idle (HMT_low), normal otherwise.
    void set_low_priority(bool low) override {
        settle();
        m_core.set_low_priority(m_index, low);
    }

    // Time passing in L0 (a TLM annotated delay): retires what is charged, then waits `d`.
    void wait_for(const sc_core::sc_time& d);
    // Waits for an event that a thread of another core may notify: meanwhile this thread's
    // wake time is unknown, so its siblings do not run ahead (docs/local-time.md).
    void wait_external(const sc_core::sc_event& e);
    void wait_for_wake() override;
    void wait_signal(const cpu_signal& s) override { wait_external(s.event()); }
    // Run-ahead bound for the core's threads: this thread's timed wait or timer edge.
    sc_dt::uint64 next_wake() const override {
        return std::min(m_wake_at.value(), m_timers->next_wake());
    }
    void wake_slots(std::vector<const local_time::wake_slot*>& out) const override {
        out.push_back(&m_wake_at);
        m_timers->wake_slots(out);
    }

    // Cycles retired per accounting class, including the compute() in progress.
    double cycles(accounting a) const override;
    sc_core::sc_time entry_time() const override { return m_contexts.entry_time(); }
    sc_core::sc_time trap_time() const override { return m_contexts.trap_time(); }
    uint64_t entry_time_value() const override { return m_contexts.entry_time().value(); }
    uint64_t trap_time_value() const override { return m_contexts.trap_time().value(); }

private:
    void trace() {
        if (m_trace_hook) m_trace_hook();
    }
    void dispatch_interrupt();
    void busy_segment(sc_dt::uint64 units, double& remaining, double& done,
                      const std::function<bool()>* stop);
    sc_dt::uint64 segment_units(double cycles, double rate) const;
    double seconds_of(sc_dt::uint64 units) const {
        return local_time::seconds_of(units, m_resolution_fs);
    }
    void account_segment(sc_dt::uint64 now);
    sc_dt::uint64 wait_wake();
    // The next timed wake of the waiting segment, from SystemC time `now`: its deadline, or for
    // a long segment the horizon before it (below).
    void rearm(sc_dt::uint64 now);
    void arm_horizon(sc_dt::uint64 at);
    // The core re-rated its threads: a waiting segment is split at `at` (core.h).
    void rerated(sc_dt::uint64 at) override;
    accounting current_accounting() const;

    core& m_core;
    unsigned m_index;
    std::unique_ptr<timer_unit_if> m_timers;
    exception_logic m_irq;
    tb_register m_tbr;
    std::function<void()> m_trace_hook;
    local_time::wake_slot m_wake_at;  // end of this thread's timed wait, if any
    // Its jobs besides the work itself, each a class of its own: which context runs and the
    // switches between them, where an interrupt goes, the hcall transaction.
    context_switch m_contexts;
    interrupt_dispatch m_dispatch;
    hcall_initiator m_hcalls;

    // What compute() and spin_for() wait on: the segment's deadline (a timed notification),
    // the exception logic's deliverable changes, and a re-rate that ends the segment.
    sc_core::sc_event m_wake;
    // A segment longer than the horizon (arithoh's chunks: hundreds of ms) is not given its
    // deadline as a notification of `wake`: every re-rate that moves it earlier, and every
    // interrupt, would leave a dead entry in the kernel's timed queue until the old deadline.
    // It waits on `wake` or `horizon`, which is armed at most one horizon ahead and re-armed
    // when it fires alone (nothing acted; docs/hardware-thread.md). Host speed only: no result
    // depends on it.
    static constexpr double horizon_seconds = 1e-3;
    sc_core::sc_event m_horizon;
    sc_core::sc_event_or_list m_wake_or_horizon;
    const sc_dt::uint64 m_horizon_units;             // horizon_seconds in time-value units
    sc_dt::uint64 m_horizon_at = ~sc_dt::uint64{0};  // its pending notification, if any
    const double m_resolution_s;                     // the time resolution in seconds (fixed)
    const double m_units_per_second;                 // SystemC time-value units per second (fixed)
    const double m_resolution_fs;                    // local_time::resolution_fs()

    double m_owed = 0;  // charged, not yet retired
    std::array<double, acct_count> m_cycles{};
    // The segment of compute() or spin_for() that waits now. A re-rate retires its cycles at
    // the old rate and restarts it at the new one in place (rerated()), without waking the
    // thread, unless the caller's loop would stop there.
    struct segment {
        bool active = false;
        bool ended = false;  // by a re-rate, already accounted; the thread is woken
        accounting acct = acct_l0;
        double rate = 0;
        sc_dt::uint64 start = 0;  // sc_time value
        sc_dt::uint64 deadline = 0;
        double* remaining = nullptr;  // the caller's cycles left (infinite for spin_for)
        double* done = nullptr;       // the caller's cycles retired
        const std::function<bool()>* stop = nullptr;  // spin_for's condition
        bool long_wait = false;  // longer than the horizon: timed wakes through m_horizon
    } m_seg;
};

}  // namespace nestvp
