#include "models/thread_execution.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace nestvp {

thread_execution::thread_execution(std::string owner, core& owner_core, unsigned index,
                                   exception_logic& irq, timer_unit_if& timers,
                                   const context_switch& contexts, local_time::wake_slot& wake_at,
                                   const std::function<void()>& trace)
    : m_owner(std::move(owner)),
      m_core(owner_core),
      m_index(index),
      m_irq(irq),
      m_timers(timers),
      m_contexts(contexts),
      m_wake_at(wake_at),
      m_trace(trace),
      m_wake("wake"),
      m_horizon("horizon"),
      m_horizon_units(sc_core::sc_time(horizon_seconds, sc_core::SC_SEC).value()),
      m_resolution_s(sc_core::sc_get_time_resolution().to_seconds()),
      m_units_per_second(1.0 / m_resolution_s),
      m_resolution_fs(local_time::resolution_fs()) {
    m_irq.set_waker(m_wake);
    m_wake_or_horizon |= m_wake;
    m_wake_or_horizon |= m_horizon;
}

void thread_execution::attach() {
    m_core.attach(*this, *this);
}

thread_execution::accounting thread_execution::current_accounting() const {
    switch (m_contexts.level()) {
        case context_level::l0:
            return cpu_if::acct_l0;
        case context_level::l1:
            return cpu_if::acct_l1;
        default:
            return (m_irq.msr() & msr::pr) ? cpu_if::acct_l2_user : cpu_if::acct_l2_kernel;
    }
}

double thread_execution::cycles(accounting a) const {
    double c = m_cycles.at(a);
    // A segment folded from run-ahead starts at the thread's local time, perhaps after now.
    const sc_dt::uint64 now = local_time::now_value();
    if (m_seg.active && !m_seg.ended && m_seg.acct == a && now > m_seg.start)
        c += seconds_of(now - m_seg.start) * m_seg.rate;
    return c;
}

namespace {
// Work that would last longer than this never ends in a run (run.duration_s <= 1e6 s, 1e18 ps,
// and 1e18 + 9.2e18 < 2^64): it is held here, so that now + units cannot wrap around (a cost of
// 1e9 cycles at 50 Hz, or an SMT speed of 1e-15, used to make time run backwards and the run
// spin forever).
constexpr double k_never_units = 9.2e18;

// static_cast<uint64>(std::ceil(x)) without the libm call (the baseline x86-64 target has no
// rounding instruction) for x in [0, k_never_units); at least that (and NaN) gives
// k_never_units, below 0 gives 0. (This shape keeps the common path's code as it was: the
// same logic written without the ceil call took 0.2-0.4 % more instructions per exit.)
sc_dt::uint64 ceil_units(double x) {
    if (!(x >= 0.0 && x < k_never_units)) {
        const double c = std::ceil(x);
        return c < 0.0 ? 0 : static_cast<sc_dt::uint64>(c < k_never_units ? c : k_never_units);
    }
    const auto t = static_cast<sc_dt::uint64>(x);  // truncation: floor for x >= 0
    return static_cast<double>(t) < x ? t + 1 : t;
}
}  // namespace

sc_dt::uint64 thread_execution::segment_units(double cycles, double rate) const {
    return ceil_units(cycles / rate / m_resolution_s);
}

// Retires the waiting segment's cycles from its start to `now`, at its rate (at most the
// caller's remaining cycles).
void thread_execution::account_segment(sc_dt::uint64 now) {
    const sc_dt::uint64 elapsed = now - m_seg.start;
    const double done = std::min(*m_seg.remaining, seconds_of(elapsed) * m_seg.rate);
    m_cycles[m_seg.acct] += done;
    *m_seg.remaining -= done;
    *m_seg.done += done;
}

