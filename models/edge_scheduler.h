#pragma once
// The next level change of a counter derived from the time base (DEC, HDEC), kept as at most one
// pending timed notification (docs/decrementer.md, "Events"). Rewrites to far-future values are
// the common case (§6), and cancelling and re-notifying on each would leave one dead entry per
// write in the kernel's timed queue: a later target leaves the earlier notification in place,
// and the owner's edge method re-aims when it fires early.
#include <cstdint>

#include <systemc>

#include "models/time_base.h"

namespace nestvp {

// True until elaboration is over: events may not be scheduled yet (start_of_simulation() arms).
bool systemc_elaborating();

class edge_scheduler {
public:
    explicit edge_scheduler(time_base& tb) : m_tb(tb) {}

    // The owner's SC_METHOD is sensitive to this.
    const sc_core::sc_event& event() const { return m_event; }
    // Aim at host tick `target` (time_base::never: no edge). Notifies only if it is earlier than
    // the notification already pending; a tick beyond sc_time is never within the run.
    void aim(uint64_t target);
    // First thing in the owner's edge method: true if the target tick has been reached (a real
    // edge), false for an early wake-up left by a rewrite to a later target.
    bool fired();
    // The pending notification fired (an owner that only needs the re-aim, not fired()'s test).
    void disarm() {
        m_armed = time_base::never;
        m_armed_at.set(~sc_dt::uint64{0});
    }
    // Drops the pending notification.
    void cancel() {
        m_event.cancel();
        disarm();
    }
    // The time (sc_time value) of the pending notification, ~0 if none.
    sc_dt::uint64 armed_at() const { return m_armed_at.value(); }
    const local_time::wake_slot* armed_at_slot() const { return &m_armed_at; }

private:
    time_base& m_tb;
    uint64_t m_target = time_base::never;  // the next level change
    uint64_t m_armed = time_base::never;   // the tick m_event fires at (<= m_target)
    local_time::wake_slot m_armed_at;      // and its time
    sc_core::sc_event m_event;
};

// The interrupt line a counter drives. Reported to the timer unit only when its level changes
// (a rewrite that leaves it as it was is invisible to interrupt delivery), by a delta
// notification at the writer's time (models/local_time.h).
class line_reporter {
public:
    const sc_core::sc_event& changed_event() const { return m_changed; }
    // Call after elaboration only (start_of_simulation() and later).
    void report(bool line);

private:
    sc_core::sc_event m_changed;
    bool m_line = false;  // the level last reported
};

}  // namespace nestvp
