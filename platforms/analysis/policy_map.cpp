#include "platforms/analysis/policy_map.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "platforms/report/tables.h"

namespace nestvp {

const char* criterion_name(map_criterion c) {
    switch (c) {
        case map_criterion::throughput:
            return "throughput";
        case map_criterion::timer_p99:
            return "timer_p99";
        case map_criterion::exits:
            return "exits";
    }
    return "?";
}

namespace {

constexpr double k_tie_pct = 0.05;

// Best index of vals (max or min) and its margin over the runner-up in percent.
void pick(const std::vector<std::optional<double>>& vals, bool higher, int& win, double& margin) {
    win = -1;
    margin = 0;
    for (size_t i = 0; i < vals.size(); ++i) {
        if (!vals[i]) continue;
        if (win < 0 || (higher ? *vals[i] > *vals[win] : *vals[i] < *vals[win]))
            win = static_cast<int>(i);
    }
    if (win < 0) return;
    std::optional<double> second;
    for (size_t i = 0; i < vals.size(); ++i)
        if (static_cast<int>(i) != win && vals[i] &&
            (!second || (higher ? *vals[i] > *second : *vals[i] < *second)))
            second = vals[i];
    if (second && *second != 0) margin = 100.0 * std::abs(*vals[win] - *second) / std::abs(*second);
    if (second && margin < k_tie_pct) win = k_tie;  // no policy is better than another here
}

}  // namespace

policy_map analyse_policy_map(const sweep_plan& plan,
                              const std::vector<std::optional<run_record>>& pts) {
    policy_map m;
    m.axes.assign(plan.grid.begin(), plan.grid.end() - 1);
    m.policies = plan.grid.back().values;
    const size_t np = m.policies.size();
    for (size_t first = 0; first + np <= plan.points.size(); first += np) {
        map_cell c;
        for (size_t k = 0; k + 1 < plan.points[first].size(); ++k) {
            const std::string& kv = plan.points[first][k];
            c.values.push_back(kv.substr(kv.find('=') + 1));
        }
        for (size_t p = 0; p < np; ++p) {
            const auto& rec = pts.at(first + p);
            std::optional<double> a, t, e;
            if (rec) {
                const run_metrics& rm = rec->result.metrics;
                a = static_cast<double>(rm.arithoh_count);
                if (rec->result.sim_seconds > 0)
                    e = static_cast<double>(rm.kvm_guest_exit) / rec->result.sim_seconds;
                double p99 = 0;
                const latency_report& lr = latency_of(rm, "timer_interrupt_latency_ns");
                if (lr.all.count > 0 && metric_value(*rec, "timer_interrupt_latency_ns.p99", p99))
                    t = p99;
            }
            c.arithoh.push_back(a);
            c.timer_p99.push_back(t);
            c.exits_per_s.push_back(e);
        }
        pick(c.arithoh, true, c.winner[0], c.margin_pct[0]);
        pick(c.timer_p99, false, c.winner[1], c.margin_pct[1]);
        pick(c.exits_per_s, false, c.winner[2], c.margin_pct[2]);
        m.cells.push_back(std::move(c));
    }
    return m;
}

std::string policy_map_csv(const policy_map& m) {
    std::string out;
    for (const auto& ax : m.axes) out += csv_field(ax.key) + ",";
    const map_criterion all[] = {map_criterion::throughput, map_criterion::timer_p99,
                                 map_criterion::exits};
    for (auto c : all)
        out += std::string("best_") + criterion_name(c) + ",margin_pct_" + criterion_name(c) + ",";
    for (const auto& p : m.policies)
        out += "arithoh_count." + p + ",timer_interrupt_latency_ns.p99." + p + ",exits_per_s." + p +
               ",";
    out.back() = '\n';
    const auto opt = [](const std::optional<double>& v) {
        return v ? json_number(*v) : std::string();
    };
    for (const auto& c : m.cells) {
        for (const auto& v : c.values) out += csv_field(v) + ",";
        for (int k = 0; k < 3; ++k)
            out += (c.winner[k] == k_tie ? std::string("tie")
                    : c.winner[k] < 0    ? std::string()
                                         : m.policies[c.winner[k]]) +
                   "," + json_number(c.margin_pct[k]) + ",";
        for (size_t p = 0; p < m.policies.size(); ++p)
            out +=
                opt(c.arithoh[p]) + "," + opt(c.timer_p99[p]) + "," + opt(c.exits_per_s[p]) + ",";
        out.back() = '\n';
    }
    return out;
}

}  // namespace nestvp
