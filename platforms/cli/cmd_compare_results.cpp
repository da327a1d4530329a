// compare --results: the rows of two trace-stats counts, per second when the spans differ.
#include <cstdio>

#include "platforms/cli/cli_outputs.h"
#include "platforms/cli/command.h"
#include "platforms/cli/compare_results.h"
#include "platforms/report/tables.h"
#include "platforms/traces/result_stats.h"

namespace nestvp {
namespace {

template <class K, class F>
void add_union(std::vector<compare_row>& rows, const std::map<K, uint64_t>& a,
               const std::map<K, uint64_t>& b, F name) {
    std::map<K, std::pair<double, double>> all;
    for (const auto& [k, n] : a) all[k].first = static_cast<double>(n);
    for (const auto& [k, n] : b) all[k].second = static_cast<double>(n);
    for (const auto& [k, v] : all) rows.push_back({name(k), v.first, v.second});
}

std::vector<compare_row> result_rows(const trace_stats& a, const trace_stats& b) {
    std::vector<compare_row> rows;
    const auto ev = [](const trace_stats& s, const char* e) {
        auto it = s.events.find(e);
        return it == s.events.end() ? 0.0 : static_cast<double>(it->second);
    };
    for (const char* e : {"kvm_hv:kvm_guest_exit", "probe:kvmppc_gsb_recv", "powerpc:hcall_entry"})
        rows.push_back({e, ev(a, e), ev(b, e)});
    add_union(rows, a.exits_by_trap, b.exits_by_trap,
              [](const std::string& t) { return "kvm_guest_exit trap=" + t; });
    add_union(rows, a.hcalls_by_opcode, b.hcalls_by_opcode, [](uint64_t op) {
        char buf[48];
        std::snprintf(buf, sizeof buf, "hcall_entry opcode=%llu (0x%llx)",
                      static_cast<unsigned long long>(op), static_cast<unsigned long long>(op));
        return std::string(buf);
    });
    add_union(rows, a.exits_by_vcpu, b.exits_by_vcpu,
              [](unsigned v) { return "kvm_guest_exit VCPU " + std::to_string(v); });
    return rows;
}

}  // namespace

int compare_results(const compare_results_args& a) {
    if (a.files.size() != 2) {
        std::fprintf(stderr, "nestvp compare: --results takes two result files, got %zu\n",
                     a.files.size());
        return exit_usage;
    }
    if (!a.names.empty() && a.names.size() != 2) {
        std::fprintf(stderr, "nestvp compare: --names takes two names (A,B), got %zu\n",
                     a.names.size());
        return exit_usage;
    }
    if (!prepare_output_file("compare", "--json", a.json_out)) return exit_usage;
    trace_stats s[2];
    for (int i = 0; i < 2; ++i) {
        try {
            s[i] = read_result_stats(a.files[i]);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "nestvp compare: %s\n", e.what());
            return exit_usage;
        }
    }
    const std::string la = a.names.empty() ? "A" : a.names[0];
    const std::string lb = a.names.empty() ? "B" : a.names[1];
    std::vector<compare_row> rows = result_rows(s[0], s[1]);
    const bool per_s = s[0].span_s > 0 && s[1].span_s > 0 &&
                       normalise_counts_per_second(rows, s[0].span_s, s[1].span_s);
    if (a.json_out != "-") {
        for (int i = 0; i < 2; ++i)
            std::printf("%s: %s (%s, %.3f s)\n", (i ? lb : la).c_str(), a.files[i].c_str(),
                        s[i].format.c_str(), s[i].span_s);
        if (per_s) std::printf("\nthe spans differ: counts are per second of each side's span\n");
        std::printf("\n%s", compare_table(rows, la, lb).c_str());
    }
    int rc = flush_stdout("compare") ? exit_ok : exit_failure;
    if (!a.json_out.empty() && !write_one("compare", a.json_out, [&] {
            json j = json::object();
            j["label_a"] = la;
            j["label_b"] = lb;
            j["a"] = trace_stats_json(s[0]);
            j["b"] = trace_stats_json(s[1]);
            json diff = json::object();
            for (const auto& r : rows)
                diff[r.metric] = r.a == 0 ? json(nullptr) : json_num((r.b - r.a) / r.a * 100.0);
            j["difference_pct"] = diff;
            return json_text(j);
        }))
        rc = exit_failure;
    return rc;
}

}  // namespace nestvp
