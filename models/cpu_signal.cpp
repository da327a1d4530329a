#include "models/cpu_signal.h"

#include <systemc>

#include "models/local_time.h"

namespace nestvp {

cpu_signal::cpu_signal() : m_event(std::make_unique<sc_core::sc_event>()) {}

cpu_signal::~cpu_signal() = default;

void cpu_signal::raise() {
    local_time::sync();
    m_event->notify(sc_core::SC_ZERO_TIME);
}

const sc_core::sc_event& cpu_signal::event() const {
    return *m_event;
}

}  // namespace nestvp