// One segment of busy time: advances up to `units` of simulated time at the thread's rate,
// ending early at a pending interrupt, or at a re-rate after which the caller's loop stops
// (rerated()). Retired cycles go to `remaining` (which caps them) and `done`.
void thread_execution::busy_segment(sc_dt::uint64 units, double& remaining, double& done,
                                    const std::function<bool()>* stop) {
    const double rate = m_core.thread_rate(m_index);
    if (local_time::try_advance(units, m_core, m_wake_at)) {
        // Exact: no activity is pending before the segment ends (models/local_time.h), so
        // it ends at its deadline, as the wait below would, and counts the same cycles.
        const double d = std::min(remaining, seconds_of(units) * rate);
        m_cycles[current_accounting()] += d;
        remaining -= d;
        done += d;
        return;
    }
    // Wait for the deadline, or an interrupt, or a re-rate that ends the segment. A run-ahead
    // offset is folded in: the segment starts at local time, and nothing can wake the thread
    // before that.
    const sc_dt::uint64 start = local_time::fold();
    m_seg = segment{true,  false, current_accounting(),   rate, start, start + units, &remaining,
                    &done, stop,  units > m_horizon_units};
    m_wake.cancel();
    rearm(local_time::kernel_now_value());
    m_wake_at.set(m_seg.deadline);
    for (;;) {
        const sc_dt::uint64 now = wait_wake();
        if (now < m_seg.start) {
            // A notification made before a sibling re-rated this segment at its local time
            // (rerated()): nothing of this core can act before the segment's new start.
            if (m_irq.pending_vector())
                throw std::logic_error(m_owner + ": woken before its local time");
            rearm(now);
            continue;
        }
        if (m_seg.ended || now >= m_seg.deadline || m_irq.pending_vector()) break;
        // Woken for nothing: the same deadline (a pending notification for it stays, one
        // replaced by the wake-up is made again).
        rearm(now);
    }
    m_wake_at.set(~sc_dt::uint64{0});
    if (!m_seg.ended) account_segment(local_time::kernel_now_value());
    m_seg.active = false;
}

// Waits for `wake`, and returns SystemC time. A long segment also wakes at its horizon: woken
// by that alone before the deadline, nothing acted (an interrupt, a re-rate that ends the
// segment and a stale notification come through `wake`), so it re-arms and waits on without
// asking anything. The last horizon is the deadline.
sc_dt::uint64 thread_execution::wait_wake() {
    if (!m_seg.long_wait) {
        sc_core::wait(m_wake);
        return local_time::kernel_now_value();
    }
    for (;;) {
        sc_core::wait(m_wake_or_horizon);
        const sc_dt::uint64 now = local_time::kernel_now_value();
        if (m_wake.triggered() || now >= m_seg.deadline) return now;
        rearm(now);
    }
}

void thread_execution::rearm(sc_dt::uint64 now) {
    if (m_seg.ended)  // by a re-rate at its new start
        m_wake.notify(sc_core::sc_time::from_value(m_seg.start - now));
    else if (m_seg.long_wait)
        arm_horizon(std::min(m_seg.deadline, now + m_horizon_units));
    else
        m_wake.notify(sc_core::sc_time::from_value(m_seg.deadline - now));
}

// As SystemC does with one event: an earlier time replaces the pending notification, a later
// one is dropped (the pending one fires first and re-arms).
void thread_execution::arm_horizon(sc_dt::uint64 at) {
    const sc_dt::uint64 kernel = local_time::kernel_now_value();
    if (m_horizon_at <= kernel) m_horizon_at = ~sc_dt::uint64{0};  // it has fired
    if (at >= m_horizon_at) return;
    m_horizon_at = at;
    m_horizon.notify(sc_core::sc_time::from_value(at - kernel));
}

