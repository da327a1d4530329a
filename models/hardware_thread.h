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
#include "models/thread_execution.h"
#include "models/timer_unit_factory.h"

namespace nestvp {

class hardware_thread final : public sc_core::sc_module, public hv_thread_if, public cpu_if {
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
    double now_seconds() const override { return local_time::now().to_seconds(); }

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

    // Work (thread_execution): retire `cycles` at this thread's share of the core; returns
    // early, with the cycles done, as soon as an enabled interrupt is pending. Must be called
    // from the running context's SystemC thread.
    using compute_result = thread_execution::compute_result;
    compute_result compute(double cycles) { return m_exec.compute(cycles); }
    // Busy-waits (the thread stays active) for `d` or until `stop()` holds, taking each
    // interrupt as it comes. The guest's snooze loop (docs/l2-kernel.md), L1's halt polling.
    bool spin_for(const sc_core::sc_time& d, const std::function<bool()>& stop) {
        return m_exec.spin_for(d, stop);
    }
    bool spin_for(double amount, time_unit unit, const std::function<bool()>& stop) override {
        return spin_for(
            sc_core::sc_time(amount, unit == time_unit::us ? sc_core::SC_US : sc_core::SC_NS),
            stop);
    }
    // compute() until all cycles are done, taking each interrupt as it comes: OS-level ones go
    // to the running level's handler; HV-class ones in a guest trap to the hypervisor.
    void execute(double cycles) override { m_exec.execute(cycles); }
    // The cost of a software step: retired at once with MSR[EE]=1, else accumulated until the
    // thread next does something observable (thread_execution::charge).
    void charge(double cycles) override { m_exec.charge(cycles); }
    void settle() override { m_exec.settle(); }
    // A stall of `d` that occupies the thread (a memory access's annotated delay).
    void stall(const sc_core::sc_time& d) override { m_exec.stall(d); }
    // When the work charged so far ends (sc_time value): the start of the software's next
    // step, for path marks. Retires nothing.
    uint64_t step_time() const override { return m_exec.step_time(); }
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
    void wait_for(const sc_core::sc_time& d) { m_exec.wait_for(d); }
    // Waits for an event that a thread of another core may notify: meanwhile this thread's
    // wake time is unknown, so its siblings do not run ahead (docs/local-time.md).
    void wait_external(const sc_core::sc_event& e) { m_exec.wait_external(e); }
    void wait_for_wake() override { m_exec.wait_for_wake(); }
    void wait_signal(const cpu_signal& s) override { wait_external(s.event()); }

    // Cycles retired per accounting class, including the compute() in progress.
    double cycles(accounting a) const override { return m_exec.cycles(a); }
    sc_core::sc_time entry_time() const override { return m_contexts.entry_time(); }
    sc_core::sc_time trap_time() const override { return m_contexts.trap_time(); }
    uint64_t entry_time_value() const override { return m_contexts.entry_time().value(); }
    uint64_t trap_time_value() const override { return m_contexts.trap_time().value(); }

private:
    void trace() {
        if (m_trace_hook) m_trace_hook();
    }
    void dispatch_interrupt();

    core& m_core;
    unsigned m_index;
    std::unique_ptr<timer_unit_if> m_timers;
    exception_logic m_irq;
    tb_register m_tbr;
    std::function<void()> m_trace_hook;
    local_time::wake_slot m_wake_at;  // end of this thread's timed wait, if any
    // Its jobs, each a class of its own: which context runs and the switches between them,
    // where an interrupt goes, the hcall transaction, the work.
    context_switch m_contexts;
    interrupt_dispatch m_dispatch;
    hcall_initiator m_hcalls;
    thread_execution m_exec;
};

}  // namespace nestvp
