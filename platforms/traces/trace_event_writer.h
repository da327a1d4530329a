#pragma once
// `nestvp run --trace-events FILE`: a timeline of the run in the Chrome trace-event JSON that
// Perfetto (ui.perfetto.dev) and chrome://tracing open (docs/trace-events.md).
//   - process "hardware threads": per thread, a track of the nested path's steps (L2 running,
//     each L0 and L1 step, blocked), GET_STATE round trips nested inside the L1 step that needed
//     them, and a track of L1's hcalls (args: vCPU, exit reason, GSB elements and bytes);
//   - process "L2 vCPU v": its idle states (snooze, Shared Cede), and one track per latency
//     family (exit path, timer interrupt, wake, L0 dispatch) with each sample's value in ns;
//   - instants for DEC edges and exit interrupts, flow arrows from an L2 trap through L1's
//     handling back into L2, and a counter track of exits per second per vCPU.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "platforms/traces/trace_clock.h"
#include "sw/probes/nested_probe.h"

namespace nestvp {

class trace_event_writer final : public probe_listener {
public:
    // Events from start_s to end_s (end_s < 0: the run's end) are kept.
    trace_event_writer(const trace_clock& clock, unsigned threads, double start_s, double end_s);

    void on_step(unsigned thread, path_step s, uint64_t t) override;
    void on_latency(latency_kind k, unsigned thread, uint32_t reason, uint64_t t0, uint64_t t1,
                    uint64_t skip) override;
    void on_timer_interrupt(unsigned thread, uint64_t edge, uint64_t handler_start) override;
    void on_get_state_begin(unsigned thread, uint64_t t) override;
    void on_get_state_end(unsigned thread, uint64_t t) override;
    void on_exit_vector(unsigned thread, uint32_t vector) override;
    void on_tracepoint(const tracepoint_event& e) override;

    // The JSON document; `platform` names it in its metadata.
    std::string text(const std::string& platform) const;

private:
    struct mark {
        uint64_t t;
        path_step step;
    };
    struct span {  // a slice other than a path step
        uint64_t t0, t1;
        unsigned thread;
        uint8_t track;  // track_*
        std::string name, args;
    };
    struct latency {
        latency_kind kind;
        unsigned thread;
        uint32_t reason;
        uint64_t t0, t1, skip;
    };
    struct instant {
        uint64_t t;
        unsigned thread;
        std::string name;
    };
    struct flow {
        uint64_t t;
        unsigned thread, id;
        char phase;  // 's', 't', 'f'
    };
    struct thread_state {
        std::vector<mark> marks;  // from the last one before the window
        uint64_t get_state_from = 0, hcall_from = 0, idle_from = 0, trap_t = 0;
        uint64_t hcall_opcode = 0;
        unsigned flow_id = 0;
        std::string hcall_args;
        std::array<uint64_t, 4> gsb{};  // elements and bytes in, elements and bytes out
        bool in_get_state = false, in_hcall = false, in_idle = false, flow_open = false,
             flow_in_l1 = false;
    };
    enum : uint8_t { track_get_state, track_hcall, track_idle };  // span::track

    bool in_window(uint64_t t) const;
    void add_span(uint64_t t0, uint64_t t1, unsigned thread, uint8_t track, std::string name,
                  std::string args = {});
    void follow_flow(unsigned thread, path_step s, uint64_t t);
    uint64_t latency_units(const latency& l) const;
    void write_steps(std::string& out) const;
    void write_latencies(std::string& out) const;
    void write_counters(std::string& out) const;

    trace_clock m_clock;
    double m_start_s, m_end_s;
    std::vector<thread_state> m_threads;
    std::vector<span> m_spans;
    std::vector<latency> m_latencies;
    std::vector<instant> m_instants;
    std::vector<flow> m_flows;
    std::vector<std::vector<uint32_t>> m_exit_bins;  // per vCPU, exits per bin
    unsigned m_next_flow = 1;
    uint64_t m_last_t = 0;  // the newest time announced (closes the last step)
};

}  // namespace nestvp
