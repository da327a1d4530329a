#pragma once
// One line of a text trace, as `perf script` prints it (`COMM TID [CPU] SECONDS: SUBSYS:EVENT:
// FIELDS`) or as tracefs's `trace` file does (`COMM-PID [CPU] FLAGS SECONDS: EVENT: FIELDS`),
// with the event's kernel name made canonical (docs/comparing-with-a-real-machine.md).
#include <cstdint>
#include <string>

namespace nestvp {

enum class trace_format { perf_script, tracefs };

struct trace_line {
    enum class kind { event, skip, malformed } what = kind::skip;
    std::string why;  // kind::malformed: what is wrong
    std::string comm, event, fields;
    uint64_t tid = 0;
    unsigned cpu = 0;
    uint64_t t_ns = 0;  // the time stamp, whole nanoseconds
};

// Classifies and splits a line: headers (`#`), blank lines and call-chain lines (perf -g)
// are skips. `format` is the file's, once known. A tracefs time stamp without a fraction is a
// counter clock's ticks (trace_clock ppc-tb: the time base), at tb_hz.
trace_line parse_trace_line(const std::string& line, trace_format format,
                            uint64_t tb_hz = 512000000);
// Which format a line is in, if it is an event line of either; false if neither.
bool detect_trace_format(const std::string& line, trace_format& format);
// perf's name for a tracefs event ("kvm_guest_exit" -> "kvm_hv:kvm_guest_exit", a kprobe on
// kvmppc_gsb_recv under any name -> "probe:kvmppc_gsb_recv"); other names unchanged.
std::string canonical_event(const std::string& name);

}  // namespace nestvp
