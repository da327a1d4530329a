#include "models/local_time.h"

#include <stdexcept>

namespace nestvp::local_time {

namespace {
bound_mode g_mode = bound_mode::global;
// The process that owns the offset: an offset left by a process that yielded without sync()
// would shift every other process's clock, so it is caught at the next advance.
sc_core::sc_process_b* g_owner = nullptr;
wake_slot* g_wake_slot = nullptr;  // the owner's, set while its sync() waits

sc_core::sc_process_b* current_process() {
    return kernel()->get_curr_proc_info()->process_handle;
}
}  // namespace

sc_core::sc_simcontext* detail::kernel_first() {
    return sc_core::sc_get_curr_simcontext();
}

void enable(const sc_core::sc_time& limit, bound_mode mode) {
    detail::g_limit = limit.value();
    g_mode = mode;
}

void disable() {
    detail::g_limit = 0;
}

bool try_advance(sc_dt::uint64 dt, const wake_source& core, wake_slot& slot) {
    if (detail::g_limit == 0) return false;
    if (detail::g_ahead != 0 && g_owner != current_process())
        throw std::logic_error("local_time: a process yielded while ahead of SystemC time");
    // Anything pending at the current time (delta notifications, runnable processes, channel
    // updates) runs first.
    const sc_dt::uint64 k = kernel_now_value();
    const sc_dt::uint64 end = k + detail::g_ahead + dt;
    sc_dt::uint64 bound;
    if (g_mode == bound_mode::global) {
        const sc_dt::uint64 next = sc_core::sc_time_to_pending_activity().value();
        if (next == 0) return false;
        bound = k + next;
    } else {
        // Only the first advance asks: while ahead, rule 3 (docs/local-time.md) keeps this
        // process from making activity at the current time, and no other process runs.
        if (detail::g_ahead == 0 && pending_activity_now()) return false;
#ifndef NDEBUG  // the Debug (sanitizer) build checks that rule
        if (detail::g_ahead != 0 && pending_activity_now())
            throw std::logic_error("local_time: activity made at the current time while ahead");
#endif
        // The cached bound may lie below the core's next wake: only a failure asks again.
        bound = core.next_wake_bound();
        if (end >= bound) bound = core.next_wake();
    }
    if (bound > detail::g_limit) bound = detail::g_limit;
    if (end >= bound) return false;  // strict: nothing ties with the new local time
    detail::g_ahead += dt;
    g_owner = current_process();
    g_wake_slot = &slot;
    return true;
}

sc_dt::uint64 fold() {
    const sc_dt::uint64 t = now_value();
    detail::g_ahead = 0;
    g_owner = nullptr;
    g_wake_slot = nullptr;
    return t;
}

sc_dt::uint64 hand_over() {
    if (detail::g_ahead == 0) return 0;
    if (pending_activity_now()) {
        sync();
        return 0;
    }
    const sc_dt::uint64 offset = detail::g_ahead;
    fold();
    return offset;
}

void take_over(sc_dt::uint64 offset, wake_slot& slot) {
    if (offset == 0) return;
    detail::g_ahead = offset;
    g_owner = current_process();
    g_wake_slot = &slot;
}

void sync() {
    if (detail::g_ahead == 0) return;
    if (g_owner != current_process())
        throw std::logic_error("local_time: sync() by a process that is not ahead");
    const sc_core::sc_time d = sc_core::sc_time::from_value(detail::g_ahead);
    wake_slot* slot = g_wake_slot;
    slot->set(now_value());  // siblings must not pass it
    detail::g_ahead = 0;
    g_owner = nullptr;
    g_wake_slot = nullptr;
    sc_core::wait(d);
    slot->set(~sc_dt::uint64{0});
}

}  // namespace nestvp::local_time
