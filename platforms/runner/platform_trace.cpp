#include "platforms/runner/platform_trace.h"

#include <cmath>

#include "models/local_time.h"

namespace nestvp {

platform_trace::platform_trace(const std::string& path,
                               const std::vector<hardware_thread*>& threads, double start_s,
                               double end_s)
    : m_threads(threads), m_sig(threads.size()) {
    m_vcd =
        std::make_unique<vcd_writer>(path, "nestvp platform trace",
                                     "DEC/HDEC, lines, level and cede per hardware thread", "1 ps");
    m_start_ps = static_cast<uint64_t>(std::llround(start_s * 1e12));
    m_end_ps = end_s < 0 ? ~0ull : static_cast<uint64_t>(std::llround(end_s * 1e12));
    for (size_t i = 0; i < threads.size(); ++i) {
        const std::string scope = std::string("platform.") + threads[i]->basename();
        signals& s = m_sig[i];
        s.dec = m_vcd->add(scope, "dec", 64);
        s.hdec = m_vcd->add(scope, "hdec", 64);
        s.dec_irq = m_vcd->add(scope, "dec_irq", 1);
        s.hdec_irq = m_vcd->add(scope, "hdec_irq", 1);
        s.level = m_vcd->add(scope, "level", 2);
        s.ceded = m_vcd->add(scope, "ceded", 1);
    }
    // At the window's start every thread's software is suspended (nothing runs ahead past a
    // pending event in a traced run, local_time.h), so their values are read as they are.
    sc_core::sc_spawn(
        [this] {
            sc_core::wait(sc_core::sc_time::from_value(m_start_ps) - sc_core::sc_time_stamp());
            if (!m_vcd->started()) start_window(-1);
        },
        "trace_window_start");
}

void platform_trace::put(unsigned thread, timer_unit_if& timers) {
    hardware_thread& t = *m_threads[thread];
    const signals& s = m_sig[thread];
    m_vcd->set(s.dec, timers.read_dec());
    m_vcd->set(s.hdec, timers.read_hdec());
    m_vcd->set(s.dec_irq, timers.dec_pending());
    m_vcd->set(s.hdec_irq, timers.hdec_pending());
    m_vcd->set(s.level, static_cast<uint64_t>(t.level()));
    m_vcd->set(s.ceded, t.active() ? 0 : 1);
}

void platform_trace::start_window(int acting) {
    for (size_t i = 0; i < m_threads.size(); ++i)
        put(static_cast<unsigned>(i),
            static_cast<int>(i) == acting ? m_threads[i]->timers() : m_threads[i]->timers_as_is());
    m_vcd->at(m_start_ps);
}

void platform_trace::sample(unsigned thread) {
    const uint64_t ps = local_time::now_value();  // the acting thread's time
    if (ps < m_start_ps || ps > m_end_ps || thread >= m_threads.size()) return;
    if (!m_vcd->started()) start_window(static_cast<int>(thread));
    m_vcd->at(ps);
    put(thread, m_threads[thread]->timers());
}

}  // namespace nestvp