void thread_execution::rerated(sc_dt::uint64 at) {
    if (!m_seg.active || m_seg.ended) return;
    // The re-rating thread is at `at`, and run-ahead never lets it pass a sibling's segment
    // start (models/local_time.h): this segment started at or before `at`.
    if (at < m_seg.start) throw std::logic_error(m_owner + ": re-rated before its local time");
    account_segment(at);
    // What the caller's loop does next at this instant: stop (so wake the thread), or go on
    // with a new segment at the new rate, made here instead. Exact: the same cycles and the
    // same deadline as a thread that woke and looped.
    const bool go_on =
        !m_irq.pending_vector() &&
        (m_seg.stop ? !(*m_seg.stop)() && at < m_seg.deadline : *m_seg.remaining > 1e-6);
    const sc_dt::uint64 kernel = local_time::kernel_now_value();
    if (!go_on) {
        // Woken at `at`; until then it bounds its siblings' run-ahead there.
        m_seg.ended = true;
        m_seg.start = at;
        m_wake.cancel();
        if (at == kernel) {
            m_wake.notify();
        } else {
            m_wake.notify(sc_core::sc_time::from_value(at - kernel));
            m_wake_at.set(at);
        }
        return;
    }
    m_seg.rate = m_core.thread_rate(m_index);
    m_seg.start = at;
    if (m_seg.stop) return;  // spin_for's deadline stays: its end
    const sc_dt::uint64 earlier = m_seg.deadline;
    m_seg.deadline = at + segment_units(*m_seg.remaining, m_seg.rate);
    m_wake_at.set(m_seg.deadline);
    // An earlier deadline replaces the pending notification. A later one keeps it: moving it
    // would leave a dead entry in the kernel's timed queue at every re-rate, and the next
    // re-rate usually comes first; if the old time comes, the thread re-arms (woken for
    // nothing, above). A long segment's horizon moves only if the deadline is nearer.
    if (m_seg.long_wait || m_seg.deadline < earlier) rearm(kernel);
}

thread_execution::compute_result thread_execution::compute(double cycles) {
    compute_result r;
    double remaining = cycles + m_owed;  // charged steps are retired with this work
    m_owed = 0;
    trace();
    while (remaining > 1e-6) {
        if (m_irq.pending_vector()) {
            r.interrupted = true;
            break;
        }
        busy_segment(segment_units(remaining, m_core.thread_rate(m_index)), remaining, r.done,
                     nullptr);
    }
    m_wake.cancel();
    trace();
    return r;
}

bool thread_execution::spin_for(const sc_core::sc_time& d, const std::function<bool()>& stop) {
    settle();
    trace();
    const sc_dt::uint64 end = local_time::now_value() + d.value();
    double uncapped = std::numeric_limits<double>::infinity(), done = 0;
    for (;;) {
        if (m_irq.pending_vector()) {
            m_dispatch();  // the handler may set `stop` (need_resched)
            continue;
        }
        if (stop()) break;
        const sc_dt::uint64 now = local_time::now_value();
        if (now >= end) break;
        busy_segment(end - now, uncapped, done, &stop);
    }
    m_wake.cancel();
    trace();
    return !stop();
}

void thread_execution::execute(double cycles) {
    double left = cycles + m_owed;
    m_owed = 0;
    for (;;) {
        const compute_result r = compute(left);
        left -= r.done;
        if (!r.interrupted) return;
        m_dispatch();
    }
}

uint64_t thread_execution::step_time() const {
    const sc_dt::uint64 now = local_time::now_value();
    if (m_owed <= 0) return now;
    // The same rounding as compute()'s segments: one expression serves both.
    return now + segment_units(m_owed, m_core.thread_rate(m_index));
}

void thread_execution::wait_for(const sc_core::sc_time& d) {
    settle();
    local_time::sync();
    m_wake_at.set((sc_core::sc_time_stamp() + d).value());
    sc_core::wait(d);
    m_wake_at.set(~sc_dt::uint64{0});
}

void thread_execution::wait_external(const sc_core::sc_event& e) {
    settle();
    local_time::sync();
    m_wake_at.set(0);
    sc_core::wait(e);
    m_wake_at.set(~sc_dt::uint64{0});
}

void thread_execution::wait_for_wake() {
    settle();
    local_time::sync();  // set_active catches up only if the activity changed; waits need it
    while (!m_timers.dec_pending() && !m_irq.external())
        sc_core::wait(m_timers.pending_changed_event() | m_irq.external_event());
}

}  // namespace nestvp
