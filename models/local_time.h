#pragma once
// Exact run-ahead (docs/local-time.md). A hardware thread's compute() segment that ends before
// anything else can act on its core is retired without a wait: nothing can happen in between, so
// the thread's local time simply runs ahead of sc_time_stamp(). This is TLM-2.0 LT temporal
// decoupling (IEEE 1666 §16.2, local time plus quantum) with the quantum bounded by the next
// event that can reach the thread, so it changes no result. The rules that keep it exact:
//   - only the running process can be ahead (one offset suffices: SystemC runs one at a time);
//   - everything that reads the time reads now() (time_base, core, traces, metrics);
//   - before anything other processes can observe (an immediate or delta notification, an
//     event at or before local time, a wait), the process calls sync(), which waits out the
//     offset. The wait is exact because nothing that can reach the thread is pending before
//     local time;
//   - the bound is the kernel's next pending activity (mode `global`), or the next timed
//     activity of the thread's own core (mode `per_core`: its threads' compute deadlines and
//     waits, and their timer units' edges). Cores share no timed state, so a thread may pass
//     another core's events; everything pending at the current time still stops it.
#include <cmath>
#include <cstdint>
#include <vector>

#include <systemc>

namespace nestvp::local_time {

namespace detail {
inline sc_dt::uint64 g_ahead = 0;  // of the running process, in time-resolution units
inline sc_dt::uint64 g_limit = 0;  // no run-ahead at or past this time; 0 = disabled

// Out of line: creates the first simulation context, as sc_get_curr_simcontext() does.
sc_core::sc_simcontext* kernel_first();

}  // namespace detail

// The simulation context, read directly: sc_get_curr_simcontext()'s inline allocation path made
// every caller save registers (and LTO keeps it out of line), and a context exists as soon as
// any module does.
inline sc_core::sc_simcontext* kernel() {
    sc_core::sc_simcontext* c = sc_core::sc_curr_simcontext;
    if (__builtin_expect(c == nullptr, 0)) return detail::kernel_first();
    return c;
}
// SystemC time, read inline (sc_time_stamp() is the same member behind a library call).
inline sc_dt::uint64 kernel_now_value() {
    return kernel()->time_stamp().value();
}
// sc_pending_activity_at_current_time() without its default argument's context lookup.
inline bool pending_activity_now() {
    return sc_core::sc_pending_activity_at_current_time(kernel());
}
// The running process's time: SystemC time plus its run-ahead.
inline sc_dt::uint64 now_value() {
    return kernel_now_value() + detail::g_ahead;
}
inline sc_core::sc_time now() {
    return sc_core::sc_time::from_value(now_value());
}
// The time resolution in fs: a power of ten, so exact as a double. Call after elaboration
// starts (it fixes the resolution, as any sc_time does).
inline double resolution_fs() {
    return std::round(sc_core::sc_get_time_resolution().to_seconds() * 1e15);
}
// sc_time::from_value(v).to_seconds() without two library calls: SystemC 2.3.4 computes
// v * resolution_fs * 1e-15, and this is the same expression, so the result is bit-identical.
inline double seconds_of(sc_dt::uint64 v, double res_fs) {
    return static_cast<double>(v) * res_fs * 1e-15;
}
inline bool ahead() {
    return detail::g_ahead != 0;
}
inline bool enabled() {
    return detail::g_limit != 0;
}

// A lower bound a core keeps of its wake slots' minimum (core::next_wake_bound), and whether it
// is the minimum itself.
struct wake_floor {
    sc_dt::uint64 at = 0;
    bool exact = false;
};

// A time at which timed activity of a core is pending (a compute deadline, a wait's end, a
// timer edge), ~0 if none. Written only through set(), which keeps its watcher's floor at or
// below it: a slot set earlier lowers the floor; the minimum slot set later leaves the floor
// low, no longer exact.
class wake_slot {
public:
    explicit wake_slot(sc_dt::uint64 at = ~sc_dt::uint64{0}) : m_at(at) {}
    wake_slot(const wake_slot&) = delete;
    wake_slot& operator=(const wake_slot&) = delete;
    sc_dt::uint64 value() const { return m_at; }
    void set(sc_dt::uint64 at) {
        if (m_floor) {
            if (at < m_floor->at)
                m_floor->at = at;
            else if (m_at == m_floor->at && at != m_at)
                m_floor->exact = false;
        }
        m_at = at;
    }
    // The floor kept from now on (one watcher: the slot's core).
    void watch(wake_floor* floor) const { m_floor = floor; }

private:
    sc_dt::uint64 m_at;
    mutable wake_floor* m_floor = nullptr;
};

// Something whose pending timed activity can reach the threads of a core (a hardware thread:
// its compute deadline or wait, and its timer unit's edges).
class wake_source {
public:
    // The earliest such time (sc_time value), ~0 if none.
    virtual sc_dt::uint64 next_wake() const = 0;
    // A lower bound of next_wake(), which may be cheaper to read (a kept minimum).
    virtual sc_dt::uint64 next_wake_bound() const { return next_wake(); }
    // Appends the slots next_wake() is the minimum of (valid for the source's lifetime), for a
    // caller that reads them directly: the core's bound is asked at every segment.
    virtual void wake_slots(std::vector<const wake_slot*>& out) const = 0;

protected:
    ~wake_source() = default;
};

enum class bound_mode { global, per_core };

// Run-ahead is allowed up to (not including) `limit`, the end of the run; the runner enables it
// (run.run_ahead). Disabled by default, so that unit tests stepping sc_start() see no offset.
void enable(const sc_core::sc_time& limit, bound_mode mode);
void disable();

// Advances local time by `dt` if nothing pending can act before the new local time (see the
// modes above; `core` gives the core's next timed activity, asked only in per-core mode) and it
// stays before the limit: the caller then counts `dt` as elapsed without a wait. While ahead,
// the caller's `wake_slot` (its part of the core's bound for its siblings) holds the time its
// sync() wait ends. False otherwise.
bool try_advance(sc_dt::uint64 dt, const wake_source& core, wake_slot& slot);

// Waits out the run-ahead, so that SystemC time equals local time. A no-op when not ahead; only
// a thread process can be ahead, so this never waits in a method.
void sync();

// Ends the run-ahead without a wait and returns local time, for a caller about to wait until a
// time no earlier than that on events that cannot fire before it (compute()'s deadline, its own
// timer edges and its core's re-rates, all beyond the bound the offset was checked against).
sc_dt::uint64 fold();

// A guest entry or trap hands the thread to its other context, a different process. If nothing
// else is pending at the current time, that process runs next, so the offset can travel with
// the thread: hand_over() gives it up (0 if there was none, or after a sync() when something
// else is pending) and the resumed process calls take_over() with it.
sc_dt::uint64 hand_over();
void take_over(sc_dt::uint64 offset, wake_slot& slot);

}  // namespace nestvp::local_time
