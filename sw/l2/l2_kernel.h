#pragma once
// The L2 guest kernel of one vCPU (timer-facilities.md §6, nested-virtualization.md §4):
// a clockevent on DEC (set_dec writes evt-1; minimum 2 ticks, maximum decrementer_max), a
// timer_interrupt that handles due and early DECs, a periodic tick at l2.hz while busy, NO_HZ
// idle that programs the next timer event, housekeeping timers on idle vCPUs, and an idle
// loop that issues H_CEDE. In nestedv2 L2 takes its own DEC interrupts and rewrites DEC with
// no exit. Each path charges its cost in cycles.
#include <cstdint>
#include <random>

#include "models/hardware_thread.h"
#include "sw/metrics/nested_metrics.h"
#include "sw/workloads/workload.h"

namespace nestvp {

struct l2_costs {
    uint64_t timer_interrupt, tick, housekeeping, idle_enter, idle_exit, set_dec;
};

struct l2_params {
    unsigned vcpu = 0;
    unsigned hz = 100;
    bool nohz_idle = true;
    double housekeeping_hz = 2.0;
    bool large_dec = true;
    unsigned dec_bits = 56;
    uint64_t seed = 1;
};

class l2_kernel {
public:
    l2_kernel(hardware_thread& thread, sw_context& ctx, const l2_params& params,
              const l2_costs& costs, nested_metrics& metrics, workload* work);

    // The vCPU's program (a SystemC thread): waits for its first entry, then boots and runs
    // its workload, or idles.
    void main();
    sw_context& context() { return m_ctx; }
    uint64_t decrementer_max() const { return m_dec_max; }

private:
    uint64_t mftb() const { return m_thread.mftb(); }
    void exec(uint64_t cycles) { m_thread.charge(static_cast<double>(cycles)); }
    // clockevent: decrementer_set_next_event / set_dec (L-time, §6).
    void set_next_event(uint64_t delta_ticks);
    void timer_interrupt(const interrupt_record& rec);
    // timer_interrupt_latency_ns: the DEC edge at L2 TB `edge_tb` to the handler's start.
    void sample_timer_latency(uint64_t edge_tb, uint64_t handler_start);
    void run_expired_timers(uint64_t now);
    void program_next_event();
    void idle_loop();
    uint64_t next_housekeeping_interval();

    hardware_thread& m_thread;
    sw_context& m_ctx;
    l2_params m_params;
    l2_costs m_costs;
    nested_metrics& m_metrics;
    workload* m_work;
    uint64_t m_dec_max;
    uint64_t m_tick_period;      // TB ticks per jiffy
    uint64_t m_next_tb = ~0ull;  // decrementers_next_tb
    uint64_t m_next_tick = ~0ull;
    uint64_t m_next_housekeeping = ~0ull;
    bool m_tick_running = false;
    std::mt19937_64 m_rng;
};

}  // namespace nestvp
