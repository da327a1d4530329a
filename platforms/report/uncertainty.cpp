#include "platforms/report/uncertainty.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "platforms/report/tables.h"

namespace nestvp {

double quantile(std::vector<double> xs, double q) {
    if (xs.empty()) return 0;
    std::sort(xs.begin(), xs.end());
    const double pos = q * static_cast<double>(xs.size() - 1);
    const auto lo = static_cast<size_t>(std::floor(pos));
    const size_t hi = std::min(lo + 1, xs.size() - 1);
    return xs[lo] + (pos - static_cast<double>(lo)) * (xs[hi] - xs[lo]);
}

std::vector<double> ranks(const std::vector<double>& xs) {
    std::vector<size_t> order(xs.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return xs[a] < xs[b]; });
    std::vector<double> r(xs.size());
    for (size_t i = 0; i < order.size();) {
        size_t j = i;
        while (j + 1 < order.size() && xs[order[j + 1]] == xs[order[i]]) ++j;
        const double mean_rank = (static_cast<double>(i + j) / 2.0) + 1.0;
        for (size_t k = i; k <= j; ++k) r[order[k]] = mean_rank;
        i = j + 1;
    }
    return r;
}

double spearman(const std::vector<double>& x, const std::vector<double>& y) {
    const std::vector<double> rx = ranks(x), ry = ranks(y);
    const double n = static_cast<double>(rx.size());
    if (n < 2) return 0;
    const double mx = std::accumulate(rx.begin(), rx.end(), 0.0) / n;
    const double my = std::accumulate(ry.begin(), ry.end(), 0.0) / n;
    double sxy = 0, sxx = 0, syy = 0;
    for (size_t i = 0; i < rx.size(); ++i) {
        sxy += (rx[i] - mx) * (ry[i] - my);
        sxx += (rx[i] - mx) * (rx[i] - mx);
        syy += (ry[i] - my) * (ry[i] - my);
    }
    return sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : 0.0;
}

namespace {

// The sampled value of `key` in a point's "key=value" list.
double sampled_value(const std::vector<std::string>& point, const std::string& key) {
    for (const auto& kv : point)
        if (kv.compare(0, key.size() + 1, key + "=") == 0)
            return std::strtod(kv.c_str() + key.size() + 1, nullptr);
    return 0;
}

uncertainty_target summarise(const std::string& name, const std::vector<std::string>& keys,
                             const std::vector<std::vector<double>>& inputs,  // [sample][key]
                             const std::vector<double>& ys) {
    uncertainty_target t;
    t.name = name;
    t.n = ys.size();
    t.p5 = quantile(ys, 0.05);
    t.median = quantile(ys, 0.5);
    t.p95 = quantile(ys, 0.95);
    double total = 0;
    for (size_t k = 0; k < keys.size(); ++k) {
        std::vector<double> xs;
        for (const auto& in : inputs) xs.push_back(in[k]);
        const double rho = spearman(xs, ys);
        t.shares.push_back({keys[k], rho * rho, rho});
        total += rho * rho;
    }
    for (auto& s : t.shares) s.share = total > 0 ? s.share / total : 0.0;
    std::stable_sort(
        t.shares.begin(), t.shares.end(),
        [](const variance_share& a, const variance_share& b) { return a.share > b.share; });
    return t;
}

}  // namespace

