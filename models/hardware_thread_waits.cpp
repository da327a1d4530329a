// hardware_thread: waits that leave the thread, with the bound its siblings may run ahead to
// (docs/local-time.md).
#include "models/hardware_thread.h"

#include "models/local_time.h"

namespace nestvp {

void hardware_thread::wait_for(const sc_core::sc_time& d) {
    settle();
    local_time::sync();
    m_wake_at.set((sc_core::sc_time_stamp() + d).value());
    sc_core::wait(d);
    m_wake_at.set(~sc_dt::uint64{0});
}

void hardware_thread::wait_external(const sc_core::sc_event& e) {
    settle();
    local_time::sync();
    m_wake_at.set(0);
    sc_core::wait(e);
    m_wake_at.set(~sc_dt::uint64{0});
}

void hardware_thread::wait_for_wake() {
    settle();
    local_time::sync();  // set_active catches up only if the activity changed; waits need it
    while (!m_timers->dec_pending() && !m_irq.external())
        sc_core::wait(m_timers->pending_changed_event() | m_irq.external_event());
}

}  // namespace nestvp
