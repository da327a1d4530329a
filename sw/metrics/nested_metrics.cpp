#include "sw/metrics/nested_metrics.h"

namespace nestvp {

void nested_metrics::on_timer_interrupt(unsigned thread, uint64_t edge, uint64_t handler_start) {
    // Where the vCPU was at the edge says which path the interrupt waited on. A ceded L1 CPU is
    // woken by L0 at the same edge (its DEC): still blocked in L1.
    if (edge > handler_start) return;
    const path_step at = m_paths.step_at(thread, edge);
    const bool blocked = at == path_step::l1_blocked || at == path_step::l0_dispatch;
    const uint32_t where = at == path_step::l2_running ? latency_reason::in_l2
                           : blocked                   ? latency_reason::blocked_in_l1
                                                       : latency_reason::in_l0_l1;
    m_paths.sample(latency_kind::timer_interrupt, thread, where, edge, handler_start);
}

void nested_metrics::on_get_state_begin(unsigned thread, uint64_t t) {
    // The round trip is a step inside whichever L1 step needed it; that step resumes after.
    if (thread < m_get_state_caller.size()) m_get_state_caller[thread] = m_paths.current(thread);
    m_paths.mark(thread, path_step::l1_get_state, t);
}

void nested_metrics::on_get_state_end(unsigned thread, uint64_t t) {
    if (thread < m_get_state_caller.size()) m_paths.mark(thread, m_get_state_caller[thread], t);
}

}  // namespace nestvp
