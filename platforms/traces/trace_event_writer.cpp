#include "platforms/traces/trace_event_writer.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "platforms/records/json.h"
#include "sw/papr/papr.h"

namespace nestvp {
namespace {

constexpr int hw_pid = 1;
constexpr int vcpu_pid_base = 100;
constexpr double bin_s = 0.01;  // the exit-rate counter's bin
// Tracks of a hardware thread (tid = 8 * thread + n) and of an L2 vCPU (pid 100 + v).
constexpr int steps_tid = 1, hcall_tid = 2;
constexpr int idle_tid = 1, exit_tid = 2, timer_tid = 3, wake_tid = 4, dispatch_tid = 5;

int hw_tid(unsigned thread, int track) {
    return static_cast<int>(8 * thread) + track;
}

int latency_tid(latency_kind k) {
    switch (k) {
        case latency_kind::timer_interrupt:
            return timer_tid;
        case latency_kind::wake:
            return wake_tid;
        case latency_kind::l0_dispatch:
            return dispatch_tid;
        default:
            return exit_tid;  // entry, exit, L1 handling and the round trip nest in one another
    }
}

// One trace event; `dur_us` < 0 for events without a duration.
void put(std::string& out, const char* ph, double ts_us, double dur_us, int pid, int tid,
         const std::string& name, const std::string& rest = {}) {
    char buf[160];
    if (dur_us >= 0)
        std::snprintf(buf, sizeof buf,
                      "{\"ph\":\"%s\",\"ts\":%.6f,\"dur\":%.6f,\"pid\":%d,\"tid\":%d,", ph, ts_us,
                      dur_us, pid, tid);
    else
        std::snprintf(buf, sizeof buf, "{\"ph\":\"%s\",\"ts\":%.6f,\"pid\":%d,\"tid\":%d,", ph,
                      ts_us, pid, tid);
    out += buf;
    out += "\"name\":" + json_quote(name);
    if (!rest.empty()) out += "," + rest;
    out += "},\n";
}

void put_name(std::string& out, const char* what, int pid, int tid, const std::string& name) {
    out += std::string("{\"ph\":\"M\",\"name\":\"") + what + "\",\"pid\":" + std::to_string(pid) +
           ",\"tid\":" + std::to_string(tid) + ",\"args\":{\"name\":" + json_quote(name) + "}},\n";
}

}  // namespace

trace_event_writer::trace_event_writer(const trace_clock& clock, unsigned threads, double start_s,
                                       double end_s)
    : m_clock(clock),
      m_start_s(start_s),
      m_end_s(end_s),
      m_threads(threads),
      m_exit_bins(threads) {}

bool trace_event_writer::in_window(uint64_t t) const {
    const double s = m_clock.seconds(t);
    return s >= m_start_s && (m_end_s < 0 || s <= m_end_s);
}

void trace_event_writer::add_span(uint64_t t0, uint64_t t1, unsigned thread, uint8_t track,
                                  std::string name, std::string args) {
    if (in_window(t0)) m_spans.push_back({t0, t1, thread, track, std::move(name), std::move(args)});
}

// The same rules as path_recorder::mark: a repeated step is one step, times never go back.
void trace_event_writer::on_step(unsigned thread, path_step s, uint64_t t) {
    if (thread >= m_threads.size()) return;
    thread_state& ts = m_threads[thread];
    if (!ts.marks.empty()) {
        if (ts.marks.back().step == s) return;
        t = std::max(t, ts.marks.back().t);
    }
    m_last_t = std::max(m_last_t, t);
    if (m_clock.seconds(t) < m_start_s) ts.marks.clear();  // keep only the last one before
    if (m_end_s >= 0 && m_clock.seconds(t) > m_end_s) {
        if (!ts.marks.empty() && ts.marks.back().step == path_step::count_) return;
        s = path_step::count_;  // the window's end: closes the last step
    }
    ts.marks.push_back({t, s});
    follow_flow(thread, s, t);
}

// An exit's arrow: the L2 trap, L1's first step after it, and the entry back into L2.
void trace_event_writer::follow_flow(unsigned thread, path_step s, uint64_t t) {
    thread_state& ts = m_threads[thread];
    if (!in_window(t)) return;
    if (s == path_step::l0_exit_interrupt) {
        ts.trap_t = t;
        ts.flow_id = m_next_flow++;
        ts.flow_open = true;
        ts.flow_in_l1 = false;
        m_flows.push_back({t, thread, ts.flow_id, 's'});
    } else if (ts.flow_open && !ts.flow_in_l1 && s >= path_step::l1_parse_output &&
               s != path_step::count_) {
        ts.flow_in_l1 = true;
        m_flows.push_back({t, thread, ts.flow_id, 't'});
    } else if (ts.flow_open && s == path_step::l2_running) {
        ts.flow_open = false;
        m_flows.push_back({t, thread, ts.flow_id, 'f'});
    }
}

void trace_event_writer::on_latency(latency_kind k, unsigned thread, uint32_t reason, uint64_t t0,
                                    uint64_t t1, uint64_t skip) {
    if (thread < m_threads.size() && in_window(t0) && in_window(t1) && t1 >= t0)
        m_latencies.push_back({k, thread, reason, t0, t1, skip});
}

void trace_event_writer::on_timer_interrupt(unsigned thread, uint64_t edge, uint64_t handler) {
    if (thread >= m_threads.size() || edge > handler) return;
    if (in_window(edge)) m_instants.push_back({edge, thread, "DEC edge"});
    on_latency(latency_kind::timer_interrupt, thread, 0, edge, handler, 0);
}

void trace_event_writer::on_get_state_begin(unsigned thread, uint64_t t) {
    if (thread >= m_threads.size()) return;
    m_threads[thread].get_state_from = t;
    m_threads[thread].in_get_state = true;
}

void trace_event_writer::on_get_state_end(unsigned thread, uint64_t t) {
    if (thread >= m_threads.size() || !m_threads[thread].in_get_state) return;
    m_threads[thread].in_get_state = false;
    add_span(m_threads[thread].get_state_from, t, thread, track_get_state, "GET_STATE");
}

void trace_event_writer::on_exit_vector(unsigned thread, uint32_t vector) {
    if (thread >= m_threads.size()) return;
    thread_state& ts = m_threads[thread];
    const std::string label = papr::exit_label(vector);
    if (ts.in_hcall) ts.hcall_args += ",\"reason\":" + json_quote(label);
    if (ts.trap_t && in_window(ts.trap_t)) m_instants.push_back({ts.trap_t, thread, label});
}

void trace_event_writer::on_tracepoint(const tracepoint_event& e) {
    if (e.thread >= m_threads.size()) return;
    thread_state& ts = m_threads[e.thread];
    char buf[160];
    switch (e.point) {
        case tracepoint::hcall_entry:
            ts.in_hcall = true;
            ts.hcall_from = e.t;
            ts.hcall_opcode = e.opcode;
            ts.hcall_args = "\"vcpu\":" + std::to_string(e.thread);
            ts.gsb = {};
            break;
        case tracepoint::hcall_exit:
            if (!ts.in_hcall) break;
            ts.in_hcall = false;
            std::snprintf(buf, sizeof buf,
                          ",\"retval\":%" PRId64 ",\"gsb_elements_in\":%" PRIu64
                          ",\"gsb_bytes_in\":%" PRIu64 ",\"gsb_elements_out\":%" PRIu64
                          ",\"gsb_bytes_out\":%" PRIu64,
                          e.retval, ts.gsb[0], ts.gsb[1], ts.gsb[2], ts.gsb[3]);
            add_span(ts.hcall_from, e.t, e.thread, track_hcall, papr::hcall_label(ts.hcall_opcode),
                     "\"args\":{" + ts.hcall_args + buf + "}");
            break;
        case tracepoint::gsb_buffer:  // a run hcall moves its input and its output apart
            ts.gsb[0] += e.elements_in, ts.gsb[1] += e.bytes_in;
            ts.gsb[2] += e.elements_out, ts.gsb[3] += e.bytes_out;
            break;
        case tracepoint::l2_idle_enter:
            ts.in_idle = true;
            ts.idle_from = e.t;
            break;
        case tracepoint::l2_idle_exit:
            if (!ts.in_idle) break;
            ts.in_idle = false;
            add_span(ts.idle_from, e.t, e.thread, track_idle,
                     e.idle_state == 0 ? "snooze" : "Shared Cede");
            break;
        case tracepoint::kvm_guest_exit:
            if (in_window(e.t)) {
                const auto bin = static_cast<size_t>((m_clock.seconds(e.t) - m_start_s) / bin_s);
                auto& bins = m_exit_bins[e.thread];
                if (bins.size() <= bin) bins.resize(bin + 1);
                ++bins[bin];
            }
            break;
        default:
            break;
    }
}

// A latency as path_recorder::sample measures it: the time of each step in [t0, t1], less
// the steps in `skip`, in sc_time units.
uint64_t trace_event_writer::latency_units(const latency& l) const {
    const std::vector<mark>& m = m_threads[l.thread].marks;
    auto it = std::upper_bound(m.begin(), m.end(), l.t0,
                               [](uint64_t t, const mark& k) { return t < k.t; });
    uint64_t units = 0;
    if (it == m.begin()) {
        units += std::min(m.empty() ? l.t1 : m.front().t, l.t1) - l.t0;  // before any mark
    } else {
        --it;
    }
    for (; it != m.end() && it->t < l.t1; ++it) {
        const uint64_t from = std::max(it->t, l.t0);
        const uint64_t to = std::min(it + 1 != m.end() ? (it + 1)->t : l.t1, l.t1);
        if (to <= from) continue;
        if (it->step != path_step::count_ && (l.skip & path_step_bit(it->step))) continue;
        units += to - from;
    }
    return units;
}

void trace_event_writer::write_steps(std::string& out) const {
    const double us = 1e6;
    for (unsigned th = 0; th < m_threads.size(); ++th) {
        const std::vector<mark>& m = m_threads[th].marks;
        for (size_t i = 0; i < m.size(); ++i) {
            if (m[i].step == path_step::count_) break;
            const uint64_t from = m[i].t;
            const uint64_t to = i + 1 < m.size() ? m[i + 1].t : std::max(m_last_t, from);
            if (!in_window(from) && i + 1 < m.size() && !in_window(to)) continue;
            const double t0 = std::max(m_clock.seconds(from), m_start_s), t1 = m_clock.seconds(to);
            if (t1 <= t0) continue;
            put(out, "X", t0 * us, (t1 - t0) * us, hw_pid, hw_tid(th, steps_tid),
                path_step_name(m[i].step));
        }
    }
    for (const span& s : m_spans) {
        const double t0 = m_clock.seconds(s.t0) * us, t1 = m_clock.seconds(s.t1) * us;
        const bool on_vcpu = s.track == track_idle;
        put(out, "X", t0, t1 - t0, on_vcpu ? vcpu_pid_base + static_cast<int>(s.thread) : hw_pid,
            on_vcpu ? idle_tid : hw_tid(s.thread, s.track == track_hcall ? hcall_tid : steps_tid),
            s.name, s.args);
    }
    for (const instant& i : m_instants) {
        const bool dec = i.name == "DEC edge";
        put(out, "i", m_clock.seconds(i.t) * us, -1,
            dec ? vcpu_pid_base + static_cast<int>(i.thread) : hw_pid,
            dec ? timer_tid : hw_tid(i.thread, steps_tid), i.name, "\"s\":\"t\"");
    }
    for (const flow& f : m_flows) {
        const std::string rest = "\"cat\":\"exit\",\"id\":" + std::to_string(f.id) +
                                 (f.phase == 'f' ? ",\"bp\":\"e\"" : "");
        const char ph[2] = {f.phase, 0};
        put(out, ph, m_clock.seconds(f.t) * us, -1, hw_pid, hw_tid(f.thread, steps_tid), "exit",
            rest);
    }
}

void trace_event_writer::write_latencies(std::string& out) const {
    std::vector<const latency*> order;
    for (const latency& l : m_latencies) order.push_back(&l);
    // A parent before the children that start with it: by start, the longer first.
    std::stable_sort(order.begin(), order.end(), [](const latency* a, const latency* b) {
        return a->t0 != b->t0 ? a->t0 < b->t0 : a->t1 > b->t1;
    });
    char buf[32], args[128];
    const double units_per_ns = m_clock.seconds(1) > 0 ? 1e-9 / m_clock.seconds(1) : 1;
    for (const latency* l : order) {
        std::string name = latency_kind_name(l->kind);
        name = name.substr(0, name.size() - std::string("_latency_ns").size());
        const double ns = static_cast<double>(latency_units(*l)) / units_per_ns;
        std::snprintf(args, sizeof args, "\"args\":{\"ns\":%.3f,\"reason\":", ns);
        const double t0 = m_clock.seconds(l->t0) * 1e6, t1 = m_clock.seconds(l->t1) * 1e6;
        put(out, "X", t0, t1 - t0, vcpu_pid_base + static_cast<int>(l->thread),
            latency_tid(l->kind), name,
            std::string(args) + json_quote(latency_reason_label(l->reason, buf)) + "}");
    }
}

void trace_event_writer::write_counters(std::string& out) const {
    size_t bins = 0;
    for (const auto& b : m_exit_bins) bins = std::max(bins, b.size());
    for (size_t i = 0; i < bins; ++i) {
        std::string args = "\"args\":{";
        for (unsigned v = 0; v < m_exit_bins.size(); ++v) {
            const uint32_t n = i < m_exit_bins[v].size() ? m_exit_bins[v][i] : 0;
            args +=
                (v ? ",\"vCPU " : "\"vCPU ") + std::to_string(v) + "\":" + json_number(n / bin_s);
        }
        put(out, "C", (m_start_s + static_cast<double>(i) * bin_s) * 1e6, -1, hw_pid, 0,
            "exits per second", args + "}");
    }
}

std::string trace_event_writer::text(const std::string& platform) const {
    std::string out =
        "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"platform\":" + json_quote(platform) +
        ",\"generator\":\"nestvp run --trace-events\"},\n\"traceEvents\":[\n";
    put_name(out, "process_name", hw_pid, 0, "hardware threads");
    for (unsigned th = 0; th < m_threads.size(); ++th) {
        const std::string n = std::to_string(th);
        put_name(out, "thread_name", hw_pid, hw_tid(th, steps_tid),
                 "thread " + n + " (L1 CPU " + n + ")");
        put_name(out, "thread_name", hw_pid, hw_tid(th, hcall_tid), "thread " + n + " hcalls");
        const int pid = vcpu_pid_base + static_cast<int>(th);
        put_name(out, "process_name", pid, 0, "L2 vCPU " + n);
        put_name(out, "thread_name", pid, idle_tid, "idle");
        put_name(out, "thread_name", pid, exit_tid, "exit path latencies");
        put_name(out, "thread_name", pid, timer_tid, "timer interrupt");
        put_name(out, "thread_name", pid, wake_tid, "wake");
        put_name(out, "thread_name", pid, dispatch_tid, "L0 dispatch");
    }
    write_steps(out);
    write_latencies(out);
    write_counters(out);
    if (out.size() >= 2 && out.compare(out.size() - 2, 2, ",\n") == 0) out.erase(out.size() - 2, 1);
    out += "]}\n";
    return out;
}

}  // namespace nestvp
