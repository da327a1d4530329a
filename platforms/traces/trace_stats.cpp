#include "platforms/traces/trace_stats.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "platforms/records/text_files.h"
#include "platforms/traces/kvm_exit_symbols.h"
#include "platforms/traces/trace_line.h"

namespace nestvp {
namespace {

const char* const k_known[] = {"kvm_hv:kvm_guest_enter", "kvm_hv:kvm_guest_exit",
                               "powerpc:hcall_entry", "powerpc:hcall_exit",
                               "probe:kvmppc_gsb_recv"};

bool known(const std::string& event) {
    for (const char* k : k_known)
        if (event == k) return true;
    return false;
}

interval_summary summarise(std::vector<uint64_t>& v) {
    interval_summary s;
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    const auto at = [&](double q) {  // nearest rank
        const size_t i = static_cast<size_t>(q * static_cast<double>(v.size() - 1) + 0.5);
        return static_cast<double>(v[std::min(i, v.size() - 1)]);
    };
    double sum = 0;
    for (uint64_t x : v) sum += static_cast<double>(x);
    s.count = v.size();
    s.min = static_cast<double>(v.front());
    s.max = static_cast<double>(v.back());
    s.mean = sum / static_cast<double>(v.size());
    s.p50 = at(0.50), s.p90 = at(0.90), s.p99 = at(0.99);
    return s;
}

// What the events of a text trace add up to, as they come.
class accumulator {
public:
    accumulator(trace_stats& s, double bin_s) : m_s(s) { m_s.bin_s = bin_s; }

    // False (with `why`) when a known event's fields are not the kernel's.
    bool add(const trace_line& l, std::string& why) {
        if (!known(l.event)) {
            ++m_s.unknown_events[l.event];
            return note_time(l.t_ns), true;
        }
        unsigned vcpu = 0;
        if (l.event == "kvm_hv:kvm_guest_exit") {
            char trap[64];
            unsigned long long pc, msr;
            int ceded;
            if (std::sscanf(l.fields.c_str(), "VCPU %u: trap=%63s pc=0x%llx msr=0x%llx, ceded=%d",
                            &vcpu, trap, &pc, &msr, &ceded) != 5) {
                why =
                    "kvm_guest_exit fields are not \"VCPU %d: trap=%s pc=0x%lx msr=0x%lx, "
                    "ceded=%d\"";
                return false;
            }
            uint32_t t = 0;
            ++m_s.exits_by_trap[kvm_exit_trap(trap, t) ? kvm_exit_symbol(t) : trap];
            ++m_s.exits_by_vcpu[vcpu];
            interval(m_enter, vcpu, l.t_ns, m_enter_to_exit);
            m_exit[vcpu] = l.t_ns;
            m_exit_times.push_back(l.t_ns);
        } else if (l.event == "kvm_hv:kvm_guest_enter") {
            if (std::sscanf(l.fields.c_str(), "VCPU %u:", &vcpu) != 1) {
                why = "kvm_guest_enter fields do not begin \"VCPU %d:\"";
                return false;
            }
            interval(m_exit, vcpu, l.t_ns, m_exit_to_enter);
            m_enter[vcpu] = l.t_ns;
        } else if (l.event == "powerpc:hcall_entry" || l.event == "powerpc:hcall_exit") {
            unsigned long long op;
            if (std::sscanf(l.fields.c_str(), "opcode=%llu", &op) != 1) {
                why = l.event + " fields do not begin \"opcode=%lu\"";
                return false;
            }
            if (l.event == "powerpc:hcall_entry") ++m_s.hcalls_by_opcode[op];
        }
        ++m_s.events[l.event];
        note_time(l.t_ns);
        return true;
    }

    void finish() {
        for (auto& [v, xs] : m_enter_to_exit) m_s.enter_to_exit[v] = summarise(xs);
        for (auto& [v, xs] : m_exit_to_enter) m_s.exit_to_enter[v] = summarise(xs);
        m_s.first_s = m_any ? static_cast<double>(m_first) * 1e-9 : 0;
        m_s.span_s = m_any ? static_cast<double>(m_last - m_first) * 1e-9 : 0;
        // Exits per second in bins from the first event of any kind.
        for (uint64_t t : m_exit_times) {
            const auto i = static_cast<size_t>(static_cast<double>(t - m_first) * 1e-9 / m_s.bin_s);
            if (m_s.exit_rate.size() <= i) m_s.exit_rate.resize(i + 1, 0.0);
            m_s.exit_rate[i] += 1.0 / m_s.bin_s;
        }
    }

private:
    // The interval from the vCPU's pending `from` event to t, which consumes it.
    static void interval(std::map<unsigned, uint64_t>& from, unsigned vcpu, uint64_t t,
                         std::map<unsigned, std::vector<uint64_t>>& into) {
        const auto it = from.find(vcpu);
        if (it == from.end()) return;
        if (t >= it->second) into[vcpu].push_back(t - it->second);
        from.erase(it);
    }
    void note_time(uint64_t t) {
        m_first = m_any ? std::min(m_first, t) : t;
        m_last = m_any ? std::max(m_last, t) : t;
        m_any = true;
    }

