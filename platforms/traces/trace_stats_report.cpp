// trace-stats' JSON (schema nestvp-trace-stats/1) both ways, and its table.
#include <cinttypes>
#include <cstdio>
#include <stdexcept>

#include "platforms/traces/trace_stats.h"

namespace nestvp {
namespace {

json summary_json(const interval_summary& s) {
    json j = json::object();
    j["count"] = s.count;
    for (const auto& [k, v] : {std::pair<const char*, double>{"min", s.min},
                               {"mean", s.mean},
                               {"p50", s.p50},
                               {"p90", s.p90},
                               {"p99", s.p99},
                               {"max", s.max}})
        j[k] = json_num(v);
    return j;
}

interval_summary summary_of(const json& j) {
    interval_summary s;
    s.count = j.at("count").get<uint64_t>();
    s.min = j.at("min").get<double>(), s.mean = j.at("mean").get<double>();
    s.p50 = j.at("p50").get<double>(), s.p90 = j.at("p90").get<double>();
    s.p99 = j.at("p99").get<double>(), s.max = j.at("max").get<double>();
    return s;
}

template <class K>
json count_map(const std::map<K, uint64_t>& m) {
    json j = json::object();
    for (const auto& [k, n] : m) {
        if constexpr (std::is_same_v<K, std::string>)
            j[k] = n;
        else
            j[std::to_string(k)] = n;
    }
    return j;
}

std::string hex(uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "0x%" PRIx64, v);
    return b;
}

}  // namespace

json trace_stats_json(const trace_stats& s) {
    json j = json::object();
    j["schema"] = "nestvp-trace-stats/1";
    j["source"] = {{"path", s.path}, {"format", s.format}};
    j["lines"] = {{"total", s.lines},
                  {"parsed", s.parsed},
                  {"malformed", s.malformed},
                  {"skipped", s.skipped}};
    json bad = json::array();
    for (const auto& m : s.malformed_lines) bad.push_back({{"line", m.line}, {"why", m.why}});
    j["malformed_lines"] = bad;
    j["span_s"] = json_num(s.span_s);
    j["first_s"] = json_num(s.first_s);
    j["events"] = count_map(s.events);
    j["unknown_events"] = count_map(s.unknown_events);
    j["exits_by_trap"] = count_map(s.exits_by_trap);
    j["exits_by_vcpu"] = count_map(s.exits_by_vcpu);
    json hc = json::object();
    for (const auto& [op, n] : s.hcalls_by_opcode) hc[hex(op)] = n;
    j["hcalls_by_opcode"] = hc;
    json rate = json::array();
    for (double r : s.exit_rate) rate.push_back(json_num(r));
    j["exit_rate"] = {{"bin_s", json_num(s.bin_s)}, {"t0_s", json_num(s.first_s)}, {"per_s", rate}};
    json iv = json::object();
    for (const auto* which : {&s.enter_to_exit, &s.exit_to_enter}) {
        json per = json::object();
        for (const auto& [v, sum] : *which) per[std::to_string(v)] = summary_json(sum);
        iv[which == &s.enter_to_exit ? "enter_to_exit" : "exit_to_enter"] = per;
    }
    j["intervals_ns"] = iv;
    return j;
}

trace_stats trace_stats_from_json(const json& j, const std::string& what) {
    trace_stats s;
    try {
        s.path = j.at("source").at("path").get<std::string>();
        s.format = j.at("source").at("format").get<std::string>();
        const json& l = j.at("lines");
        s.lines = l.at("total").get<uint64_t>();
        s.parsed = l.at("parsed").get<uint64_t>();
        s.malformed = l.at("malformed").get<uint64_t>();
        s.skipped = l.at("skipped").get<uint64_t>();
        s.span_s = j.at("span_s").is_null() ? 0 : j.at("span_s").get<double>();
        s.first_s = j.value("first_s", 0.0);
        for (const auto& it : j.at("events").items())
            s.events[it.key()] = it.value().get<uint64_t>();
        for (const auto& it : j.at("unknown_events").items())
            s.unknown_events[it.key()] = it.value().get<uint64_t>();
        for (const auto& it : j.at("exits_by_trap").items())
            s.exits_by_trap[it.key()] = it.value().get<uint64_t>();
        for (const auto& it : j.at("exits_by_vcpu").items())
            s.exits_by_vcpu[static_cast<unsigned>(std::stoul(it.key()))] =
                it.value().get<uint64_t>();
        const json hc = j.value("hcalls_by_opcode", json::object());
        for (const auto& it : hc.items())
            s.hcalls_by_opcode[std::stoull(it.key(), nullptr, 0)] = it.value().get<uint64_t>();
        s.bin_s = j.at("exit_rate").at("bin_s").get<double>();
        for (const auto& r : j.at("exit_rate").at("per_s")) s.exit_rate.push_back(r.get<double>());
        for (const auto& it : j.at("intervals_ns").at("enter_to_exit").items())
            s.enter_to_exit[static_cast<unsigned>(std::stoul(it.key()))] = summary_of(it.value());
        for (const auto& it : j.at("intervals_ns").at("exit_to_enter").items())
            s.exit_to_enter[static_cast<unsigned>(std::stoul(it.key()))] = summary_of(it.value());
    } catch (const std::exception& e) {
        throw std::runtime_error(what +
                                 ": not a trace-stats JSON (nestvp-trace-stats/1): " + e.what());
    }
    return s;
}

