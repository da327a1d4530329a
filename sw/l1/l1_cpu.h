#pragma once
// One CPU of the L1 KVM host (an L1 vCPU on its own hardware thread): its timer core (the
// periodic tick at l1.hz while busy, NO_HZ idle, hrtimers), the DEC it programs
// (timer-facilities.md §6), its timer interrupt, and idle: with nothing to run it cedes the
// thread to L0 (H_CEDE) until its next timer event.
#include <cstdint>
#include <functional>
#include <vector>

#include "models/cpu_if.h"
#include "sw/l1/l1_config.h"
#include "sw/probes/nested_probe.h"

namespace nestvp {

// An hrtimer on this CPU; expiry in L1 TB.
struct hrtimer {
    uint64_t expiry = 0;
    bool armed = false;
    std::function<void()> callback;
};

class l1_cpu {
public:
    l1_cpu(cpu_if& thread, sw_context& ctx, const l1_config& cfg, bool large_dec, unsigned dec_bits,
           const l1_costs& costs, nested_probe& probe);

    cpu_if& cpu() { return m_thread; }
    unsigned id() const { return m_id; }  // the CPU's number (cpu_if::id), fixed at boot
    sw_context& context() { return m_ctx; }
    uint64_t mftb() const { return m_thread.mftb(); }
    void exec(double cycles) { m_thread.charge(cycles); }

    // Boot: install the timer interrupt handler, start the tick, program DEC.
    void start();
    // timer_get_next_tb(): this CPU's next timer event (L1 TB).
    uint64_t next_timer_event() const;
    void start_hrtimer(hrtimer& t, uint64_t expiry);
    void cancel_hrtimer(hrtimer& t);
    // timer_rearm_host_dec / set_dec: DEC = next event - 1 tick (§6).
    void program_dec();

    // Interrupt enable (local_irq_enable / hard-disable); enabling takes a pending DEC.
    void irq_enable();
    void irq_disable();
    // lazy_irq_pending: an interrupt of this CPU (its DEC, a host IPI) is waiting for EE.
    bool irq_pending() { return m_thread.external_pending() || m_thread.dec_pending(); }

    // The vCPU task sleeps until `woken()` holds: the CPU idles (tick stopped) and cedes to
    // L0 between timer interrupts (each may run hrtimer callbacks that wake the task).
    void block_until(const std::function<bool()>& woken);
    // Halt polling (kvm_vcpu_halt, virt/kvm/kvm_main.c): spin up to `window_ns` with interrupts
    // on (an expiring hrtimer may wake the task); true if `woken` held before the window ended.
    bool poll_until(const std::function<bool()>& woken, double window_ns);

private:
    void timer_interrupt(const interrupt_record& rec);
    // The host IPI's handler (0x500): acknowledge it at the interrupt controller and return;
    // the woken vCPU task or the exit it forced does the rest.
    void host_ipi(const interrupt_record& rec);

    cpu_if& m_thread;
    const unsigned m_id;
    sw_context& m_ctx;
    l1_costs m_costs;
    nested_probe& m_probe;
    uint64_t m_tick_period;
    uint64_t m_dec_max;
    bool m_tick_running = false;
    uint64_t m_next_tick = 0;
    std::vector<hrtimer*> m_hrtimers;
};

}  // namespace nestvp
