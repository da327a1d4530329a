#include "sw/probes/nested_probe.h"

namespace nestvp {

void probe_fanout::on_count(counter c, unsigned thread, uint64_t n) {
    for (probe_observer* o : m_observers) o->on_count(c, thread, n);
}
void probe_fanout::on_step(unsigned thread, path_step s, uint64_t t) {
    for (probe_observer* o : m_observers) o->on_step(thread, s, t);
}
void probe_fanout::on_latency(latency_kind k, unsigned thread, uint32_t reason, uint64_t t0,
                              uint64_t t1, uint64_t skip) {
    for (probe_observer* o : m_observers) o->on_latency(k, thread, reason, t0, t1, skip);
}
void probe_fanout::on_timer_interrupt(unsigned thread, uint64_t edge, uint64_t handler_start) {
    for (probe_observer* o : m_observers) o->on_timer_interrupt(thread, edge, handler_start);
}
void probe_fanout::on_get_state_begin(unsigned thread, uint64_t t) {
    for (probe_observer* o : m_observers) o->on_get_state_begin(thread, t);
}
void probe_fanout::on_get_state_end(unsigned thread, uint64_t t) {
    for (probe_observer* o : m_observers) o->on_get_state_end(thread, t);
}
void probe_fanout::on_hcall(unsigned thread, uint64_t number) {
    for (probe_observer* o : m_observers) o->on_hcall(thread, number);
}
void probe_fanout::on_exit_vector(unsigned thread, uint32_t vector) {
    for (probe_observer* o : m_observers) o->on_exit_vector(thread, vector);
}
void probe_fanout::on_guest_exit_tracepoint(unsigned thread, uint32_t trap) {
    for (probe_observer* o : m_observers) o->on_guest_exit_tracepoint(thread, trap);
}
void probe_fanout::on_run_returned(unsigned thread, double t_s) {
    for (probe_observer* o : m_observers) o->on_run_returned(thread, t_s);
}
void probe_fanout::on_tracepoint(const tracepoint_event& e) {
    for (probe_observer* o : m_observers) o->on_tracepoint(e);
}

}  // namespace nestvp
