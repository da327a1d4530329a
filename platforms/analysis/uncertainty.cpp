#include "platforms/analysis/uncertainty.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>
#include <stdexcept>

#include "platforms/config/param_schema.h"
#include "platforms/report/tables.h"

namespace nestvp {

namespace {

// quantile() of values already sorted, not empty.
double sorted_quantile(const std::vector<double>& xs, double q) {
    const double pos = q * static_cast<double>(xs.size() - 1);
    const auto lo = static_cast<size_t>(std::floor(pos));
    const size_t hi = std::min(lo + 1, xs.size() - 1);
    return xs[lo] + (pos - static_cast<double>(lo)) * (xs[hi] - xs[lo]);
}

}  // namespace

double quantile(std::vector<double> xs, double q) {
    if (xs.empty()) return 0;
    std::sort(xs.begin(), xs.end());
    return sorted_quantile(xs, q);
}

std::vector<double> bootstrap_se(const std::vector<double>& xs, const std::vector<double>& qs,
                                 unsigned resamples) {
    std::vector<double> se(qs.size(), 0.0);
    if (xs.size() < 2 || resamples < 2) return se;
    std::mt19937_64 rng(1);
    std::uniform_int_distribution<size_t> pick(0, xs.size() - 1);
    std::vector<std::vector<double>> got(qs.size());
    std::vector<double> r(xs.size());
    for (unsigned b = 0; b < resamples; ++b) {
        for (auto& v : r) v = xs[pick(rng)];
        std::sort(r.begin(), r.end());
        for (size_t k = 0; k < qs.size(); ++k) got[k].push_back(sorted_quantile(r, qs[k]));
    }
    for (size_t k = 0; k < qs.size(); ++k) {
        const double mean = std::accumulate(got[k].begin(), got[k].end(), 0.0) / resamples;
        double ss = 0;
        for (double v : got[k]) ss += (v - mean) * (v - mean);
        se[k] = std::sqrt(ss / (resamples - 1));
    }
    return se;
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

interval_bounds bounds_of(const std::vector<double>& ys) {
    interval_bounds b;
    b.n = ys.size();
    if (ys.empty()) return b;
    b.p5 = quantile(ys, 0.05);
    b.p95 = quantile(ys, 0.95);
    const std::vector<double> se = bootstrap_se(ys, {0.05, 0.95});
    b.p5_se = se[0];
    b.p95_se = se[1];
    return b;
}

// The run-to-run noise a target's samples get: one additive deviation (or, for a ratio, one
// factor) per replicate, used in turn (sample i takes replicate i mod n).
struct run_noise {
    std::vector<double> steps;
    bool factor = false;
    double sd = 0;  // of the deviations, or of the factors times the median

    double apply(size_t i, double y) const {
        if (steps.empty()) return y;
        const double e = steps[i % steps.size()];
        return factor ? y * e : y + e;
    }
};

double mean_of(const std::vector<double>& xs) {
    return xs.empty() ? 0 : std::accumulate(xs.begin(), xs.end(), 0.0) / double(xs.size());
}

// The replicates' values as steps from `centre`, the platform's own point as the samples ran
// it (a ratio: factors over it): a sample's value plus a step is one full-length run's, with
// the short runs' offset removed. Without the centre, the replicates' mean. None from fewer
// than two replicates.
run_noise noise_of(const std::vector<double>& values, std::optional<double> centre, bool factor) {
    run_noise n;
    n.factor = factor;
    if (values.size() < 2) return n;
    const double mean = mean_of(values), c = centre.value_or(mean);
    if (factor && (mean == 0 || c == 0)) return n;
    double ss = 0;
    for (double v : values) {
        n.steps.push_back(factor ? v / c : v - c);
        ss += (v - mean) * (v - mean);
    }
    n.sd = std::sqrt(ss / double(values.size() - 1)) / (factor ? mean : 1.0);
    return n;
}

// ys[i] is a sample's output, inputs[i] its sampled values; in_half[i] whether the sample is
// one of the first half. The bounds are those of one run (with `noise`), the shares are not.
uncertainty_target summarise(const std::string& name, const std::vector<std::string>& keys,
                             const std::vector<std::vector<double>>& inputs,  // [sample][key]
                             const std::vector<double>& ys, const std::vector<bool>& in_half,
                             const run_noise& noise) {
    uncertainty_target t;
    t.name = name;
    t.n = ys.size();
    std::vector<double> one_run(ys.size()), half;
    for (size_t i = 0; i < ys.size(); ++i) one_run[i] = noise.apply(i, ys[i]);
    const interval_bounds all = bounds_of(one_run);
    t.p5 = all.p5;
    t.p5_se = all.p5_se;
    t.median = quantile(one_run, 0.5);
    t.p95 = all.p95;
    t.p95_se = all.p95_se;
    for (size_t i = 0; i < ys.size(); ++i)
        if (in_half[i]) half.push_back(one_run[i]);
    t.half = bounds_of(half);
    t.noise_n = noise.steps.size();
    t.noise_sd = noise.sd * (noise.factor ? t.median : 1.0);
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

namespace {

// Where a sampled plan's runs are: sample s under paired value p, replicate k under p.
struct sample_runs {
    const sweep_plan& plan;
    const std::vector<std::optional<run_record>>& pts;
    size_t pairs;

    const std::optional<run_record>& sample(unsigned s, size_t p) const {
        return pts.at(s * pairs + p);
    }
    const std::optional<run_record>& replicate(unsigned k, size_t p) const {
        return pts.at((plan.samples + k) * pairs + p);
    }
    // The platform's own values under p, run as the samples are (after the replicates).
    const std::optional<run_record>& nominal(size_t p) const {
        return pts.at((plan.samples + plan.replicates) * pairs + p);
    }
    // Sample s's sampled values, in key order (the same in each of its paired points).
    std::vector<double> inputs(unsigned s, const std::vector<std::string>& keys) const {
        std::vector<double> in;
        for (const auto& k : keys) in.push_back(sampled_value(plan.points[s * pairs], k));
        return in;
    }
};

// Per metric and paired value: the samples where that run is present. Counts (the metrics that
// are not a latency's "kind.p50") are scaled; latencies and ratios are not. Replicates run the
// full length, so their counts are not scaled.
void metric_targets(const sample_runs& runs, uncertainty_report& r) {
    const grid_axis& pair = runs.plan.grid.back();
    for (const auto& metric : chart_metrics()) {
        const double scale = metric.find('.') == std::string::npos ? runs.plan.count_scale : 1.0;
        for (size_t p = 0; p < runs.pairs; ++p) {
            std::vector<std::vector<double>> inputs;
            std::vector<double> ys, reps;
            std::vector<bool> in_half;
            for (unsigned s = 0; s < runs.plan.samples; ++s) {
                const auto& rec = runs.sample(s, p);
                double v = 0;
                if (!rec || !metric_value(*rec, metric, v)) continue;
                inputs.push_back(runs.inputs(s, r.keys));
                ys.push_back(v * scale);
                in_half.push_back(s < r.half_samples);
            }
            double v = 0;
            std::optional<double> centre;
            for (unsigned k = 0; k < runs.plan.replicates; ++k) {
                const auto& rec = runs.replicate(k, p);
                if (rec && metric_value(*rec, metric, v)) reps.push_back(v);
            }
            if (runs.plan.replicates && runs.nominal(p) &&
                metric_value(*runs.nominal(p), metric, v))
                centre = v * scale;
            if (!ys.empty())
                r.targets.push_back(summarise(metric + " [" + pair.values[p] + "]", r.keys, inputs,
                                              ys, in_half, noise_of(reps, centre, false)));
        }
    }
}

// The ratio of `metric` between the last paired run and the first, if both have it.
bool run_ratio(const std::optional<run_record>& a, const std::optional<run_record>& b,
               const char* metric, double& ratio) {
    double va = 0, vb = 0;
    if (!a || !b || !metric_value(*a, metric, va) || !metric_value(*b, metric, vb) || va == 0)
        return false;
    ratio = vb / va;
    return true;
}

// The reference ratios: the last paired value over the first (cancel / no-cancel).
void ratio_targets(const sample_runs& runs, uncertainty_report& r) {
    const grid_axis& pair = runs.plan.grid.back();
    const size_t last = runs.pairs - 1;
    for (const char* metric : {"kvm_guest_exit", "arithoh_count", "gsb_recv"}) {
        std::vector<std::vector<double>> inputs;
        std::vector<double> ys, reps;
        std::vector<bool> in_half;
        double ratio = 0;
        for (unsigned s = 0; s < runs.plan.samples; ++s) {
            if (!run_ratio(runs.sample(s, 0), runs.sample(s, last), metric, ratio)) continue;
            inputs.push_back(runs.inputs(s, r.keys));
            ys.push_back(ratio);
            in_half.push_back(s < r.half_samples);
        }
        for (unsigned k = 0; k < runs.plan.replicates; ++k)
            if (run_ratio(runs.replicate(k, 0), runs.replicate(k, last), metric, ratio))
                reps.push_back(ratio);
        std::optional<double> centre;
        if (runs.plan.replicates && run_ratio(runs.nominal(0), runs.nominal(last), metric, ratio))
            centre = ratio;
        if (!ys.empty())
            r.targets.push_back(summarise(std::string("ratio ") + metric + " " +
                                              pair.values.back() + "/" + pair.values.front(),
                                          r.keys, inputs, ys, in_half,
                                          noise_of(reps, centre, true)));
    }
}

}  // namespace

uncertainty_report analyse_samples(const sweep_plan& plan,
                                   const std::vector<std::optional<run_record>>& pts) {
    uncertainty_report r;
    r.samples = plan.samples;
    r.hypercubes = plan.hypercubes;
    r.half_samples = plan.samples / 2;
    r.count_scale = plan.count_scale;
    r.sim_seconds = plan.run_seconds;
    r.replicates = plan.replicates;
    for (size_t i = 0; i < pts.size() && r.sim_seconds == 0; ++i)
        if (pts[i]) r.sim_seconds = pts[i]->result.sim_seconds;  // a manifest that does not say
    for (size_t k = 0; k + 1 < plan.grid.size(); ++k) r.keys.push_back(plan.grid[k].key);
    const sample_runs runs{plan, pts, plan.grid.back().values.size()};
    if (pts.size() < plan.points.size())
        throw std::runtime_error("uncertainty: " + std::to_string(pts.size()) +
                                 " runs for a plan of " + std::to_string(plan.points.size()));
    for (unsigned k = 0; k < plan.replicates && r.replicate_seconds == 0; ++k)
        if (runs.replicate(k, 0)) r.replicate_seconds = runs.replicate(k, 0)->result.sim_seconds;
    metric_targets(runs, r);
    for (unsigned s = 0; s < plan.samples; ++s) {
        bool all = true;
        for (size_t p = 0; p < runs.pairs; ++p) all = all && runs.sample(s, p).has_value();
        if (all) ++r.samples_complete;
    }
    if (runs.pairs >= 2) ratio_targets(runs, r);
    return r;
}

std::string uncertainty_text(const uncertainty_report& r) {
    std::string out = "samples: " + std::to_string(r.samples_complete) + " of " +
                      std::to_string(r.samples) + " complete; " + std::to_string(r.keys.size()) +
                      " assumed values sampled\n";
    if (r.hypercubes > 1)
        out += std::to_string(r.hypercubes) + " independent Latin hypercubes of " +
               std::to_string(r.samples / r.hypercubes) + "\n";
    if (r.count_scale != 1)
        out += "runs of " + format_real(r.sim_seconds) + " s simulated; counts scaled x" +
               format_real(r.count_scale) + " to " + format_real(r.sim_seconds * r.count_scale) +
               " s\n";
    if (r.replicates > 0)
        out += "one run's interval: each sample plus the run-to-run noise of " +
               std::to_string(r.replicates) + " replicates of " + format_real(r.replicate_seconds) +
               " s at the platform's values, each with its own seed\n";
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
    d["hypercubes"] = r.hypercubes;
    d["half_samples"] = r.half_samples;
    d["sim_seconds"] = json_num(r.sim_seconds);
    d["count_scale"] = json_num(r.count_scale);
    d["counts_scaled_to_s"] = json_num(r.sim_seconds * r.count_scale);
    d["replicates"] = r.replicates;
    d["replicate_seconds"] = json_num(r.replicate_seconds);
    d["bounds_se"] =
        "bootstrap standard error, 2000 resamples with replacement (independent draws assumed)";
    d["keys"] = r.keys;
    json ts = json::array();
    for (const auto& t : r.targets) {
        json e = json::object();
        e["target"] = t.name;
        e["n"] = t.n;
        e["p5"] = json_num(t.p5);
        e["median"] = json_num(t.median);
        e["p95"] = json_num(t.p95);
        e["p5_se"] = json_num(t.p5_se);
        e["p95_se"] = json_num(t.p95_se);
        e["noise_n"] = t.noise_n;
        e["noise_sd"] = json_num(t.noise_sd);
        e["half"] = json::object({{"n", t.half.n},
                                  {"p5", json_num(t.half.p5)},
                                  {"p5_se", json_num(t.half.p5_se)},
                                  {"p95", json_num(t.half.p95)},
                                  {"p95_se", json_num(t.half.p95_se)}});
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
