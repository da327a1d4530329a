// Sweep plans: grid expansion, job files for clusters, and reading the points back.
#include "platforms/analysis/sweep_plan.h"

#include <dirent.h>

#include <algorithm>
#include <stdexcept>

#include "platforms/config/param_schema.h"
#include "platforms/processes/child_procs.h"
#include "platforms/records/json.h"
#include "platforms/records/text_files.h"
#include "platforms/report/tables.h"

namespace nestvp {

grid_axis parse_grid(const std::string& spec, const std::string& flag) {
    const auto eq = spec.find('=');
    if (eq == std::string::npos || eq == 0)
        throw std::invalid_argument(flag + ": expected key=v1,v2,..., got '" + spec + "'");
    grid_axis ax;
    ax.key = spec.substr(0, eq);
    const std::string vals = spec.substr(eq + 1);
    // Values split on commas outside brackets: a list value [1,0.9] is one grid point.
    std::vector<std::string> parts(1);
    int depth = 0;
    for (char c : vals) {
        if (c == '[' || c == '{') ++depth;
        if ((c == ']' || c == '}') && depth > 0) --depth;
        if (c == ',' && depth == 0) {
            parts.emplace_back();
            continue;
        }
        parts.back() += c;
    }
    if (depth != 0)
        throw std::invalid_argument(flag + " " + ax.key + ": unclosed bracket in '" + vals + "'");
    for (const auto& v : parts) {
        if (v.empty())
            throw std::invalid_argument(flag + " " + ax.key + ": empty value in '" + vals + "'");
        for (const auto& seen : ax.values)
            if (seen == v)
                throw std::invalid_argument(flag + " " + ax.key + ": value '" + v +
                                            "' listed twice");
        ax.values.push_back(v);
    }
    return ax;
}

std::vector<std::vector<std::string>> expand_grid(const std::vector<grid_axis>& axes) {
    std::vector<std::vector<std::string>> pts = {{}};
    for (const auto& ax : axes) {
        std::vector<std::vector<std::string>> next;
        for (const auto& p : pts)
            for (const auto& v : ax.values) {
                auto q = p;
                q.push_back(ax.key + "=" + v);
                next.push_back(std::move(q));
            }
        pts = std::move(next);
    }
    return pts;
}

std::vector<std::string> sweep_plan::grid_keys() const {
    std::vector<std::string> k;
    for (const auto& ax : grid) k.push_back(ax.key);
    return k;
}

std::vector<std::string> sweep_plan::point_sets(size_t i) const {
    std::vector<std::string> s = base_sets;
    s.insert(s.end(), points.at(i).begin(), points.at(i).end());
    return s;
}

std::vector<std::string> sweep_plan::point_argv(const std::string& exe, size_t i,
                                                const std::string& json_path) const {
    std::vector<std::string> a = {exe, "run", platform_file};
    for (const auto& s : point_sets(i)) {
        a.push_back("--set");
        a.push_back(s);
    }
    a.push_back("--json");
    a.push_back(json_path);
    a.push_back("--quiet");
    a.push_back("--no-file-outputs");
    return a;
}

sweep_plan make_sweep_plan(const std::string& platform_file,
                           const std::vector<std::string>& base_sets,
                           const std::vector<grid_axis>& grid) {
    for (size_t i = 0; i < grid.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (grid[i].key == grid[j].key)
                throw std::invalid_argument("--grid: key '" + grid[i].key + "' given twice");
    sweep_plan p;
    p.platform_file = platform_file;
    p.base_sets = base_sets;
    p.grid = grid;
    p.points = expand_grid(grid);
    return p;
}

sweep_plan make_sample_plan(const std::string& platform_file,
                            const std::vector<std::string>& base_sets,
                            const std::vector<std::string>& keys,
                            const std::vector<std::vector<std::string>>& samples,
                            const grid_axis& pair, uint64_t seed) {
    sweep_plan p;
    p.platform_file = platform_file;
    p.base_sets = base_sets;
    p.sampled = true;
    p.sample_seed = seed;
    p.samples = static_cast<unsigned>(samples.size());
    for (const auto& k : keys) p.grid.push_back({k, {}});
    p.grid.push_back(pair);
    for (const auto& s : samples)
        for (const auto& v : pair.values) {
            auto pt = s;
            pt.push_back(pair.key + "=" + v);
            p.points.push_back(std::move(pt));
        }
    return p;
}

void add_noise_replicates(sweep_plan& plan, unsigned k, uint64_t base_seed, double duration_s) {
    const grid_axis& pair = plan.grid.back();
    uint64_t seed = base_seed;
    for (unsigned r = 0; r < k; ++r)
        for (const auto& v : pair.values)
            plan.points.push_back({"run.duration_s=" + format_real(duration_s),
                                   "run.seed=" + std::to_string(++seed), pair.key + "=" + v});
    // Then the platform's own point as the samples run it: the centre the steps are taken from.
    if (k > 0)
        for (const auto& v : pair.values) plan.points.push_back({pair.key + "=" + v});
    plan.replicates = k;
}

std::string point_file_name(size_t i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "point-%04zu.json", i);
    return buf;
}

std::string sweep_manifest_json(const sweep_plan& plan) {
    json d = json::object();
    d["platform_file"] = plan.platform_file;
    d["sets"] = plan.base_sets;
    json g = json::array();
    for (const auto& ax : plan.grid)
        g.push_back(json::object({{"key", ax.key}, {"values", ax.values}}));
    d["grid"] = g;
    d["points"] = plan.points.size();
    if (plan.sampled) {
        json s = json::object();
        s["seed"] = plan.sample_seed;
        s["samples"] = plan.samples;
        s["hypercubes"] = plan.hypercubes;
        s["run_seconds"] = plan.run_seconds;
        s["count_scale"] = plan.count_scale;
        s["replicates"] = plan.replicates;
        s["points"] = plan.points;
        d["sampled"] = s;
    }
    return json_text(d);
}

namespace {

[[noreturn]] void bad_manifest(const std::string& what, const std::string& m) {
    throw std::runtime_error(what + ": " + m);
}

// The "sampled" object of a manifest: the plan of `nestvp uncertainty` over the listed points.
sweep_plan parse_sampled_plan(const json& s, const std::string& file,
                              const std::vector<std::string>& base,
                              const std::vector<grid_axis>& axes, uint64_t points,
                              const std::string& what) {
    const auto bad = [&](const std::string& m) { bad_manifest(what, m); };
    if (!s.is_object() || !s.contains("seed") || !s["seed"].is_number_unsigned() ||
        !s.contains("samples") || !s["samples"].is_number_unsigned() || !s.contains("points") ||
        !s["points"].is_array() || axes.empty())
        bad("sampled: expected {\"seed\", \"samples\", \"points\"} and a paired key");
    sweep_plan p;
    p.platform_file = file;
    p.base_sets = base;
    p.grid = axes;
    p.sampled = true;
    p.sample_seed = s["seed"].get<uint64_t>();
    p.samples = s["samples"].get<unsigned>();
    // Older manifests: one hypercube, run length not stated, counts not scaled.
    if (s.contains("hypercubes")) {
        const json& h = s["hypercubes"];
        if (!h.is_number_unsigned() || h.get<unsigned>() == 0 || p.samples % h.get<unsigned>() != 0)
            bad("sampled.hypercubes: expected a whole number that divides the samples");
        p.hypercubes = h.get<unsigned>();
    }
    for (const char* key : {"run_seconds", "count_scale"}) {
        if (!s.contains(key)) continue;
        const json& v = s[key];
        const bool scale = std::string(key) == "count_scale";
        if (!v.is_number() || !(v.get<double>() >= 0) || (scale && !(v.get<double>() > 0)))
            bad(std::string("sampled.") + key + ": expected a number " + (scale ? "> 0" : ">= 0"));
        (scale ? p.count_scale : p.run_seconds) = v.get<double>();
    }
    if (s.contains("replicates")) {
        if (!s["replicates"].is_number_unsigned())
            bad("sampled.replicates: expected a whole number");
        p.replicates = s["replicates"].get<unsigned>();
    }
    for (const auto& pt : s["points"]) {
        if (!pt.is_array()) bad("sampled.points: expected lists of key=value strings");
        std::vector<std::string> sets;
        for (const auto& kv : pt) {
            if (!kv.is_string()) bad("sampled.points: expected key=value strings");
            sets.push_back(kv.get<std::string>());
        }
        p.points.push_back(std::move(sets));
    }
    const size_t pairs = axes.back().values.size();
    const size_t runs = (size_t(p.samples) + p.replicates + (p.replicates ? 1 : 0)) * pairs;
    if (pairs == 0 || p.points.size() != runs || p.points.size() != points)
        bad("sampled: " + std::to_string(p.points.size()) + " points do not match (" +
            std::to_string(p.samples) + " samples + " + std::to_string(p.replicates) +
            " replicates + the platform's point) x " + std::to_string(pairs) + " pairs");
    return p;
}

// The "grid" array of a manifest.
std::vector<grid_axis> parse_manifest_grid(const json& grid, const std::string& what) {
    std::vector<grid_axis> axes;
    for (const auto& g : grid) {
        if (!g.is_object() || !g.contains("key") || !g["key"].is_string() ||
            !g.contains("values") || !g["values"].is_array())
            bad_manifest(what, "grid: expected {\"key\": ..., \"values\": [...]}");
        grid_axis ax{g["key"].get<std::string>(), {}};
        for (const auto& v : g["values"]) {
            if (!v.is_string()) bad_manifest(what, "grid." + ax.key + ": expected string values");
            ax.values.push_back(v.get<std::string>());
        }
        axes.push_back(ax);
    }
    return axes;
}

}  // namespace

sweep_plan parse_sweep_manifest(const std::string& text, const std::string& what) {
    const json doc = parse_json(text, what);
    const auto bad = [&](const std::string& m) { bad_manifest(what, m); };
    if (!doc.is_object()) bad("expected an object");
    const auto member = [&](const char* key) -> const json* {
        const auto it = doc.find(key);
        return it == doc.end() ? nullptr : &*it;
    };
    const json* file = member("platform_file");
    const json* sets = member("sets");
    const json* grid = member("grid");
    const json* points = member("points");
    if (!file || !file->is_string()) bad("platform_file: expected a string");
    if (!sets || !sets->is_array()) bad("sets: expected an array");
    if (!grid || !grid->is_array()) bad("grid: expected an array");
    if (!points || !points->is_number_unsigned()) bad("points: expected a whole number");
    std::vector<std::string> base;
    for (const auto& s : *sets) {
        if (!s.is_string()) bad("sets: expected strings");
        base.push_back(s.get<std::string>());
    }
    const std::vector<grid_axis> axes = parse_manifest_grid(*grid, what);
    if (const json* s = member("sampled"))
        return parse_sampled_plan(*s, file->get<std::string>(), base, axes, points->get<uint64_t>(),
                                  what);
    sweep_plan p = make_sweep_plan(file->get<std::string>(), base, axes);
    const uint64_t n = points->get<uint64_t>();
    if (p.points.size() != n)
        bad("points: " + std::to_string(n) + " does not match the grid's " +
            std::to_string(p.points.size()));
    return p;
}

std::string stale_point(const sweep_plan& plan, size_t i, const run_record& rec) {
    const settings_list want = parse_settings(plan.point_sets(i));
    for (const auto& kv : want) {
        const auto it = std::find_if(rec.settings.begin(), rec.settings.end(),
                                     [&](const auto& s) { return s.first == kv.first; });
        if (it == rec.settings.end())
            return kv.first + ": missing, sweep.json has '" + kv.second + "'";
        if (it->second != kv.second)
            return kv.first + ": '" + it->second + "', sweep.json has '" + kv.second + "'";
    }
    for (const auto& kv : rec.settings)
        if (std::none_of(want.begin(), want.end(),
                         [&](const auto& s) { return s.first == kv.first; }))
            return kv.first + ": '" + kv.second + "', not in sweep.json";
    return {};
}

std::vector<std::string> existing_point_files(const std::string& dir) {
    std::vector<std::string> out;
    DIR* d = ::opendir(dir.c_str());
    if (!d) return out;
    while (const dirent* e = ::readdir(d)) {
        const std::string n = e->d_name;
        if (n.rfind("point-", 0) == 0 && n.size() > 11 && n.compare(n.size() - 5, 5, ".json") == 0)
            out.push_back(n);
    }
    ::closedir(d);
    std::sort(out.begin(), out.end());
    return out;
}

void emit_jobs(const sweep_plan& plan, const std::string& exe, const std::string& dir) {
    const std::string adir = absolute_path(dir);
    write_text_file(adir + "/sweep.json", sweep_manifest_json(plan));
    std::string jobs;
    for (size_t i = 0; i < plan.points.size(); ++i) {
        const auto argv = plan.point_argv(exe, i, adir + "/" + point_file_name(i));
        for (size_t k = 0; k < argv.size(); ++k) jobs += (k ? " " : "") + shell_quote(argv[k]);
        jobs += "\n";
    }
    write_text_file(adir + "/jobs.txt", jobs);
}

std::vector<std::optional<run_record>> load_points(const sweep_plan& plan, const std::string& dir,
                                                   std::vector<std::string>& problems,
                                                   std::vector<std::string>& stale_points) {
    std::vector<std::optional<run_record>> out(plan.points.size());
    for (size_t i = 0; i < plan.points.size(); ++i) {
        const std::string path = dir + "/" + point_file_name(i);
        try {
            run_record rec = parse_run_record(read_text_file(path), path);
            const std::string stale = stale_point(plan, i, rec);
            if (!stale.empty()) {  // a point of another sweep left in the folder
                stale_points.push_back(path + ": settings differ from sweep.json: " + stale);
                continue;
            }
            out[i] = std::move(rec);
        } catch (const std::exception& e) {
            problems.push_back(e.what());
        }
    }
    return out;
}

std::string sweep_csv(const sweep_plan& plan, const std::vector<std::optional<run_record>>& pts) {
    std::vector<run_record> recs;
    for (const auto& p : pts)
        if (p) recs.push_back(*p);
    return records_csv(recs, plan.grid_keys(), false);
}

}  // namespace nestvp
