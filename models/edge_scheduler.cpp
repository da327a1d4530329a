#include "models/edge_scheduler.h"

#include "models/local_time.h"

namespace nestvp {

bool systemc_elaborating() {
    static bool over = false;  // elaboration happens once per process (IEEE 1666 §4.3)
    if (over) return false;
    const auto s = sc_core::sc_get_status();
    if (s == sc_core::SC_ELABORATION || s == sc_core::SC_BEFORE_END_OF_ELABORATION ||
        s == sc_core::SC_END_OF_ELABORATION)
        return true;
    over = true;
    return false;
}

void edge_scheduler::aim(uint64_t target) {
    m_target = target;
    if (m_target == time_base::never || m_target >= m_armed) return;
    const sc_core::sc_time at = m_tb.time_of(m_target);
    if (at == sc_core::sc_max_time()) {
        m_target = time_base::never;
        return;
    }
    m_armed = m_target;
    m_armed_at.set(at.value());
    // An edge at or before the writer's local time must not precede or tie with it in the
    // kernel's queue: catch up first (models/local_time.h).
    if (local_time::ahead() && at.value() <= local_time::now_value()) local_time::sync();
    m_event.notify(at - sc_core::sc_time_stamp());  // replaces a later pending notification
}

void line_reporter::report(bool line) {
    if (line == m_line) return;
    m_line = line;
    local_time::sync();
    m_changed.notify(sc_core::SC_ZERO_TIME);
}

bool edge_scheduler::fired() {
    disarm();
    return m_target != time_base::never && m_tb.ticks() >= m_target;
}

}  // namespace nestvp
