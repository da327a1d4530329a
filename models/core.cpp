#include "models/core.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "models/local_time.h"

namespace nestvp {

core::core(const sc_core::sc_module_name& name, uint64_t clock_hz, std::vector<double> smt_speed,
           uint64_t tb_freq_hz)
    : sc_core::sc_module(name),
      m_tb("tb", tb_freq_hz),
      m_clock_hz(clock_hz),
      m_smt_speed(std::move(smt_speed)),
      m_active(m_smt_speed.size(), false) {
    if (m_smt_speed.empty() || m_smt_speed.size() > 8)
        throw std::invalid_argument("core: SMT table needs 1..8 entries");
    if (clock_hz == 0) throw std::invalid_argument("core: clock must be > 0 Hz");
    for (double s : m_smt_speed)
        if (!(s > 0.0 && s <= 1.0))
            throw std::invalid_argument("core: SMT speeds must be in (0, 1]");
}

void core::set_active(unsigned thread_index, bool active) {
    if (thread_index >= m_active.size())
        throw std::out_of_range("core: thread " + std::to_string(thread_index) + " out of range");
    if (m_active[thread_index] == active) return;
    local_time::sync();  // siblings re-rate at this instant (models/local_time.h)
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    m_busy_acc += m_active_count * (now - m_busy_since).to_seconds();
    m_busy_since = now;
    m_active[thread_index] = active;
    m_active_count += active ? 1 : -1;
    ++m_rerate_count;
    for (const member& t : m_threads) t.wake->notify();
}

bool core::is_active(unsigned thread_index) const {
    return m_active.at(thread_index);
}

void core::attach(const local_time::wake_source& thread, sc_core::sc_event& wake) {
    m_threads.push_back({&thread, &wake});
}

sc_dt::uint64 core::next_wake() const {
    sc_dt::uint64 t = ~sc_dt::uint64{0};
    for (const member& m : m_threads) t = std::min(t, m.activity->next_wake());
    return t;
}

double core::busy_thread_seconds() const {
    return m_busy_acc + m_active_count * (local_time::now() - m_busy_since).to_seconds();
}

}  // namespace nestvp
