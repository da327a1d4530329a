#pragma once
// The L2 guest kernel of one vCPU (timer-facilities.md §6, nested-virtualization.md §4):
// a clockevent on DEC (set_dec writes evt-1; minimum 2 ticks, maximum decrementer_max), a
// timer_interrupt that handles due and early DECs, a periodic tick at l2.hz while busy, NO_HZ
// idle that programs the next timer event, housekeeping timers on idle vCPUs, and the pseries
// idle loop: a cpuidle governor picks snooze (a spin at low SMT priority, no exit) or Shared
// Cede (H_CEDE) (drivers/cpuidle/cpuidle-pseries.c, l2-idle-and-get-state-paths.md §1;
// docs/l2-kernel.md). In nestedv2 L2 takes its own DEC interrupts and rewrites DEC with no
// exit. Each path charges its cost in cycles.
#include <cstdint>
#include <random>
#include <vector>

#include "models/cpu_if.h"
#include "sw/l2/l2_config.h"
#include "sw/papr/guest_irq_queue.h"
#include "sw/probes/nested_probe.h"
#include "sw/workloads/workload.h"

namespace nestvp {

// One vCPU's kernel: the guest's config, plus what differs per vCPU and what it learns from
// the machine.
struct l2_params : l2_config {
    unsigned vcpu = 0;
    unsigned vcpus = 1;
    bool large_dec = true;
    unsigned dec_bits = 56;
    uint64_t seed = 1;
    // vCPU 0 sends the IPIs, to the others in turn: 1, 2, ... modulo `vcpus`.
    double ipi_hz() const { return vcpu == 0 ? devices_ipi_hz : 0.0; }
};

// The guests' vCPUs as the scheduler sees them: which ones poll in snooze with
// TIF_POLLING_NRFLAG, and their need_resched flags (a wake-up of a polling CPU sets the flag
// and sends no IPI: set_nr_if_polling, kernel/sched/core.c).
struct l2_sched_view {
    std::vector<uint8_t> polling, need_resched;
};

class l2_kernel {
public:
    l2_kernel(cpu_if& thread, sw_context& ctx, const l2_params& params, const l2_costs& costs,
              nested_probe& probe, workload* work, guest_irq_queue& irqs, l2_sched_view& sched);

    // The vCPU's program (a SystemC thread): waits for its first entry, then boots and runs
    // its workload, or idles.
    void main();
    sw_context& context() { return m_ctx; }
    uint64_t decrementer_max() const { return m_dec_max; }

private:
    uint64_t mftb() const { return m_thread.mftb(); }
    void exec(double cycles) { m_thread.charge(cycles); }
    // clockevent: decrementer_set_next_event / set_dec (L-time, §6).
    void set_next_event(uint64_t delta_ticks);
    // Exception entry and prolog into any L2 handler (l2.costs.interrupt_entry).
    void interrupt_entry();
    void timer_interrupt(const interrupt_record& rec);
    // timer_interrupt_latency_ns: the DEC edge at L2 TB `edge_tb` to the handler's start (after
    // interrupt_entry), classified by where the vCPU was at the edge.
    void sample_timer_latency(uint64_t edge_tb, uint64_t handler_start);
    void run_expired_timers(uint64_t now);
    void program_next_event();
    void idle_loop();
    enum class idle_state { snooze, cede };
    // The governor's pick (menu_select, drivers/cpuidle/governors/menu.c), from the time to the
    // next timer event and the last idle period's measured length (docs/l2-kernel.md).
    idle_state select_idle_state(uint64_t now) const;
    // snooze_loop: spin at HMT_low until need_resched or the timeout; returns the idle length.
    void snooze(uint64_t start);
    void trace_idle(tracepoint point, idle_state state);
    // stop_tick: NO_HZ idle stops the tick (false for the boot idle of l2.booted_idle).
    void cede(uint64_t start, bool stop_tick = true);
    double us_since(uint64_t start_tb) {
        return static_cast<double>(mftb() - start_tb) / m_tb_per_us;
    }
    uint64_t next_housekeeping_interval();
    uint64_t next_interval(double hz, std::mt19937_64& rng);
    // An exit taken from inside an interrupt handler: SRR0/1 are kept in the interrupt frame
    // (pt_regs) around it, as the handler's rfid needs them.
    template <class F>
    void keeping_frame(F&& exit) {
        const uint64_t srr0 = m_thread.srr0(), srr1 = m_thread.srr1();
        exit();
        m_thread.set_srr(srr0, srr1);
    }
    // A load or store to a XIVE page (TIMA or ESB): an HDSI exit (docs/interrupt-controller.md).
    void xive_access(uint64_t ea, bool store, uint64_t value = 0);
    // An hcall from kernel code inside an interrupt handler: SRR0/1 are kept in the interrupt
    // frame around it, as the handler's rfid needs them. Returns r3.
    uint64_t hcall_in_handler(uint64_t nr, uint64_t a4 = 0, uint64_t a5 = 0);
    void send_ipi();
    // do_IRQ for the external (0x500): accept, each source's action, end of interrupt.
    void external_interrupt(const interrupt_record& rec);
    void ipi_action();
    void device_action();

    cpu_if& m_thread;
    const unsigned m_id;  // m_thread.id()
    sw_context& m_ctx;
    l2_params m_params;
    l2_costs m_costs;
    nested_probe& m_probe;
    workload* m_work;
    guest_irq_queue& m_irqs;
    l2_sched_view& m_sched;
    const bool m_xive;  // l2.irqchip: emulated-xive (else in-kernel-xics)
    uint64_t m_dec_max;
    uint64_t m_tick_period;      // TB ticks per jiffy
    uint64_t m_next_tb = ~0ull;  // decrementers_next_tb
    uint64_t m_next_tick = ~0ull;
    uint64_t m_next_housekeeping = ~0ull;
    uint64_t m_next_ipi = ~0ull;
    unsigned m_ipis_sent = 0;  // picks the next target
    bool m_tick_running = false;
    bool m_idle = false;            // in the idle loop (a timer callback then sets need_resched)
    bool m_need_resched = false;    // TIF_NEED_RESCHED: ends a snooze
    double m_last_idle_us = 1e300;  // menu_update's measured idle length, in µs
    double m_tb_per_us;
    std::mt19937_64 m_rng;
    std::mt19937_64 m_ipi_rng;  // IPI spacing: its own stream
};

}  // namespace nestvp
