// --plot DIR figure sets.
#include "platforms/figures/plot_files.h"

#include <algorithm>
#include <cctype>
#include <limits>

#include "platforms/config/param_schema.h"
#include "platforms/figures/figures.h"
#include "platforms/figures/policy_map_figure.h"
#include "platforms/figures/tornado_figure.h"
#include "platforms/report/tables.h"

namespace nestvp {

std::string unit_of_key(const std::string& key) {
    // The schema's unit where the key has one (param_schema.cpp), else from the key's name.
    if (const param_def* d = find_param(key))
        if (!d->unit.empty()) return d->unit;
    const auto ends = [&](const std::string& s) {
        return key.size() >= s.size() && key.compare(key.size() - s.size(), s.size(), s) == 0;
    };
    if (ends("_ns")) return "ns";
    if (ends("_s")) return "s";
    if (ends("hz") || ends("_hz")) return "Hz";
    if (ends("vcpus")) return "vCPUs";
    if (ends("copies")) return "copies";
    if (ends("seed")) return "seed";
    return "";
}

std::string file_part(const std::string& s) {
    std::string out;
    for (char c : s)
        out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.')
                   ? c
                   : '_';
    return out;
}

drawn_figures write_run_plots(const std::string& dir, const std::vector<labelled_run>& runs,
                              unsigned jobs) {
    std::vector<std::pair<figure_file, gnuplot_script>> figures;
    const auto put = [&](const std::string& name, gnuplot_script g) {
        figures.push_back({figure_in(dir, name), std::move(g)});
    };
    for (const auto& kind : latency_kinds()) {
        std::vector<cdf_series> cdf;
        std::vector<bar_run> bars;
        bool any = false;
        for (const auto& r : runs) {
            const latency_report& l = latency_of(r.result->metrics, kind);
            cdf.push_back({r.label, &l.histogram});
            bars.push_back({r.label, &l.breakdown});
            for (const auto& b : l.histogram) any = any || b.second > 0;
        }
        if (!any) continue;  // no run measured this latency
        const std::string title = latency_title(kind);
        put("cdf-" + kind, cdf_figure("CDF of the " + title, title + " (ns)", cdf));
        put("breakdown-" + kind, breakdown_figure("Breakdown of the mean " + title, bars));
    }
    // Exit rate per vCPU; the runs share a y scale so their rates compare by eye.
    double top = 0;
    for (const auto& r : runs)
        top = std::max(top, max_exit_rate(r.result->exits, r.result->sim_seconds));
    for (size_t i = 0; i < runs.size(); ++i) {
        const auto& r = runs[i];
        const std::string name =
            runs.size() == 1 ? "exit-rate" : "exit-rate-" + std::string(1, char('a' + i % 26));
        put(name, exit_rate_figure("Exit rate per vCPU: " + r.label, r.result->exits,
                                   r.result->sim_seconds, top));
    }
    return render_figures(figures, jobs);
}

drawn_figures write_sweep_plots(const std::string& dir, const sweep_plan& plan,
                                const std::vector<std::optional<run_record>>& pts, unsigned jobs) {
    std::vector<std::pair<figure_file, gnuplot_script>> figures;
    if (plan.grid.empty()) return {};
    const grid_axis& xa = plan.grid.front();
    const size_t rest = plan.points.size() / xa.values.size();  // combinations of the other axes
    for (const auto& metric : chart_metrics()) {
        std::vector<line_series> series;
        for (size_t c = 0; c < rest; ++c) {
            line_series s;
            // Label from the other axes' values of the first point of this combination.
            const auto& p = plan.points[c];
            for (size_t k = 1; k < p.size(); ++k) s.label += (k > 1 ? ", " : "") + p[k];
            if (s.label.empty()) s.label = metric;
            for (size_t xi = 0; xi < xa.values.size(); ++xi) {
                const auto& rec = pts[xi * rest + c];
                double v = std::numeric_limits<double>::quiet_NaN();
                if (rec) metric_value(*rec, metric, v);
                s.y.push_back(v);
            }
            series.push_back(std::move(s));
        }
        // A metric that is zero at every point (h_enter_nested under v2) says nothing: no chart.
        bool any = false;
        for (const auto& ls : series)
            for (double v : ls.y) any = any || (v == v && v != 0);
        if (!any) continue;
        const std::string unit = unit_of_key(xa.key);
        const std::string x_label =
            xa.key + (unit.empty() ? " (setting value)" : " (" + unit + ")");
        const bool ns = metric.find("latency_ns") != std::string::npos;
        const std::string y_label = metric + (ns ? " (ns)" : " (count per run)");
        figures.push_back({figure_in(dir, "sweep-" + file_part(metric)),
                           line_chart_figure(metric + " against " + xa.key, x_label, y_label,
                                             xa.values, series)});
    }
    return render_figures(figures, jobs);
}

drawn_figures write_tornado_plots(const std::string& dir, const uncertainty_report& r,
                                  unsigned jobs) {
    std::vector<std::pair<figure_file, gnuplot_script>> figures;
    for (const auto& t : r.targets)
        if (t.name.rfind("ratio ", 0) == 0 || t.name.rfind("kvm_guest_exit", 0) == 0 ||
            t.name.rfind("gsb_recv", 0) == 0 || t.name.rfind("arithoh_count", 0) == 0)
            figures.push_back({figure_in(dir, "tornado-" + file_part(t.name)), tornado_figure(t)});
    return render_figures(figures, jobs);
}

drawn_figures write_policy_map_plots(const std::string& dir, const policy_map& m, unsigned jobs) {
    std::vector<std::pair<figure_file, gnuplot_script>> figures;
    for (auto c : {map_criterion::throughput, map_criterion::timer_p99, map_criterion::exits})
        figures.push_back({figure_in(dir, std::string("policy-map-") + criterion_name(c)),
                           policy_map_figure(m, c)});
    return render_figures(figures, jobs);
}

}  // namespace nestvp
