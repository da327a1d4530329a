#pragma once
// A core: 1..8 SMT hardware threads sharing one time base and the core's throughput.
// A per-core table gives one thread's speed when k threads are active; when a thread starts
// or stops, computing threads are re-rated at that instant (piecewise constant, no polling).
#include <cstdint>
#include <vector>

#include <systemc>

#include "models/local_time.h"
#include "models/time_base.h"

namespace nestvp {

class core : public sc_core::sc_module, public local_time::wake_source {
public:
    // smt_speed[k-1]: speed of one thread (fraction of the core clock) with k active threads.
    core(const sc_core::sc_module_name& name, uint64_t clock_hz, std::vector<double> smt_speed,
         uint64_t tb_freq_hz);

    time_base& tb() { return m_tb; }
    uint64_t clock_hz() const { return m_clock_hz; }
    unsigned max_threads() const { return static_cast<unsigned>(m_smt_speed.size()); }

    // A thread becomes active (executing) or inactive (ceded / idle / not started).
    void set_active(unsigned thread_index, bool active);
    bool is_active(unsigned thread_index) const;
    unsigned active_threads() const { return m_active_count; }
    // Cycles per second one active thread retires now.
    double thread_rate() const {
        const unsigned k = m_active_count == 0 ? 1 : m_active_count;
        return static_cast<double>(m_clock_hz) * m_smt_speed[k - 1];
    }
    // Incremented with every change of the active-thread count.
    uint64_t rerate_count() const { return m_rerate_count; }
    // Integral over time of the active-thread count, in thread-seconds (for statistics).
    double busy_thread_seconds() const;

    // Each thread of the core registers here: its own timed activity (`thread`) and the
    // wake-up event its compute() waits on, notified (immediately) whenever the active-thread
    // count changes.
    void attach(const local_time::wake_source& thread, sc_core::sc_event& wake);
    // The earliest timed activity among the core's threads: the bound of their run-ahead in
    // local_time's per-core mode.
    sc_dt::uint64 next_wake() const override;

private:
    time_base m_tb;
    uint64_t m_clock_hz;
    std::vector<double> m_smt_speed;
    std::vector<bool> m_active;
    unsigned m_active_count = 0;
    uint64_t m_rerate_count = 0;
    double m_busy_acc = 0;
    sc_core::sc_time m_busy_since;
    struct member {
        const local_time::wake_source* activity;
        sc_core::sc_event* wake;
    };
    std::vector<member> m_threads;
};

}  // namespace nestvp
