#pragma once
// A hardware thread's data port: its software's loads and stores to (real) memory, such as the
// guest state buffers L1 builds for L0, through a TLM-2.0 initiator (DMI when granted). The
// memory's annotated delay is a stall of the thread, so GSB traffic costs what it moves.
#include "models/hardware_thread.h"
#include "models/memory_port.h"
#include "models/tlm_memory_port.h"

namespace nestvp {

class thread_memory_port : public memory_port {
public:
    // `thread` may be null (no stall is charged: tests without a running vCPU).
    thread_memory_port(tlm_memory_port& port, hardware_thread* thread)
        : m_port(port), m_thread(thread) {}
    bool read(uint64_t addr, void* dst, size_t len) override {
        const bool ok = m_port.read(addr, dst, len);
        stall();
        return ok;
    }
    bool write(uint64_t addr, const void* src, size_t len) override {
        const bool ok = m_port.write(addr, src, len);
        stall();
        return ok;
    }

private:
    void stall() {
        const sc_core::sc_time d = m_port.take_delay();  // taken even with no thread to stall
        if (m_thread) m_thread->stall(d);                // a zero delay stalls nothing
    }

    tlm_memory_port& m_port;
    hardware_thread* m_thread;
};

}  // namespace nestvp
