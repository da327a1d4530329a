#include "platforms/traces/result_stats.h"

#include <cstdlib>
#include <stdexcept>

#include "platforms/records/text_files.h"
#include "platforms/traces/kvm_exit_symbols.h"

namespace nestvp {

trace_stats trace_stats_of_record(const run_record& rec, const std::string& path) {
    const run_metrics& m = rec.result.metrics;
    trace_stats s;
    s.path = path;
    s.format = "run-record";
    s.parsed = 1;
    s.span_s = rec.result.sim_seconds;
    s.events["kvm_hv:kvm_guest_exit"] = m.kvm_guest_exit;
    s.events["probe:kvmppc_gsb_recv"] = m.gsb_recv;
    for (const auto& [label, n] : m.kvm_guest_exit_by_trap) {  // "0x980 HDEC"
        uint32_t trap = 0;
        const std::string hex = label.substr(0, label.find(' '));
        s.exits_by_trap[kvm_exit_trap(hex, trap) ? kvm_exit_symbol(trap) : label] += n;
    }
    for (size_t v = 0; v < m.vcpu_counters.size(); ++v) {
        const auto it = m.vcpu_counters[v].find("l1.guest_exits");
        if (it != m.vcpu_counters[v].end()) s.exits_by_vcpu[static_cast<unsigned>(v)] = it->second;
    }
    uint64_t hcalls = 0;
    for (const auto& [key, n] : m.counters) {  // "l0.hcall.H_GUEST_RUN_VCPU (0x480)"
        const auto open = key.rfind("(0x");
        if (key.rfind("l0.hcall.", 0) != 0 || open == std::string::npos) continue;
        const uint64_t op = std::strtoull(key.c_str() + open + 1, nullptr, 16);
        if (op == 0xe0) continue;  // H_CEDE
        s.hcalls_by_opcode[op] = n;
        hcalls += n;
    }
    s.events["powerpc:hcall_entry"] = hcalls;
    return s;
}

trace_stats read_result_stats(const std::string& path) {
    const std::string text = read_text_file(path);
    const size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] == '{') {
        const json j = parse_json(text, path);
        if (j.is_object() && j.contains("schema_version") && j.contains("metrics"))
            return trace_stats_of_record(parse_run_record(text, path), path);
        return trace_stats_of_json(j, path);  // parsed once: not again as text
    }
    return trace_stats_of_text(text, path, trace_stats_options{});
}

}  // namespace nestvp
