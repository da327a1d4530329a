#include "models/core.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "models/local_time.h"

namespace nestvp {

core::core(const sc_core::sc_module_name& name, uint64_t clock_hz, std::vector<double> smt_speed,
           uint64_t tb_freq_hz, double low_priority_share)
    : sc_core::sc_module(name),
      m_tb("tb", tb_freq_hz),
      m_clock_hz(clock_hz),
      m_smt_speed(std::move(smt_speed)),
      m_active(m_smt_speed.size(), 0),
      m_low(m_smt_speed.size(), 0),
      m_low_share(low_priority_share),
      m_normal_rate(static_cast<double>(clock_hz) * (m_smt_speed.empty() ? 1.0 : m_smt_speed[0])) {
    if (m_smt_speed.empty() || m_smt_speed.size() > 8)
        throw std::invalid_argument("core: SMT table needs 1..8 entries");
    if (clock_hz == 0) throw std::invalid_argument("core: clock must be > 0 Hz");
    for (double s : m_smt_speed)
        if (!(s > 0.0 && s <= 1.0))
            throw std::invalid_argument("core: SMT speeds must be in (0, 1]");
    if (!(low_priority_share > 0.0 && low_priority_share <= 1.0))
        throw std::invalid_argument("core: the low-priority share must be in (0, 1]");
}

core::core(const sc_core::sc_module_name& name, const core_config& cfg)
    : core(name, cfg.clock_hz, cfg.smt_speed, cfg.tb_freq_hz, cfg.low_priority_share) {}

void core::set_active(unsigned thread_index, bool active) {
    if (thread_index >= m_active.size())
        throw std::out_of_range("core: thread " + std::to_string(thread_index) + " out of range");
    if (static_cast<bool>(m_active[thread_index]) == active) return;
    local_time::sync();  // siblings re-rate at this instant (models/local_time.h)
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    m_busy_acc += m_active_count * (now - m_busy_since).to_seconds();
    m_busy_since = now;
    m_active[thread_index] = active;
    m_active_count += active ? 1 : -1;
    rerate(local_time::kernel_now_value());
}

void core::set_low_priority(unsigned thread_index, bool low) {
    if (thread_index >= m_low.size())
        throw std::out_of_range("core: thread " + std::to_string(thread_index) + " out of range");
    if (static_cast<bool>(m_low[thread_index]) == low) return;
    // Another thread is active: the count without this thread's own.
    const bool siblings = m_active_count > (m_active[thread_index] ? 1u : 0u);
    if (!siblings) {
        // Nobody else runs on the core: no sibling to re-rate, so no need to catch up the
        // kernel to this thread's local time first. The rate is the same either way.
        m_low[thread_index] = low;
        return;
    }
    // The siblings re-rate at this thread's local time, without waiting it out: run-ahead keeps
    // every sibling's segment start and wake at or after it (models/local_time.h), so nothing
    // on the core happens in between, and rerated() retires and re-aims each segment at `at`.
    m_low[thread_index] = low;
    rerate(local_time::now_value());
}

void core::rerate(sc_dt::uint64 at) {
    // The load: normal threads count 1, low-priority ones their share; the speed of a normal
    // thread at a fractional load interpolates the table (at least one thread's worth).
    double load = 0;
    for (size_t i = 0; i < m_active.size(); ++i)
        if (m_active[i]) load += m_low[i] ? m_low_share : 1.0;
    load = std::clamp(load, 1.0, static_cast<double>(m_smt_speed.size()));
    const auto k = static_cast<size_t>(load);  // 1..size
    const double frac = load - static_cast<double>(k);
    const double speed = k < m_smt_speed.size()
                             ? m_smt_speed[k - 1] + frac * (m_smt_speed[k] - m_smt_speed[k - 1])
                             : m_smt_speed[k - 1];
    m_normal_rate = static_cast<double>(m_clock_hz) * speed;
    for (const member& t : m_threads) t.listener->rerated(at);
}

bool core::is_active(unsigned thread_index) const {
    return m_active.at(thread_index);
}

void core::attach(const local_time::wake_source& activity, rate_listener& listener) {
    m_threads.push_back({&activity, &listener});
    m_slots_gathered = false;
    m_floor = {};  // 0: no bound until the slots are gathered again
}

sc_dt::uint64 core::next_wake() const {
    if (!m_slots_gathered) {
        m_wake_slots.clear();
        wake_slots(m_wake_slots);
        for (const local_time::wake_slot* s : m_wake_slots) s->watch(&m_floor);
        m_slots_gathered = true;
        m_floor.exact = false;
    }
    if (m_floor.exact) return m_floor.at;
    sc_dt::uint64 t = ~sc_dt::uint64{0};
    for (const local_time::wake_slot* s : m_wake_slots) t = std::min(t, s->value());
    m_floor = {t, true};
    return t;
}

void core::wake_slots(std::vector<const local_time::wake_slot*>& out) const {
    for (const member& m : m_threads) m.activity->wake_slots(out);
}

double core::busy_thread_seconds() const {
    return m_busy_acc + m_active_count * (local_time::now() - m_busy_since).to_seconds();
}

}  // namespace nestvp
