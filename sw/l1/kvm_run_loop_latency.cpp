// kvm_run_loop: the path marks of the L1 run loop and the latencies that end in it
// (docs/nested-entry-exit.md): entry, exit, L1 handling, round trip and wake.
#include "sw/l1/kvm_run_loop.h"

namespace nestvp {

void kvm_run_loop::mark(path_step s) {
    m_probe.step(m_cpu.id(), s, m_cpu.cpu().step_time());
}

void kvm_run_loop::run_hcall_issued() {
    // hcall() first retires what L1 charged: the call leaves when that work ends.
    m_issued = m_cpu.cpu().step_time();
}

void kvm_run_loop::run_hcall_returned() {
    // L1 resumes once L0's return (charged to this thread) is done.
    m_resumed = m_cpu.cpu().step_time();
    m_probe.step(m_cpu.id(), path_step::l1_parse_output, m_resumed);
}

void kvm_run_loop::sample_after_run(uint32_t reason) {
    cpu_if& t = m_cpu.cpu();
    const unsigned v = m_cpu.id();
    const uint64_t entered = t.entry_time_value(), trapped = t.trap_time_value();
    const uint64_t issued = m_issued, resumed = m_resumed;
    // Asleep: blocked, L0's dispatch of the ceded CPU back, the wake-up, halt polling.
    const uint64_t asleep =
        path_step_bit(path_step::l1_blocked) | path_step_bit(path_step::l0_dispatch) |
        path_step_bit(path_step::l1_wake) | path_step_bit(path_step::l1_halt_poll);
    if (m_last.valid) {
        // L1's handling of the previous exit ended with this run hcall; its sleep is not
        // handling. The round trip counts only when the vCPU did not block.
        m_probe.latency(latency_kind::l1_handling, v, m_last.reason, m_last.resumed, issued,
                        asleep);
        if (m_last.trapped && m_last.blocks == m_blocks && entered >= issued)
            m_probe.latency(latency_kind::round_trip, v, m_last.reason, m_last.trap, entered);
    }
    const bool ran = entered >= issued;  // L2 ran (not an immediate exit)
    if (ran) {
        m_probe.latency(latency_kind::nested_entry, v, reason, issued, entered);
        m_probe.latency(latency_kind::nested_exit, v, reason, trapped, resumed);
        if (m_wake_from && m_wake_from <= entered)
            m_probe.latency(latency_kind::wake, v, latency_reason::hrtimer, m_wake_from, entered);
        m_wake_from = 0;
    }
    m_last = last_exit{true, ran, reason, trapped, resumed, m_blocks};
}

}  // namespace nestvp