std::string trace_stats_table(const trace_stats& s) {
    std::string out;
    char b[200];
    const auto line = [&](const char* fmt, auto... args) {
        std::snprintf(b, sizeof b, fmt, args...);
        out += b;
    };
    line("%s (%s): %" PRIu64 " lines, %" PRIu64 " events, %" PRIu64 " malformed, %" PRIu64
         " skipped; %.6f s from %.6f s\n\n",
         s.path.c_str(), s.format.c_str(), s.lines, s.parsed, s.malformed, s.skipped, s.span_s,
         s.first_s);
    const auto count = [&](const char* e) {
        auto it = s.events.find(e);
        return it == s.events.end() ? uint64_t{0} : it->second;
    };
    const uint64_t exits = count("kvm_hv:kvm_guest_exit"), gsb = count("probe:kvmppc_gsb_recv");
    line("%-32s %14s %14s\n", "metric", "count", "per second");
    for (const auto& [name, n] : {std::pair<const char*, uint64_t>{"kvm_hv:kvm_guest_exit", exits},
                                  {"probe:kvmppc_gsb_recv", gsb}})
        line("%-32s %14" PRIu64 " %14.1f\n", name, n, s.span_s > 0 ? n / s.span_s : 0.0);
    line("%-32s %14.4f\n\n", "gsb_recv per exit", exits ? static_cast<double>(gsb) / exits : 0.0);
    line("events\n");
    for (const auto& [e, n] : s.events) line("  %-30s %14" PRIu64 "\n", e.c_str(), n);
    for (const auto& [e, n] : s.unknown_events)
        line("  %-30s %14" PRIu64 "  (not read)\n", e.c_str(), n);
    line("\nexits per trap\n");
    for (const auto& [t, n] : s.exits_by_trap) line("  %-30s %14" PRIu64 "\n", t.c_str(), n);
    line("\nexits per vCPU\n");
    for (const auto& [v, n] : s.exits_by_vcpu) line("  vCPU %-25u %14" PRIu64 "\n", v, n);
    if (!s.exit_rate.empty()) {
        line("\nexit rate (exits per second, bins of %g s from %.6f s)\n", s.bin_s, s.first_s);
        for (size_t i = 0; i < s.exit_rate.size(); ++i)
            line("  %10.3f s %14.1f\n", s.first_s + static_cast<double>(i) * s.bin_s,
                 s.exit_rate[i]);
    }
    for (const auto* which : {&s.enter_to_exit, &s.exit_to_enter}) {
        if (which->empty()) continue;
        line("\n%s per vCPU (ns)\n  %-8s %10s %10s %10s %10s %10s %10s\n",
             which == &s.enter_to_exit ? "kvm_guest_enter -> kvm_guest_exit"
                                       : "kvm_guest_exit -> kvm_guest_enter",
             "vCPU", "count", "min", "p50", "p99", "max", "mean");
        for (const auto& [v, x] : *which)
            line("  %-8u %10" PRIu64 " %10.0f %10.0f %10.0f %10.0f %10.0f\n", v, x.count, x.min,
                 x.p50, x.p99, x.max, x.mean);
    }
    for (const auto& m : s.malformed_lines)
        line("\nmalformed line %" PRIu64 ": %s", m.line, m.why.c_str());
    if (!s.malformed_lines.empty()) out += "\n";
    return out;
}

}  // namespace nestvp
