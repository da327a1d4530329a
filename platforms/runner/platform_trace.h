#pragma once
// VCD trace of a platform run (`nestvp run --trace FILE.vcd`): per hardware thread, the DEC and
// HDEC values, the DEC and HDEC interrupt lines, the context level (0 = L0, 1 = L1, 2 = L2) and
// whether the thread is ceded (inactive). Values are sampled at every point where the thread's
// software acts (entries, traps, hcalls, work segments), and written only when they change;
// times are in ps, so each change sits on its TB tick. Off by default; costs nothing when off
// (the threads' trace hook is empty). A window limits the trace to [start, end] seconds.
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "models/hardware_thread.h"

namespace nestvp {

class platform_trace {
public:
    // Throws std::runtime_error naming the path when the file cannot be written.
    platform_trace(const std::string& path, const std::vector<hardware_thread*>& threads,
                   double start_s, double end_s);
    ~platform_trace();

    void sample(unsigned thread);  // called by a thread's trace hook

private:
    struct signals {
        std::string dec, hdec, dec_irq, hdec_irq, level, ceded;  // VCD identifiers
        uint64_t last_dec = 0, last_hdec = 0;
        int last_dec_irq = -1, last_hdec_irq = -1, last_level = -1, last_ceded = -1;
        bool first = true;
    };
    void stamp(uint64_t ps);

    std::ofstream m_out;
    std::vector<hardware_thread*> m_threads;
    std::vector<signals> m_sig;
    uint64_t m_start_ps, m_end_ps;
    uint64_t m_last_stamp = ~0ull;
};

}  // namespace nestvp