    trace_stats& m_s;
    std::map<unsigned, uint64_t> m_enter, m_exit;  // per vCPU, the time of a pending event
    std::map<unsigned, std::vector<uint64_t>> m_enter_to_exit, m_exit_to_enter;
    std::vector<uint64_t> m_exit_times;
    uint64_t m_first = 0, m_last = 0;
    bool m_any = false;
};

// The real stack's counts (bench/realstack/results, schema nestvp-realstack-counts/1).
trace_stats counts_json_stats(const json& j, const std::string& path) {
    trace_stats s;
    s.path = path;
    s.format = "counts-json";
    const auto u64 = [&](const char* key) {
        if (!j.contains(key) || !j[key].is_number())
            throw std::runtime_error(path + ": " + key + " is missing or not a number");
        return j[key].get<uint64_t>();
    };
    s.events["kvm_hv:kvm_guest_exit"] = u64("exits_total");
    s.events["probe:kvmppc_gsb_recv"] = u64("gsb_recv_probe");
    if (j.contains("window_s") && j["window_s"].is_number()) s.span_s = j["window_s"].get<double>();
    for (const auto& [trap, n] : j.at("exits_by_trap").items())
        s.exits_by_trap[trap] = n.get<uint64_t>();
    if (j.contains("hcalls_by_opcode")) {
        uint64_t total = 0;
        for (const auto& [op, n] : j["hcalls_by_opcode"].items()) {
            s.hcalls_by_opcode[std::stoull(op, nullptr, 0)] = n.get<uint64_t>();
            total += n.get<uint64_t>();
        }
        s.events["powerpc:hcall_entry"] = total;
    }
    if (j.contains("per_vcpu"))
        for (const auto& [v, pv] : j["per_vcpu"].items())
            if (v != "other" && pv.contains("exits_total"))
                s.exits_by_vcpu[static_cast<unsigned>(std::stoul(v))] =
                    pv["exits_total"].get<uint64_t>();
    s.parsed = 1;
    return s;
}

// The counts of a raw trace burst from the hist triggers that ran beside it
// (bench/realstack/samples, schema nestvp-realstack-trace-counts/1).
trace_stats trace_counts_json_stats(const json& j, const std::string& path) {
    trace_stats s;
    s.path = path;
    s.format = "counts-json";
    s.parsed = 1;
    for (const auto& it : j.at("events").items())
        s.events[canonical_event(it.key())] = it.value().get<uint64_t>();
    for (const auto& it : j.at("kvm_guest_exit_by_trap").items())
        s.exits_by_trap[it.key()] = it.value().get<uint64_t>();
    for (const auto& it : j.at("kvm_guest_exit_by_vcpu_id").items())
        s.exits_by_vcpu[static_cast<unsigned>(std::stoul(it.key()))] = it.value().get<uint64_t>();
    for (const auto& it : j.at("hcall_entry_by_opcode").items())
        s.hcalls_by_opcode[std::stoull(it.key(), nullptr, 0)] = it.value().get<uint64_t>();
    if (j.contains("raw_trace_s") && j["raw_trace_s"].is_number())
        s.span_s = j["raw_trace_s"].get<double>();
    return s;
}

}  // namespace

trace_stats trace_stats_of_json(const json& j, const std::string& path) {
    if (j.value("schema", "") == "nestvp-trace-stats/1") return trace_stats_from_json(j, path);
    try {
        if (j.value("schema", "") == "nestvp-realstack-trace-counts/1")
            return trace_counts_json_stats(j, path);
        return counts_json_stats(j, path);
    } catch (const json::exception& e) {
        throw std::runtime_error(path +
                                 ": not a trace-stats or real-stack counts JSON: " + e.what());
    }
}

trace_stats trace_stats_of_text(const std::string& text, const std::string& path,
                                const trace_stats_options& opts) {
    const size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] == '{')
        return trace_stats_of_json(parse_json(text, path), path);
    trace_stats s;
    s.path = path;
    accumulator acc(s, opts.bin_s);
    std::istringstream in(text);
    std::string line;
    trace_format format = trace_format::perf_script;
    bool format_known = false;
    while (std::getline(in, line)) {
        ++s.lines;
        if (!format_known) format_known = detect_trace_format(line, format);
        trace_line l = parse_trace_line(line, format, opts.tb_hz);
        std::string why = l.why;
        if (l.what == trace_line::kind::skip) {
            ++s.skipped;
            continue;
        }
        if (l.what == trace_line::kind::event && acc.add(l, why)) {
            ++s.parsed;
            continue;
        }
        ++s.malformed;
        if (opts.strict)
            throw std::runtime_error(path + ":" + std::to_string(s.lines) +
                                     ": malformed line: " + why);
        if (s.malformed_lines.size() < opts.keep_malformed)
            s.malformed_lines.push_back({s.lines, why});
    }
    if (s.parsed == 0)
        throw std::runtime_error(path + ": no event line could be parsed (" +
                                 std::to_string(s.lines) + " lines, " +
                                 std::to_string(s.malformed) + " malformed)");
    s.format = format == trace_format::perf_script ? "perf-script" : "tracefs";
    acc.finish();
    return s;
}

trace_stats read_trace_stats(const std::string& path, const trace_stats_options& opts) {
    return trace_stats_of_text(read_text_file(path), path, opts);
}

}  // namespace nestvp