uncertainty_report analyse_samples(const sweep_plan& plan,
                                   const std::vector<std::optional<run_record>>& pts) {
    uncertainty_report r;
    r.samples = plan.samples;
    for (size_t k = 0; k + 1 < plan.grid.size(); ++k) r.keys.push_back(plan.grid[k].key);
    const grid_axis& pair = plan.grid.back();
    const size_t pairs = pair.values.size();
    // Sample s's sampled values, in key order (the same in each of its paired points).
    const auto inputs_of = [&](unsigned s) {
        std::vector<double> in;
        for (const auto& k : r.keys) in.push_back(sampled_value(plan.points[s * pairs], k));
        return in;
    };
    // Per metric and paired value: the samples where that run is present.
    for (const auto& metric : chart_metrics()) {
        for (size_t p = 0; p < pairs; ++p) {
            std::vector<std::vector<double>> inputs;
            std::vector<double> ys;
            for (unsigned s = 0; s < plan.samples; ++s) {
                const auto& rec = pts.at(s * pairs + p);
                double v = 0;
                if (!rec || !metric_value(*rec, metric, v)) continue;
                inputs.push_back(inputs_of(s));
                ys.push_back(v);
            }
            if (!ys.empty())
                r.targets.push_back(
                    summarise(metric + " [" + pair.values[p] + "]", r.keys, inputs, ys));
        }
    }
    // The reference ratios: the last paired value over the first (cancel / no-cancel).
    for (unsigned s = 0; s < plan.samples; ++s) {
        bool all = true;
        for (size_t p = 0; p < pairs; ++p) all = all && pts.at(s * pairs + p).has_value();
        if (all) ++r.samples_complete;
    }
    if (pairs >= 2) {
        for (const char* metric : {"kvm_guest_exit", "arithoh_count", "gsb_recv"}) {
            std::vector<std::vector<double>> inputs;
            std::vector<double> ys;
            for (unsigned s = 0; s < plan.samples; ++s) {
                const auto &a = pts.at(s * pairs), &b = pts.at(s * pairs + pairs - 1);
                double va = 0, vb = 0;
                if (!a || !b || !metric_value(*a, metric, va) || !metric_value(*b, metric, vb) ||
                    va == 0)
                    continue;
                inputs.push_back(inputs_of(s));
                ys.push_back(vb / va);
            }
            if (!ys.empty())
                r.targets.push_back(summarise(std::string("ratio ") + metric + " " +
                                                  pair.values.back() + "/" + pair.values.front(),
                                              r.keys, inputs, ys));
        }
    }
    return r;
}

std::string uncertainty_text(const uncertainty_report& r) {
    std::string out = "samples: " + std::to_string(r.samples_complete) + " of " +
                      std::to_string(r.samples) + " complete; " + std::to_string(r.keys.size()) +
                      " assumed values sampled\n";
    char line[512];
    std::snprintf(line, sizeof line, "%-52s %14s %14s %14s  %s\n", "target", "5 %", "median",
                  "95 %", "largest shares of variance");
    out += line;
    for (const auto& t : r.targets) {
        std::string top;
        for (size_t i = 0; i < t.shares.size() && i < 3; ++i)
            top += (i ? ", " : "") + t.shares[i].key + " " +
                   format_fixed(100 * t.shares[i].share, 0) + " %" +
                   (t.shares[i].rho < 0 ? " (-)" : " (+)");
        std::snprintf(line, sizeof line, "%-52s %14.6g %14.6g %14.6g  ", t.name.c_str(), t.p5,
                      t.median, t.p95);
        out += line + top + "\n";
    }
    return out;
}

std::string uncertainty_csv(const uncertainty_report& r) {
    std::string out = "target,n,p5,median,p95";
    for (const auto& k : r.keys) out += ",share." + csv_field(k);
    out += "\n";
    for (const auto& t : r.targets) {
        out += csv_field(t.name) + "," + std::to_string(t.n) + "," + json_number(t.p5) + "," +
               json_number(t.median) + "," + json_number(t.p95);
        for (const auto& k : r.keys) {
            double share = 0;
            for (const auto& s : t.shares)
                if (s.key == k) share = s.share;
            out += "," + json_number(share);
        }
        out += "\n";
    }
    return out;
}

json uncertainty_json(const uncertainty_report& r) {
    json d = json::object();
    d["samples"] = r.samples;
    d["samples_complete"] = r.samples_complete;
    d["keys"] = r.keys;
    json ts = json::array();
    for (const auto& t : r.targets) {
        json e = json::object();
        e["target"] = t.name;
        e["n"] = t.n;
        e["p5"] = json_num(t.p5);
        e["median"] = json_num(t.median);
        e["p95"] = json_num(t.p95);
        json sh = json::array();
        for (const auto& s : t.shares)
            sh.push_back(json::object(
                {{"key", s.key}, {"share", json_num(s.share)}, {"rho", json_num(s.rho)}}));
        e["shares"] = sh;
        ts.push_back(e);
    }
    d["targets"] = ts;
    return d;
}

}  // namespace nestvp
