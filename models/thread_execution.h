#pragma once
// The work of one SMT hardware thread: retiring cycles at its share of the core (docs/core.md),
// with exact run-ahead (docs/local-time.md), re-rated when a sibling starts, stops or changes
// priority; cycle accounting per class; the time the charged work ends (path marks); and the
// waits that leave the thread. compute() ends early at a deliverable interrupt; execute() and
// spin_for() hand each one to the owner's dispatch and go on (docs/hardware-thread.md).
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <systemc>

#include "models/context_switch.h"
#include "models/core.h"
#include "models/cpu_if.h"
#include "models/cpu_signal.h"
#include "models/exception_logic.h"
#include "models/local_time.h"
#include "models/timer_unit_if.h"

namespace nestvp {

class thread_execution final : public local_time::wake_source, public rate_listener {
public:
    using accounting = cpu_if::accounting;
    struct compute_result {
        double done = 0;
        bool interrupted = false;
    };

    // Thread `index` of `owner_core`; `owner` names the thread in errors; `wake_at` is the thread's
    // timed-wait slot (which a context switch hands over too); `trace` runs where the software acts
    // (may be empty).
    thread_execution(std::string owner, core& owner_core, unsigned index, exception_logic& irq,
                     timer_unit_if& timers, const context_switch& contexts,
                     local_time::wake_slot& wake_at, const std::function<void()>& trace);
    // Attaches itself to the core as the thread's activity and rate listener (core.h).
    void attach();
    // What execute() and spin_for() do with a deliverable interrupt (the owner's dispatch).
    void set_interrupt_dispatch(std::function<void()> dispatch) {
        m_dispatch = std::move(dispatch);
    }

    // Retires `cycles` (with what is charged) at the thread's share; returns early, with the
    // cycles done, as soon as an enabled interrupt is pending.
    compute_result compute(double cycles);
    // compute() until all cycles are done, dispatching each interrupt as it comes.
    void execute(double cycles);
    // Busy-waits for `d` or until `stop()` holds, dispatching interrupts; true if time ran out.
    bool spin_for(const sc_core::sc_time& d, const std::function<bool()>& stop);
    // A software step's cost: retired at once with MSR[EE]=1 (a handler may observe the order
    // of steps), else owed until the thread next does something observable (settle()).
    void charge(double cycles) {
        if (m_irq.msr() & msr::ee)
            execute(cycles);
        else
            m_owed += cycles;
    }
    void settle() {
        if (m_owed > 0) execute(0);
    }
    // A stall of `d` that occupies the thread: the cycles it retires in `d` at its share.
    void stall(const sc_core::sc_time& d) {
        if (d == sc_core::SC_ZERO_TIME) return;
        charge(static_cast<double>(d.value()) / m_units_per_second * m_core.thread_rate(m_index));
    }
    // Where the work charged so far ends at the current rate (sc_time value). Retires nothing.
    uint64_t step_time() const;
    // Cycles retired per class, including the compute() in progress.
    double cycles(accounting a) const;

    // Time passing in L0 (a TLM annotated delay): retires what is charged, then waits `d`.
    void wait_for(const sc_core::sc_time& d);
    // Waits for an event a thread of another core may notify: meanwhile this thread's wake
    // time is unknown, so its siblings do not run ahead.
    void wait_external(const sc_core::sc_event& e);
    // Until the DEC is pending or the partition's external line is raised (a ceded virtual
    // processor's wake-up sources).
    void wait_for_wake();

    // Run-ahead bound for the core's threads: this thread's timed wait or timer edge.
    sc_dt::uint64 next_wake() const override {
        return std::min(m_wake_at.value(), m_timers.next_wake());
    }
    void wake_slots(std::vector<const local_time::wake_slot*>& out) const override {
        out.push_back(&m_wake_at);
        m_timers.wake_slots(out);
    }

private:
    void trace() const {
        if (m_trace) m_trace();
    }
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

    std::string m_owner;
    core& m_core;
    unsigned m_index;
    exception_logic& m_irq;
    timer_unit_if& m_timers;
    const context_switch& m_contexts;
    local_time::wake_slot& m_wake_at;  // end of this thread's timed wait, if any
    const std::function<void()>& m_trace;
    std::function<void()> m_dispatch;

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
    std::array<double, cpu_if::acct_count> m_cycles{};
    // The segment of compute() or spin_for() that waits now. A re-rate retires its cycles at
    // the old rate and restarts it at the new one in place (rerated()), without waking the
    // thread, unless the caller's loop would stop there.
    struct segment {
        bool active = false;
        bool ended = false;  // by a re-rate, already accounted; the thread is woken
        accounting acct = cpu_if::acct_l0;
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
