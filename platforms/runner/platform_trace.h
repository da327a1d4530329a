#pragma once
// VCD trace of a platform run (`nestvp run --trace FILE.vcd`): per hardware thread, the DEC and
// HDEC values, the DEC and HDEC interrupt lines, the context level (0 = L0, 1 = L1, 2 = L2) and
// whether the thread is ceded (inactive). Values are sampled at every point where the thread's
// software acts (entries, traps, hcalls, work segments), and written only when they change;
// times are in ps, so each change sits on its TB tick. Off by default; costs nothing when off
// (the threads' trace hook is empty). A window limits the trace to [start, end] seconds; the
// file starts at the window's start with every thread's values then in $dumpvars.
// Written with the shared models/vcd_writer.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/hardware_thread.h"
#include "models/vcd_writer.h"

namespace nestvp {

class platform_trace {
public:
    // Throws std::runtime_error naming the path when the file cannot be written.
    platform_trace(const std::string& path, const std::vector<hardware_thread*>& threads,
                   double start_s, double end_s);

    void sample(unsigned thread);  // called by a thread's trace hook

private:
    // Every thread's values at the window's start, as $dumpvars (`acting`: the thread whose
    // software is running, if any, read through its settling accessors).
    void start_window(int acting);
    void put(unsigned thread, timer_unit_if& timers);
    struct signals {
        int dec, hdec, dec_irq, hdec_irq, level, ceded;  // vcd_writer ids
    };

    std::unique_ptr<vcd_writer> m_vcd;
    std::vector<hardware_thread*> m_threads;
    std::vector<signals> m_sig;
    uint64_t m_start_ps, m_end_ps;
};

}  // namespace nestvp
