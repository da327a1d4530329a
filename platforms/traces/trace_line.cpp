#include "platforms/traces/trace_line.h"

#include <regex>

namespace nestvp {
namespace {

// perf script's default fields for a tracepoint: comm, tid (or pid/tid), cpu, time, event.
const std::regex& perf_line() {
    static const std::regex r(
        R"(^\s*(.+?)\s+(\d+)(?:/(\d+))?\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(\S+?):(?:\s+(.*))?$)",
        std::regex::optimize);
    return r;
}
// tracefs: TASK-PID, an optional (TGID), [CPU], the irq-info flags, TIMESTAMP: EVENT:.
const std::regex& tracefs_line() {
    static const std::regex r(
        R"(^\s*(.+)-(\d+)\s+(?:\(\s*[\d-]+\)\s+)?\[(\d+)\]\s+(?:[\w.]{4,5}\s+)?(\d+)(?:\.(\d+))?:\s+([\w.]+):(?:\s+(.*))?$)",
        std::regex::optimize);
    return r;
}
// A perf -g call-chain line: an address, a symbol, the object in parentheses.
const std::regex& callchain_line() {
    static const std::regex r(R"(^\s+[0-9a-f]+\s+\S.*$)", std::regex::optimize);
    return r;
}

uint64_t to_ns(const std::string& whole, const std::string& frac) {
    uint64_t ns = std::stoull(whole) * 1000000000ull;
    uint64_t f = 0, scale = 100000000ull;
    for (size_t i = 0; i < frac.size() && i < 9; ++i, scale /= 10)
        f += static_cast<uint64_t>(frac[i] - '0') * scale;
    return ns + f;
}

}  // namespace

std::string canonical_event(const std::string& name) {
    const std::string base =
        name.substr(name.find(':') == std::string::npos ? 0 : name.rfind(':') + 1);
    if (base == "kvm_guest_enter" || base == "kvm_guest_exit") return "kvm_hv:" + base;
    if (base == "hcall_entry" || base == "hcall_exit") return "powerpc:" + base;
    if (base == "gsb_recv" || base == "kvmppc_gsb_recv") return "probe:kvmppc_gsb_recv";
    return name;
}

bool detect_trace_format(const std::string& line, trace_format& format) {
    std::smatch m;
    if (std::regex_match(line, m, perf_line()) && m[7].str().find(':') != std::string::npos) {
        format = trace_format::perf_script;
        return true;
    }
    if (std::regex_match(line, m, tracefs_line())) {
        format = trace_format::tracefs;
        return true;
    }
    return false;
}

trace_line parse_trace_line(const std::string& line, trace_format format, uint64_t tb_hz) {
    trace_line out;
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') return out;
    if (std::regex_match(line, callchain_line()) && line.find('[') == std::string::npos) return out;
    std::smatch m;
    try {
        if (format == trace_format::perf_script && std::regex_match(line, m, perf_line()) &&
            m[7].str().find(':') != std::string::npos) {
            out.comm = m[1].str();
            out.tid = std::stoull(m[3].matched ? m[3].str() : m[2].str());
            out.cpu = static_cast<unsigned>(std::stoul(m[4].str()));
            out.t_ns = to_ns(m[5].str(), m[6].str());
            out.event = canonical_event(m[7].str());
            out.fields = m[8].str();
            out.what = trace_line::kind::event;
            return out;
        }
        if (format == trace_format::tracefs && std::regex_match(line, m, tracefs_line())) {
            out.comm = m[1].str();
            out.tid = std::stoull(m[2].str());
            out.cpu = static_cast<unsigned>(std::stoul(m[3].str()));
            // A counter clock (trace_clock ppc-tb) prints ticks with no fraction.
            out.t_ns = m[5].matched ? to_ns(m[4].str(), m[5].str())
                                    : static_cast<uint64_t>(
                                          static_cast<unsigned __int128>(std::stoull(m[4].str())) *
                                          1000000000u / tb_hz);
            out.event = canonical_event(m[6].str());
            out.fields = m[7].str();
            out.what = trace_line::kind::event;
            return out;
        }
    } catch (const std::exception&) {  // a number out of range
    }
    if (std::regex_match(line, callchain_line())) return out;  // not an event: a call chain
    out.what = trace_line::kind::malformed;
    out.why = format == trace_format::perf_script
                  ? "not a perf script event line (COMM TID [CPU] SECONDS: EVENT: FIELDS)"
                  : "not a tracefs event line (COMM-PID [CPU] FLAGS SECONDS: EVENT: FIELDS)";
    return out;
}

}  // namespace nestvp
