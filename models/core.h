#pragma once
// A core: 1..8 SMT hardware threads sharing one time base and the core's throughput.
// A per-core table gives one thread's speed when k threads are active; when a thread starts
// or stops, computing threads are re-rated at that instant (piecewise constant, no polling).
// A thread at low SMT priority (HMT_low / HMT_very_low, as in a guest's snooze loop) counts
// as `low_priority_share` of a thread and runs at that share of a full thread's speed
// (docs/core.md).
#include <cstdint>
#include <vector>

#include <systemc>

#include "models/core_config.h"
#include "models/local_time.h"
#include "models/time_base.h"

namespace nestvp {

// A thread of the core, told of each re-rate at the instant it happens: `at` (sc_time value) is
// the re-rating thread's local time, at or after SystemC time (models/local_time.h).
class rate_listener {
public:
    virtual void rerated(sc_dt::uint64 at) = 0;

protected:
    ~rate_listener() = default;
};

class core : public sc_core::sc_module, public local_time::wake_source {
public:
    // smt_speed[k-1]: speed of one thread (fraction of the core clock) with k active threads.
    core(const sc_core::sc_module_name& name, uint64_t clock_hz, std::vector<double> smt_speed,
         uint64_t tb_freq_hz, double low_priority_share = 1.0);
    // The same from a platform's `machine.core` and `machine.tb` keys.
    core(const sc_core::sc_module_name& name, const core_config& cfg);

    time_base& tb() { return m_tb; }
    uint64_t clock_hz() const { return m_clock_hz; }
    unsigned max_threads() const { return static_cast<unsigned>(m_smt_speed.size()); }

    // A thread becomes active (executing) or inactive (ceded / idle / not started).
    void set_active(unsigned thread_index, bool active);
    bool is_active(unsigned thread_index) const;
    unsigned active_threads() const { return m_active_count; }
    // A thread lowers or restores its SMT priority (or/ori 1,1,1 and 2,2,2: HMT_low/_medium).
    void set_low_priority(unsigned thread_index, bool low);
    bool is_low_priority(unsigned thread_index) const { return m_low.at(thread_index); }
    // Cycles per second the thread retires now. Threads at normal priority share the core as
    // if n + share * m threads were active (n normal, m low), interpolating the SMT table.
    double thread_rate(unsigned thread_index) const {
        return m_low[thread_index] ? m_normal_rate * m_low_share : m_normal_rate;
    }
    // Integral over time of the active-thread count, in thread-seconds (for statistics).
    double busy_thread_seconds() const;

    // Each thread of the core registers here: its own timed activity (`activity`) and the
    // listener told whenever the thread rates change.
    void attach(const local_time::wake_source& activity, rate_listener& listener);
    // The earliest timed activity among the core's threads: the bound of their run-ahead in
    // local_time's per-core mode.
    sc_dt::uint64 next_wake() const override;
    // The minimum next_wake() last found, lowered by every slot set below it since
    // (local_time::wake_slot): at or below next_wake(), without reading the slots. 0 before
    // the first next_wake() gathers them.
    sc_dt::uint64 next_wake_bound() const override { return m_floor.at; }
    void wake_slots(std::vector<const local_time::wake_slot*>& out) const override;

private:
    void rerate(sc_dt::uint64 at);

    time_base m_tb;
    uint64_t m_clock_hz;
    std::vector<double> m_smt_speed;
    // Bytes, not std::vector<bool>: read on every re-rate and rate query (bit access is slow).
    std::vector<uint8_t> m_active, m_low;
    unsigned m_active_count = 0;
    double m_low_share;
    double m_normal_rate;  // cycles/s of a normal-priority thread now
    double m_busy_acc = 0;
    sc_core::sc_time m_busy_since;
    struct member {
        const local_time::wake_source* activity;
        rate_listener* listener;
    };
    std::vector<member> m_threads;
    // Every thread's wake slots, gathered at the first next_wake() (the units exist by then):
    // the minimum of them is next_wake() without two virtual calls per thread.
    mutable std::vector<const local_time::wake_slot*> m_wake_slots;
    mutable bool m_slots_gathered = false;
    mutable local_time::wake_floor m_floor;  // the slots' watched floor: next_wake_bound()
};

}  // namespace nestvp
