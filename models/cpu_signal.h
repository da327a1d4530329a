#pragma once
// A signal from the software of one hardware thread to software waiting on another (L1 vCPU 0
// telling the others that the guest exists): raise() wakes every cpu_if::wait_signal() on it,
// in the next delta cycle of the raiser's local time (docs/local-time.md).
#include <memory>

namespace sc_core {
class sc_event;
}

namespace nestvp {

class cpu_signal {
public:
    cpu_signal();
    ~cpu_signal();
    cpu_signal(const cpu_signal&) = delete;
    cpu_signal& operator=(const cpu_signal&) = delete;

    // From a thread's software: catches up with the kernel first, so waiters see it in order.
    void raise();
    // For the hardware side (hardware_thread::wait_signal).
    const sc_core::sc_event& event() const;

private:
    std::unique_ptr<sc_core::sc_event> m_event;
};

}  // namespace nestvp
