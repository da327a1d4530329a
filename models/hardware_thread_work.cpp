// hardware_thread: retiring work at the thread's SMT rate, with exact run-ahead
// (docs/local-time.md), and the time the charged work ends (path marks).
#include "models/hardware_thread.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "models/local_time.h"

namespace nestvp {

// One segment of busy time: advances up to `units` of simulated time at the thread's current
// rate, ending early at a re-rate or a pending interrupt. Returns the cycles retired (at most
// `cap`); `elapsed` gets the time units that passed (0 after a wait for delta activity).
double hardware_thread::busy_segment(sc_dt::uint64 units, double cap, sc_dt::uint64& elapsed,
                                     unsigned& delta_waits) {
    const double rate = m_core.thread_rate(m_index);
    const uint64_t rerates = m_core.rerate_count();
    elapsed = 0;
    if (local_time::try_advance(units, m_core, m_wake_at)) {
        // Exact: no activity is pending before the segment ends (models/local_time.h), so
        // it ends at its deadline, as the wait below would, and counts the same cycles.
        elapsed = units;
        const double done = std::min(cap, sc_core::sc_time::from_value(units).to_seconds() * rate);
        m_cycles[current_accounting()] += done;
        return done;
    }
    // Only activity at the current time (delta notifications, e.g. a timer line change
    // this thread made) stopped it: let that run, then try again. Exact: the slow path
    // below would let it run too, before the deadline. Bounded, so that a process that
    // notifies itself at one instant cannot hold the thread.
    if (local_time::enabled() && !local_time::ahead() && delta_waits < 4 &&
        sc_core::sc_pending_activity_at_current_time()) {
        ++delta_waits;
        m_wake_at = local_time::kernel_now_value();  // siblings must not pass this instant
        sc_core::wait(sc_core::SC_ZERO_TIME);
        m_wake_at = ~sc_dt::uint64{0};
        return 0;
    }
    // Wait for the deadline, or a re-rate or an interrupt. A run-ahead offset is folded in:
    // the segment starts at local time, and nothing can wake the thread before that.
    const sc_core::sc_time start = sc_core::sc_time::from_value(local_time::fold());
    const sc_core::sc_time deadline = start + sc_core::sc_time::from_value(units);
    m_seg_active = true, m_seg_acct = current_accounting(), m_seg_rate = rate, m_seg_start = start;
    m_wake.cancel();
    m_wake.notify(deadline - sc_core::sc_time_stamp());
    m_wake_at = deadline.value();
    for (;;) {
        sc_core::wait(m_wake);
        if (sc_core::sc_time_stamp() < start)
            throw std::logic_error(std::string(name()) + ": woken before its local time");
        if (sc_core::sc_time_stamp() >= deadline || m_core.rerate_count() != rerates ||
            m_irq.pending_vector())
            break;
        // Woken for nothing: the same deadline (a pending notification for it stays, one
        // replaced by the wake-up is made again).
        m_wake.notify(deadline - sc_core::sc_time_stamp());
    }
    m_wake_at = ~sc_dt::uint64{0};
    m_seg_active = false;
    elapsed = (sc_core::sc_time_stamp() - start).value();
    const double done = std::min(cap, sc_core::sc_time::from_value(elapsed).to_seconds() * rate);
    m_cycles[m_seg_acct] += done;
    return done;
}

hardware_thread::compute_result hardware_thread::compute(double cycles) {
    compute_result r;
    double remaining = cycles + m_owed;  // charged steps are retired with this work
    m_owed = 0;
    static const double resolution = sc_core::sc_get_time_resolution().to_seconds();  // fixed
    trace();
    unsigned delta_waits = 0;
    while (remaining > 1e-6) {
        if (m_irq.pending_vector()) {
            r.interrupted = true;
            break;
        }
        const double rate = m_core.thread_rate(m_index);
        const auto units = static_cast<sc_dt::uint64>(std::ceil(remaining / rate / resolution));
        sc_dt::uint64 elapsed = 0;
        const double done = busy_segment(units, remaining, elapsed, delta_waits);
        remaining -= done;
        r.done += done;
    }
    m_wake.cancel();
    trace();
    return r;
}

bool hardware_thread::spin_for(const sc_core::sc_time& d, const std::function<bool()>& stop) {
    settle();
    trace();
    const sc_dt::uint64 end = local_time::now_value() + d.value();
    unsigned delta_waits = 0;
    for (;;) {
        if (m_irq.pending_vector()) {
            dispatch_interrupt();  // the handler may set `stop` (need_resched)
            continue;
        }
        if (stop()) break;
        const sc_dt::uint64 now = local_time::now_value();
        if (now >= end) break;
        sc_dt::uint64 elapsed = 0;
        busy_segment(end - now, std::numeric_limits<double>::infinity(), elapsed, delta_waits);
    }
    m_wake.cancel();
    trace();
    return !stop();
}

void hardware_thread::execute(double cycles) {
    double left = cycles + m_owed;
    m_owed = 0;
    for (;;) {
        const compute_result r = compute(left);
        left -= r.done;
        if (!r.interrupted) return;
        dispatch_interrupt();
    }
}

sc_dt::uint64 hardware_thread::step_time() const {
    const sc_dt::uint64 now = local_time::now_value();
    if (m_owed <= 0) return now;
    // The same rounding as compute()'s segments.
    return now + static_cast<sc_dt::uint64>(
                     std::ceil(m_owed * m_units_per_second / m_core.thread_rate(m_index)));
}

}  // namespace nestvp
