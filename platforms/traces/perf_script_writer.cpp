#include "platforms/traces/perf_script_writer.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "platforms/traces/kvm_exit_symbols.h"

namespace nestvp {

perf_script_writer::perf_script_writer(const trace_clock& clock, double start_s, double end_s)
    : m_clock(clock), m_start_s(start_s), m_end_s(end_s) {}

void perf_script_writer::on_tracepoint(const tracepoint_event& e) {
    switch (e.point) {
        case tracepoint::kvm_guest_enter:
        case tracepoint::kvm_guest_exit:
        case tracepoint::hcall_entry:
        case tracepoint::hcall_exit:
        case tracepoint::gsb_recv:
            break;
        default:
            return;  // trace-only details, not L1 kernel events
    }
    const double s = m_clock.seconds(e.t);
    if (s < m_start_s || (m_end_s >= 0 && s > m_end_s)) return;
    m_events.push_back(e);
}

std::string perf_script_writer::line(const tracepoint_event& e) const {
    char head[96], fields[128];
    const uint64_t ns = m_clock.ns(e.t);
    char comm[24];
    std::snprintf(comm, sizeof comm, "CPU %u/KVM", e.thread);
    std::snprintf(head, sizeof head, "%16s %6u [%03u] %5" PRIu64 ".%09" PRIu64 ": ", comm,
                  qemu_pid + 1 + e.thread, e.thread, ns / 1000000000u, ns % 1000000000u);
    switch (e.point) {
        case tracepoint::kvm_guest_enter:
            std::snprintf(fields, sizeof fields,
                          "VCPU %u: pc=0x%" PRIx64 " pexcp=0x%" PRIx64 " ceded=%d", e.thread, e.pc,
                          e.pending, e.ceded ? 1 : 0);
            break;
        case tracepoint::kvm_guest_exit:
            std::snprintf(fields, sizeof fields,
                          "VCPU %u: trap=%s pc=0x%" PRIx64 " msr=0x%" PRIx64 ", ceded=%d", e.thread,
                          kvm_exit_symbol(e.trap).c_str(), e.pc, e.msr, e.ceded ? 1 : 0);
            break;
        case tracepoint::hcall_entry:
            std::snprintf(fields, sizeof fields, "opcode=%" PRIu64, e.opcode);
            break;
        case tracepoint::hcall_exit:
            std::snprintf(fields, sizeof fields, "opcode=%" PRIu64 " retval=%" PRId64, e.opcode,
                          e.retval);
            break;
        default:  // gsb_recv
            std::snprintf(fields, sizeof fields, "(%" PRIx64 ")", gsb_recv_address);
            break;
    }
    return std::string(head) + tracepoint_name(e.point) + ": " + fields + "\n";
}

std::string perf_script_writer::text(const std::string& platform) const {
    std::vector<const tracepoint_event*> order;
    order.reserve(m_events.size());
    for (const auto& e : m_events) order.push_back(&e);
    // Each thread announces in its own time order; run-ahead interleaves threads.
    std::stable_sort(
        order.begin(), order.end(),
        [](const tracepoint_event* a, const tracepoint_event* b) { return a->t < b->t; });
    std::string out = "# nestvp " + platform +
                      ": perf script --ns of kvm_hv:kvm_guest_enter, kvm_hv:kvm_guest_exit, "
                      "powerpc:hcall_entry, powerpc:hcall_exit, probe:kvmppc_gsb_recv\n"
                      "# clock: host time base at " +
                      std::to_string(m_clock.tb_hz()) + " Hz; " + std::to_string(m_events.size()) +
                      " events\n";
    out.reserve(out.size() + m_events.size() * 100);
    for (const auto* e : order) out += line(*e);
    return out;
}

}  // namespace nestvp
