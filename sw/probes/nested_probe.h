#pragma once
// The probe software and hardware announce through: a step of the nested path begins, an
// event is counted, an hcall or a GET_STATE is made, a trap is seen at the kvm_guest_exit
// tracepoint, an L2 timer interrupt is taken, a latency ends. The platform binds observers
// (sw/metrics: the counters and the path recorder; later trace writers); the software knows
// none of them. With no observer bound, each announcement is one predictable branch.
#include <cstdint>
#include <vector>

#include "sw/probes/probe_events.h"

namespace nestvp {

// What an observer hears. Times are sc_time values (cpu_if::step_time); `thread` is the
// platform-wide thread number, which is also the vCPU number (one L2 vCPU per thread).
class probe_observer {
public:
    virtual ~probe_observer() = default;
    virtual void on_count(counter c, unsigned thread, uint64_t n) = 0;
    virtual void on_step(unsigned thread, path_step s, uint64_t t) = 0;
    // A latency the software measured between two of its own points; `skip` is a set of
    // path_recorder bits whose time is left out (time asleep).
    virtual void on_latency(latency_kind k, unsigned thread, uint32_t reason, uint64_t t0,
                            uint64_t t1, uint64_t skip) = 0;
    // An L2 DEC edge at `edge` whose handler started at `handler_start`: the observer
    // classifies it by where the vCPU was at the edge.
    virtual void on_timer_interrupt(unsigned thread, uint64_t edge, uint64_t handler_start) = 0;
    // One H_GUEST_GET_STATE round trip from inside whichever L1 step needed it.
    virtual void on_get_state_begin(unsigned thread, uint64_t t) = 0;
    virtual void on_get_state_end(unsigned thread, uint64_t t) = 0;
    virtual void on_hcall(unsigned thread, uint64_t number) = 0;
    virtual void on_exit_vector(unsigned thread, uint32_t vector) = 0;  // L0 saw L2 trap
    virtual void on_guest_exit_tracepoint(unsigned thread, uint32_t trap) = 0;
    virtual void on_run_returned(unsigned thread, double t_s) = 0;  // L2 ran and exited
    // A tracepoint fired; only while the probe is tracing (a trace writer is bound).
    virtual void on_tracepoint(const tracepoint_event&) {}
};

// An observer that hears nothing but what it overrides: the base of trace writers, which want
// a few announcements (platforms/traces).
class probe_listener : public probe_observer {
public:
    void on_count(counter, unsigned, uint64_t) override {}
    void on_step(unsigned, path_step, uint64_t) override {}
    void on_latency(latency_kind, unsigned, uint32_t, uint64_t, uint64_t, uint64_t) override {}
    void on_timer_interrupt(unsigned, uint64_t, uint64_t) override {}
    void on_get_state_begin(unsigned, uint64_t) override {}
    void on_get_state_end(unsigned, uint64_t) override {}
    void on_hcall(unsigned, uint64_t) override {}
    void on_exit_vector(unsigned, uint32_t) override {}
    void on_guest_exit_tracepoint(unsigned, uint32_t) override {}
    void on_run_returned(unsigned, double) override {}
};

// Several observers on one probe, in the order bound.
class probe_fanout final : public probe_observer {
public:
    void add(probe_observer& o) { m_observers.push_back(&o); }
    bool empty() const { return m_observers.empty(); }
    void on_count(counter c, unsigned thread, uint64_t n) override;
    void on_step(unsigned thread, path_step s, uint64_t t) override;
    void on_latency(latency_kind k, unsigned thread, uint32_t reason, uint64_t t0, uint64_t t1,
                    uint64_t skip) override;
    void on_timer_interrupt(unsigned thread, uint64_t edge, uint64_t handler_start) override;
    void on_get_state_begin(unsigned thread, uint64_t t) override;
    void on_get_state_end(unsigned thread, uint64_t t) override;
    void on_hcall(unsigned thread, uint64_t number) override;
    void on_exit_vector(unsigned thread, uint32_t vector) override;
    void on_guest_exit_tracepoint(unsigned thread, uint32_t trap) override;
    void on_run_returned(unsigned thread, double t_s) override;
    void on_tracepoint(const tracepoint_event& e) override;

private:
    std::vector<probe_observer*> m_observers;
};

class nested_probe {
public:
    // One observer (a probe_fanout for several); nullptr unbinds.
    void bind(probe_observer* observer) { m_observer = observer; }
    bool bound() const { return m_observer != nullptr; }
    // Whether tracepoints are announced: the software builds a tracepoint_event (and reads the
    // time for it) only when this holds, so measurement without a trace pays one branch.
    void set_tracing(bool on) { m_tracing = on; }
    bool tracing() const { return m_tracing && m_observer != nullptr; }

    void count(counter c, unsigned thread, uint64_t n = 1) {
        if (m_observer) m_observer->on_count(c, thread, n);
    }
    void step(unsigned thread, path_step s, uint64_t t) {
        if (m_observer) m_observer->on_step(thread, s, t);
    }
    void latency(latency_kind k, unsigned thread, uint32_t reason, uint64_t t0, uint64_t t1,
                 uint64_t skip = 0) {
        if (m_observer) m_observer->on_latency(k, thread, reason, t0, t1, skip);
    }
    void timer_interrupt(unsigned thread, uint64_t edge, uint64_t handler_start) {
        if (m_observer) m_observer->on_timer_interrupt(thread, edge, handler_start);
    }
    void get_state_begin(unsigned thread, uint64_t t) {
        if (m_observer) m_observer->on_get_state_begin(thread, t);
    }
    void get_state_end(unsigned thread, uint64_t t) {
        if (m_observer) m_observer->on_get_state_end(thread, t);
    }
    void hcall(unsigned thread, uint64_t number) {
        if (m_observer) m_observer->on_hcall(thread, number);
    }
    void exit_vector(unsigned thread, uint32_t vector) {
        if (m_observer) m_observer->on_exit_vector(thread, vector);
    }
    void guest_exit_tracepoint(unsigned thread, uint32_t trap) {
        if (m_observer) m_observer->on_guest_exit_tracepoint(thread, trap);
    }
    void run_returned(unsigned thread, double t_s) {
        if (m_observer) m_observer->on_run_returned(thread, t_s);
    }

    void tracepoint(const tracepoint_event& e) {
        if (tracing()) m_observer->on_tracepoint(e);
    }

private:
    probe_observer* m_observer = nullptr;
    bool m_tracing = false;
};

}  // namespace nestvp
