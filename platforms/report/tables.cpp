// Run summary, comparison table and CSV layout.
#include "platforms/report/tables.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "platforms/records/json.h"

namespace nestvp {

std::string group_thousands(uint64_t v) {
    std::string digits = std::to_string(v), out;
    const size_t n = digits.size();
    for (size_t i = 0; i < n; ++i) {
        if (i > 0 && (n - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::string format_fixed(double v, int decimals) {
    if (!std::isfinite(v)) return "n/a";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, std::fabs(v));
    std::string s = buf;
    const auto dot = s.find('.');
    const std::string ip = s.substr(0, dot), fp = dot == std::string::npos ? "" : s.substr(dot);
    std::string grouped;
    for (size_t i = 0; i < ip.size(); ++i) {
        if (i > 0 && (ip.size() - i) % 3 == 0) grouped += ',';
        grouped += ip[i];
    }
    const bool neg = v < 0 && std::stod(s) != 0;
    return (neg ? "-" : "") + grouped + fp;
}

std::string format_diff_pct(double a, double b) {
    if (a == 0 && b == 0) return "0.00 %";
    if (a == 0) return "n/a";
    // Ten times A or more reads better as a factor than as a percentage ("+1619100.00 %").
    if (a > 0 && b / a >= 10) return format_fixed(b / a, 1) + "x";
    const double d = (b - a) / a * 100.0;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%+.2f %%", d);
    return buf;
}

std::string format_diff_ns(double a, double b) {
    if (!(std::fabs(a) < 1.0)) return format_diff_pct(a, b);
    const double d = b - a;
    const std::string s = format_fixed(d, 1);
    return (d > 0 && s != "0.0" ? "+" : "") + s + " ns";
}

namespace {

struct line {
    std::string left, right;
};

std::string two_columns(const std::vector<line>& lines) {
    size_t w = 0;
    for (const auto& l : lines) w = std::max(w, l.left.size());
    std::string out;
    for (const auto& l : lines) {
        if (l.right.empty()) {
            out += l.left + "\n";
            continue;
        }
        out += "  " + l.left + std::string(w - l.left.size() + 2, ' ') + l.right + "\n";
    }
    return out;
}

// | a | b | ... | with aligned columns; the first column left-aligned, the others right.
std::string markdown_table(const std::vector<std::vector<std::string>>& cells) {
    const size_t n = cells.empty() ? 0 : cells[0].size();
    std::vector<size_t> w(n, 3);
    for (const auto& row : cells)
        for (size_t i = 0; i < n; ++i) w[i] = std::max(w[i], row[i].size());
    std::string out;
    for (size_t k = 0; k < cells.size(); ++k) {
        out += "|";
        for (size_t i = 0; i < n; ++i) {
            const std::string& c = cells[k][i];
            const std::string pad(w[i] - c.size(), ' ');
            out += " " + (i == 0 ? c + pad : pad + c) + " |";  // numbers right-aligned
        }
        out += "\n";
        if (k == 0) {
            out += "|" + std::string(w[0] + 2, '-') + "|";
            for (size_t i = 1; i < n; ++i) out += std::string(w[i] + 1, '-') + ":|";
            out += "\n";
        }
    }
    return out;
}

std::string ns(double v) {
    return format_fixed(v, 1);
}

// Per kind: count, mean and percentiles; then each path's steps with their share of the mean.
std::string latency_tables(const run_metrics& m) {
    std::vector<std::vector<std::string>> cells = {
        {"latency (ns)", "count", "mean", "p50", "p90", "p99", "max"}};
    for (const auto& kind : latency_kinds()) {
        const latency_summary& l = latency_of(m, kind).all;
        cells.push_back({latency_title(kind), group_thousands(l.count), ns(l.mean), ns(l.p50),
                         ns(l.p90), ns(l.p99), ns(l.max)});
    }
    std::string out = "latencies\n" + markdown_table(cells);
    for (const auto& kind : latency_kinds()) {
        const auto& steps = latency_of(m, kind).breakdown;
        if (steps.empty()) continue;
        double total = 0;
        for (const auto& st : steps) total += st.mean_ns;
        std::vector<std::vector<std::string>> b = {{"step", "mean ns", "share"}};
        for (const auto& st : steps)
            b.push_back({st.step, ns(st.mean_ns),
                         total > 0 ? format_fixed(st.mean_ns / total * 100, 1) + " %" : "n/a"});
        b.push_back({"total", ns(total), total > 0 ? "100.0 %" : "n/a"});
        out += "\n" + latency_title(kind) + " breakdown\n" + markdown_table(b);
    }
    return out;
}

std::string level_of(const std::string& counter) {
    const auto dot = counter.find('.');
    std::string lvl = dot == std::string::npos ? "other" : counter.substr(0, dot);
    std::transform(lvl.begin(), lvl.end(), lvl.begin(), ::toupper);
    return lvl;
}

}  // namespace

std::string summary_table(const run_record& rec) {
    const run_result& r = rec.result;
    const run_metrics& m = r.metrics;
    std::vector<line> lines;
    std::string head = "platform " + rec.platform;
    if (r.partial) head += "  (PARTIAL: interrupted before the end)";
    lines.push_back({head, ""});
    for (const auto& kv : rec.settings)
        lines.push_back({"  --set " + kv.first + "=" + kv.second, ""});
    lines.push_back({"metrics", ""});
    lines.push_back({"arithoh_count", group_thousands(m.arithoh_count)});
    lines.push_back({"kvm_guest_exit", group_thousands(m.kvm_guest_exit)});
    lines.push_back({"gsb_recv (probe:kvmppc_gsb_recv)", group_thousands(m.gsb_recv)});
    lines.push_back({"h_guest_get_state", group_thousands(m.h_guest_get_state)});
    lines.push_back({"gsb_send (H_GUEST_SET_STATE)", group_thousands(m.gsb_send)});
    lines.push_back({"h_guest_run_vcpu", group_thousands(m.h_guest_run_vcpu)});
    lines.push_back({"h_enter_nested", group_thousands(m.h_enter_nested)});
    for (const auto& kv : m.exits_by_reason)
        lines.push_back({"exits " + kv.first, group_thousands(kv.second)});
    std::string out = two_columns(lines) + latency_tables(m);
    lines.clear();
    lines.push_back({"simulation", ""});
    lines.push_back({"simulated time", format_fixed(r.sim_seconds, 3) + " s"});
    lines.push_back({"wall time", format_fixed(r.wall_seconds, 3) + " s"});
    const bool timed = r.wall_seconds > 0;
    lines.push_back({"simulated s per wall s",
                     timed ? format_fixed(r.sim_seconds / r.wall_seconds, 2) : "n/a"});
    lines.push_back({"SystemC events", group_thousands(r.sc_events)});
    lines.push_back(
        {"SystemC events per wall s",
         timed ? group_thousands(static_cast<uint64_t>(r.sc_events / r.wall_seconds)) : "n/a"});
    const uint64_t exits = m.kvm_guest_exit;
    lines.push_back({"host ns per nested exit",
                     timed && exits ? format_fixed(r.wall_seconds * 1e9 / exits, 0) : "n/a"});
    // SCC-style statistics: counters grouped by level (the prefix before the first dot).
    std::string cur;
    for (const auto& kv : m.counters) {
        const std::string lvl = level_of(kv.first);
        if (lvl != cur) {
            lines.push_back({"counters " + lvl, ""});
            cur = lvl;
        }
        lines.push_back({kv.first, group_thousands(kv.second)});
    }
    // Per L2 vCPU: who exits, cedes and blocks (an idle vCPU that spins shows here).
    if (!m.vcpu_counters.empty()) lines.push_back({"per L2 vCPU", "exits / cedes / blocks"});
    for (size_t v = 0; v < m.vcpu_counters.size(); ++v) {
        const auto& c = m.vcpu_counters[v];
        const auto get = [&c](const char* k) {
            const auto it = c.find(k);
            return group_thousands(it == c.end() ? 0 : it->second);
        };
        lines.push_back(
            {"vcpu " + std::to_string(v),
             get("l1.guest_exits") + " / " + get("l2.cedes") + " / " + get("l1.blocks")});
    }
    return out + two_columns(lines);
}

std::vector<compare_row> compare_rows(const run_record& a, const run_record& b) {
    const run_metrics& ma = a.result.metrics;
    const run_metrics& mb = b.result.metrics;
    std::vector<compare_row> rows;
    const auto count = [&](const std::string& name, uint64_t x, uint64_t y) {
        rows.push_back({name, static_cast<double>(x), static_cast<double>(y), true});
    };
    const auto lat = [&](const std::string& name, double x, double y) {
        rows.push_back({name, x, y, false, true});
    };
    count("arithoh count", ma.arithoh_count, mb.arithoh_count);
    count("kvm_guest_exit", ma.kvm_guest_exit, mb.kvm_guest_exit);
    count("gsb_recv (probe:kvmppc_gsb_recv)", ma.gsb_recv, mb.gsb_recv);
    count("h_guest_get_state", ma.h_guest_get_state, mb.h_guest_get_state);
    count("h_guest_run_vcpu", ma.h_guest_run_vcpu, mb.h_guest_run_vcpu);
    if (ma.h_enter_nested || mb.h_enter_nested)
        count("h_enter_nested", ma.h_enter_nested, mb.h_enter_nested);
    for (const auto& kind : latency_kinds()) {
        const latency_summary &la = latency_of(ma, kind).all, &lb = latency_of(mb, kind).all;
        lat(latency_title(kind) + " p50 (ns)", la.p50, lb.p50);
        lat(latency_title(kind) + " p99 (ns)", la.p99, lb.p99);
    }
    std::set<std::string> reasons;
    for (const auto& kv : ma.exits_by_reason) reasons.insert(kv.first);
    for (const auto& kv : mb.exits_by_reason) reasons.insert(kv.first);
    for (const auto& r : reasons) {
        const auto ia = ma.exits_by_reason.find(r), ib = mb.exits_by_reason.find(r);
        count("exits " + r, ia == ma.exits_by_reason.end() ? 0 : ia->second,
              ib == mb.exits_by_reason.end() ? 0 : ib->second);
    }
    return rows;
}

bool normalise_counts_per_second(std::vector<compare_row>& rows, double sim_a_s, double sim_b_s) {
    if (sim_a_s <= 0 || sim_b_s <= 0) return false;
    if (std::fabs(sim_a_s - sim_b_s) <= 1e-9 * std::max(sim_a_s, sim_b_s)) return false;
    for (auto& r : rows) {
        if (!r.integral) continue;
        r.metric += " per s";
        r.a /= sim_a_s;
        r.b /= sim_b_s;
        r.integral = false;  // a rate: one decimal
    }
    return true;
}

std::string compare_table(const std::vector<compare_row>& rows, const std::string& label_a,
                          const std::string& label_b) {
    std::vector<std::vector<std::string>> cells;
    cells.push_back({"metric", label_a, label_b, "difference"});
    for (const auto& r : rows) {
        const auto fmt = [&](double v) {
            return r.integral ? group_thousands(static_cast<uint64_t>(std::llround(v)))
                              : format_fixed(v, 1);
        };
        cells.push_back({r.metric, fmt(r.a), fmt(r.b),
                         r.latency ? format_diff_ns(r.a, r.b) : format_diff_pct(r.a, r.b)});
    }
    return markdown_table(cells);
}

namespace {}  // namespace

std::vector<std::string> steps_in_path_order(
    const std::vector<const std::vector<latency_step>*>& breakdowns) {
    std::vector<std::string> out;
    for (const auto* steps : breakdowns) {
        if (!steps) continue;
        // A step only this breakdown has goes right after the step it has before it.
        size_t after = 0;
        for (const auto& st : *steps) {
            const auto it = std::find(out.begin(), out.end(), st.step);
            if (it != out.end()) {
                after = static_cast<size_t>(it - out.begin()) + 1;
            } else {
                out.insert(out.begin() + after, st.step);
                ++after;
            }
        }
    }
    return out;
}

std::string compare_breakdown_tables(const run_record& a, const run_record& b,
                                     const std::string& label_a, const std::string& label_b) {
    std::string out;
    for (const auto& kind : latency_kinds()) {
        const latency_report &ra = latency_of(a.result.metrics, kind),
                             &rb = latency_of(b.result.metrics, kind);
        if (ra.all.count == 0 && rb.all.count == 0) continue;
        const auto step_mean = [](const latency_report& r, const std::string& step) {
            for (const auto& st : r.breakdown)
                if (st.step == step) return st.mean_ns;
            return 0.0;
        };
        std::vector<std::vector<std::string>> cells = {
            {"step (mean ns)", label_a, label_b, "difference"}};
        for (const auto& step : steps_in_path_order({&ra.breakdown, &rb.breakdown})) {
            const double x = step_mean(ra, step), y = step_mean(rb, step);
            cells.push_back({step, ns(x), ns(y), format_diff_ns(x, y)});
        }
        cells.push_back({"total (mean)", ns(ra.all.mean), ns(rb.all.mean),
                         format_diff_ns(ra.all.mean, rb.all.mean)});
        out += (out.empty() ? "" : "\n") + latency_title(kind) + " breakdown\n" +
               markdown_table(cells);
    }
    return out;
}

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

namespace {

const std::vector<std::string>& fixed_columns() {
    static const std::vector<std::string> cols = {
        "sim_seconds",       "sc_events", "partial",          "kvm_guest_exit", "gsb_recv",
        "h_guest_get_state", "gsb_send",  "h_guest_run_vcpu", "h_enter_nested", "arithoh_count",
    };
    static const std::vector<std::string> all = [] {
        std::vector<std::string> c = cols;
        for (const auto& kind : latency_kinds())
            for (const char* stat : {".count", ".mean", ".p50", ".p90", ".p99", ".max"})
                c.push_back(kind + stat);
        return c;
    }();
    return all;
}

// "<kind>.<stat>" of a latency summary; false if name is not one.
bool latency_value(const run_metrics& m, const std::string& name, double& out) {
    const auto dot = name.find('.');
    if (dot == std::string::npos) return false;
    const std::string kind = name.substr(0, dot), stat = name.substr(dot + 1);
    const auto& kinds = latency_kinds();
    if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) return false;
    const latency_summary& l = latency_of(m, kind).all;
    const std::map<std::string, double> v = {{"count", double(l.count)},
                                             {"mean", l.mean},
                                             {"p50", l.p50},
                                             {"p90", l.p90},
                                             {"p99", l.p99},
                                             {"max", l.max}};
    const auto it = v.find(stat);
    if (it == v.end()) return false;
    out = it->second;
    return true;
}

std::string fixed_value(const run_record& rec, const std::string& col) {
    const run_result& r = rec.result;
    const run_metrics& m = r.metrics;
    if (col == "partial") return r.partial ? "true" : "false";
    if (col == "sc_events") return json_number(r.sc_events);
    if (col == "sim_seconds") return json_number(r.sim_seconds);
    const std::map<std::string, uint64_t> counts = {
        {"kvm_guest_exit", m.kvm_guest_exit},       {"gsb_recv", m.gsb_recv},
        {"h_guest_get_state", m.h_guest_get_state}, {"gsb_send", m.gsb_send},
        {"h_guest_run_vcpu", m.h_guest_run_vcpu},   {"h_enter_nested", m.h_enter_nested},
        {"arithoh_count", m.arithoh_count},
    };
    const auto it = counts.find(col);
    if (it != counts.end()) return json_number(it->second);
    const auto dot = col.find('.');
    if (dot != std::string::npos && col.substr(dot) == ".count")  // exact, not via double
        return json_number(latency_of(m, col.substr(0, dot)).all.count);
    double v = 0;
    metric_value(rec, col, v);
    return json_number(v);
}

}  // namespace

std::string records_csv(const std::vector<run_record>& recs,
                        const std::vector<std::string>& setting_keys, bool include_wall) {
    std::set<std::string> reasons, counters;
    for (const auto& r : recs) {
        for (const auto& kv : r.result.metrics.exits_by_reason) reasons.insert(kv.first);
        for (const auto& kv : r.result.metrics.counters) counters.insert(kv.first);
    }
    std::vector<std::string> header = setting_keys;
    for (const auto& c : fixed_columns()) header.push_back(c);
    for (const auto& r : reasons) header.push_back("exits_by_reason." + r);
    for (const auto& c : counters) header.push_back("counters." + c);
    if (include_wall) header.push_back("wall_seconds");
    const auto join = [](const std::vector<std::string>& f) {
        std::string s;
        for (size_t i = 0; i < f.size(); ++i) s += (i ? "," : "") + csv_field(f[i]);
        return s + "\n";
    };
    std::string out = join(header);
    for (const auto& rec : recs) {
        std::vector<std::string> row;
        for (const auto& k : setting_keys) {
            std::string v;
            for (const auto& kv : rec.settings)
                if (kv.first == k) v = kv.second;
            row.push_back(v);
        }
        for (const auto& c : fixed_columns()) row.push_back(fixed_value(rec, c));
        const run_metrics& m = rec.result.metrics;
        for (const auto& r : reasons) {
            const auto it = m.exits_by_reason.find(r);
            row.push_back(json_number(it == m.exits_by_reason.end() ? uint64_t(0) : it->second));
        }
        for (const auto& c : counters) {
            const auto it = m.counters.find(c);
            row.push_back(json_number(it == m.counters.end() ? uint64_t(0) : it->second));
        }
        if (include_wall) row.push_back(json_number(rec.result.wall_seconds));
        out += join(row);
    }
    return out;
}

bool metric_value(const run_record& rec, const std::string& name, double& out) {
    const run_metrics& m = rec.result.metrics;
    const std::map<std::string, double> v = {
        {"sim_seconds", rec.result.sim_seconds},
        {"kvm_guest_exit", double(m.kvm_guest_exit)},
        {"gsb_recv", double(m.gsb_recv)},
        {"h_guest_get_state", double(m.h_guest_get_state)},
        {"gsb_send", double(m.gsb_send)},
        {"h_guest_run_vcpu", double(m.h_guest_run_vcpu)},
        {"h_enter_nested", double(m.h_enter_nested)},
        {"arithoh_count", double(m.arithoh_count)},
    };
    const auto it = v.find(name);
    if (it == v.end()) return latency_value(m, name, out);
    out = it->second;
    return true;
}

const std::vector<std::string>& chart_metrics() {
    static const std::vector<std::string> names = {
        "kvm_guest_exit",   "gsb_recv",       "h_guest_get_state",
        "h_guest_run_vcpu", "h_enter_nested", "arithoh_count",
    };
    static const std::vector<std::string> all = [] {
        std::vector<std::string> c = names;
        for (const auto& kind : latency_kinds()) {
            c.push_back(kind + ".p50");
            c.push_back(kind + ".p99");
        }
        return c;
    }();
    return all;
}

}  // namespace nestvp
