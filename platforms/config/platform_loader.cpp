// Loads a platform file strictly (field-anchors.md §1.2: the file is the machine's netlist;
// §1.1: every key is checked, a typo is an error, not a silent default). Order of precedence,
// lowest first: schema defaults, included files (in list order, each with its own includes
// first), the file's own keys, then --set arguments in command-line order.
#include "platforms/config/platform_loader.h"
#include "platforms/config/yaml_guard.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "platforms/config/param_schema.h"
#include "platforms/config/yaml_value.h"

namespace nestvp {

namespace fs = std::filesystem;

namespace {

const char* const set_source = "--set on the command line";

// Next path segments below `prefix` ("" for the top level), in schema order.
std::vector<std::string> children_of(const std::string& prefix) {
    std::vector<std::string> out;
    const std::string p = prefix.empty() ? "" : prefix + ".";
    for (const auto& d : param_schema()) {
        if (d.path.compare(0, p.size(), p) != 0) continue;
        std::string rest = d.path.substr(p.size());
        rest = rest.substr(0, rest.find('.'));
        bool seen = false;
        for (const auto& o : out) seen = seen || o == rest;
        if (!seen) out.push_back(rest);
    }
    return out;
}

bool is_section(const std::string& path) {
    const std::string p = path + ".";
    for (const auto& d : param_schema())
        if (d.path.compare(0, p.size(), p) == 0) return true;
    return false;
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
    return s;
}

class loader {
public:
    platform_config cfg = default_platform();

    void load_file(const std::string& path, const std::string& include_place) {
        const bool top = include_place.empty();
        check_readable(path, include_place);
        std::error_code ec;
        const std::string canon = fs::weakly_canonical(path, ec).string();
        check_no_cycle(canon, path, include_place);
        const yaml_origin where{path, ""};
        const YAML::Node root = read_root(path, where);
        m_stack.emplace_back(canon, path);
        // Includes first, so that this file's own keys override them.
        if (const YAML::Node inc = root["include"]) load_includes(inc, path, where);
        for (const auto& kv : root) {
            const std::string key = kv.first.Scalar();
            if (key == "include") continue;
            if (key == "name" && !top) continue;  // a name belongs to its file: not inherited
            apply(key, kv.first, kv.second, where);
        }
        m_stack.pop_back();
    }

    void apply_set(const std::string& arg) {
        const std::string place = "--set " + arg;
        const auto eq = arg.find('=');
        if (eq == std::string::npos || eq == 0)
            throw config_error(place + ": expected key=value, found " +
                               (eq == 0 ? std::string("no key") : std::string("no '='")));
        std::string key = arg.substr(0, eq);
        const std::string text = arg.substr(eq + 1);
        yaml_origin where{"", place};
        // Costs: l0.costs.partition_switch=N, or .cycles=N / .source=TEXT.
        std::string field;
        for (const char* f : {".cycles", ".source"}) {
            const std::string sf(f);
            if (key.size() > sf.size() && key.compare(key.size() - sf.size(), sf.size(), sf) == 0) {
                const param_def* d = find_param(key.substr(0, key.size() - sf.size()));
                if (d && d->type == param_type::cost) {
                    field = sf.substr(1);
                    key = d->path;
                }
            }
        }
        const param_def* d = find_param(key);
        if (!d) {
            std::vector<std::string> all;
            for (const auto& p : param_schema()) all.push_back(p.path);
            std::string found = is_section(key) ? "the section '" + key + "' (not a single key)"
                                                : "unknown key '" + key + "'";
            const std::string near = is_section(key) ? "" : nearest_param(key, all);
            if (!near.empty()) found += "; did you mean '" + near + "'?";
            throw_config(place, key, "a key listed by `nestvp params`", found);
        }
        param_value v;
        const value_provenance before = provenance_of(cfg, *d);
        if (d->type == param_type::cost) {
            v = d->get(cfg);
            if (field == "source") {
                if (text.empty())
                    throw_config(place, key + ".source", "a non-empty string", "nothing");
                require_utf8(text, place, key + ".source");
                v.s = text;
            } else {
                param_def cycles = *d;
                cycles.type = param_type::real;  // as in a file: a real >= 0
                param_value c = parse_node(cycles, load_set_value(text, place, key), where);
                v.d = c.d;
                v.s = set_source;
                v.list.clear();  // a value set by hand is no longer the assumption's range
            }
        } else if (d->type == param_type::string || d->type == param_type::choice) {
            require_utf8(text, place, key);
            v.s = text;
            if (d->type == param_type::choice) {
                bool ok = false;
                for (const auto& c : d->choices) ok = ok || c == text;
                if (!ok) throw_config(place, key, expectation(*d), "'" + text + "'");
            }
        } else {
            v = parse_node(*d, load_set_value(text, place, key), where);
        }
        d->set(cfg, v);
        if (d->type == param_type::cost) {
            cfg.provenance.erase(key);  // the kind follows from the (new) source text
            // .source=TEXT changes only the source: a cost it leaves calibrated keeps its figure.
            if (field == "source" && cost_kind_from_source(text) == "calibrated" &&
                !before.calibrated_on.empty())
                cfg.provenance[key] = {"calibrated", text, v.list, before.calibrated_on};
        } else {
            cfg.provenance[key] = {"set", set_source, {}, {}};
        }
        record(key, place);
    }

    void validate(const std::string& top_file) {
        const core_config& m = cfg.machine.core;
        const auto& speed = m.smt_speed;
        if (speed.size() != m.threads) {
            const std::string n_t = std::to_string(m.threads);
            const std::string n_s = std::to_string(speed.size());
            if (later("machine.core.threads", "machine.core.smt_speed"))
                throw_config(place_of("machine.core.threads", top_file), "machine.core.threads",
                             n_s + " to match the " + n_s + " values of machine.core.smt_speed",
                             n_t + " (set smt_speed too)");
            throw_config(
                place_of("machine.core.smt_speed", top_file), "machine.core.smt_speed",
                n_t + " values, one per active-thread count (machine.core.threads = " + n_t + ")",
                n_s + " values");
        }
        for (size_t i = 1; i < speed.size(); ++i)
            if (speed[i] > speed[i - 1])
                throw_config(place_of("machine.core.smt_speed", top_file),
                             "machine.core.smt_speed[" + std::to_string(i) + "]",
                             "non-increasing values (more active threads never run faster)",
                             format_real(speed[i]) + " after " + format_real(speed[i - 1]));
        // Two keys that only fail together: the error names the one given last.
        const auto refuse_pair = [&](const std::string& a, const std::string& b,
                                     const std::string& expected, const std::string& found) {
            const std::string& key = later(a, b) ? a : b;
            throw_config(place_of(key, top_file), key, expected, found);
        };
        if (cfg.workload.arithoh_copies > cfg.l2.vcpus)
            refuse_pair("workload.arithoh_copies", "l2.vcpus",
                        "workload.arithoh_copies <= l2.vcpus (one copy per vCPU)",
                        std::to_string(cfg.workload.arithoh_copies) + " copies on " +
                            std::to_string(cfg.l2.vcpus) + " vCPUs");
        if (cfg.l2.devices_ipi_hz > 0 && cfg.l2.vcpus < 2)
            refuse_pair("l2.devices.ipi_hz", "l2.vcpus",
                        "l2.vcpus >= 2 when l2.devices.ipi_hz > 0 (an IPI goes to another vCPU)",
                        format_real(cfg.l2.devices_ipi_hz) + " Hz on " +
                            std::to_string(cfg.l2.vcpus) + " vCPU");
        if (cfg.machine.cores != 0 && cfg.machine.cores < cfg.cores_needed())
            refuse_pair("machine.cores", "l2.vcpus",
                        "machine.cores x machine.core.threads >= l2.vcpus (a thread per vCPU), "
                        "or machine.cores = 0",
                        std::to_string(cfg.machine.cores) + " cores of " +
                            std::to_string(m.threads) + " threads for " +
                            std::to_string(cfg.l2.vcpus) + " vCPUs");
        if (!(cfg.workload.arithoh_iteration.cycles > 0))  // arithoh counts iterations of it
            throw_config(place_of("workload.costs.arithoh_iteration", top_file),
                         "workload.costs.arithoh_iteration", "cycles > 0 (an iteration takes time)",
                         format_real(cfg.workload.arithoh_iteration.cycles));
        // A periodic tick lasts a whole number of TB ticks, at least one (l1_cpu, l2_kernel).
        const std::pair<const char*, unsigned> ticks[] = {{"l1.hz", cfg.l1.hz},
                                                          {"l2.hz", cfg.l2.hz}};
        for (const auto& hz : ticks)
            if (m.tb_freq_hz < hz.second)
                refuse_pair("machine.tb.freq_hz", hz.first,
                            std::string(hz.first) +
                                " <= machine.tb.freq_hz (a tick of at least one time-base tick)",
                            std::to_string(hz.second) + " Hz ticks on a " +
                                std::to_string(m.tb_freq_hz) + " Hz time base");
        check_calibrated(top_file);
        const run_config& r = cfg.run;
        if (!r.trace_path.empty() && r.trace_start_s >= r.duration_s)  // an empty trace
            refuse_pair("run.trace_window.start_s", "run.duration_s",
                        "run.trace_window.start_s < run.duration_s (a window inside the run)",
                        "a window from " + format_real(r.trace_start_s) + " s in a " +
                            format_real(r.duration_s) + " s run");
        if (r.trace_end_s >= 0 && r.trace_end_s <= r.trace_start_s)
            throw_config(place_of("run.trace_window.end_s", top_file), "run.trace_window.end_s",
                         "a negative value (to the end) or a time after start_s = " +
                             format_real(r.trace_start_s),
                         format_real(r.trace_end_s));
    }

private:
    // The top file is named by its path, an included one by the include line.
    static void check_readable(const std::string& path, const std::string& include_place) {
        std::error_code ec;
        if (fs::is_regular_file(path, ec)) return;
        const bool exists = fs::exists(path, ec);
        if (include_place.empty())
            throw config_error(path + ": expected a readable platform file, found " +
                               (exists ? "something that is not a file" : "no such file"));
        throw_config(
            include_place, "include", "a readable platform file",
            (exists ? "'" + path + "', which is not a file" : "no file at '" + path + "'"));
    }

    // A file that includes itself, directly or not, is refused with the chain of includes.
    void check_no_cycle(const std::string& canon, const std::string& path,
                        const std::string& include_place) const {
        for (size_t i = 0; i < m_stack.size(); ++i) {
            if (m_stack[i].first != canon) continue;
            std::vector<std::string> chain;
            // Shown relative to the folder of the first file in the cycle.
            const fs::path base = fs::path(m_stack[i].second).parent_path();
            auto shown = [&base](const std::string& p) {
                const fs::path rel = fs::path(p).lexically_relative(base);
                return rel.empty() ? p : rel.string();
            };
            for (size_t j = i; j < m_stack.size(); ++j) chain.push_back(shown(m_stack[j].second));
            chain.push_back(shown(path));
            throw_config(include_place, "include", "no cycle of includes",
                         "the cycle " + join(chain, " -> "));
        }
    }

    // The file's one YAML document: a mapping of sections with no key given twice.
    static YAML::Node read_root(const std::string& path, const yaml_origin& where) {
        std::ifstream in(path);
        std::stringstream text;
        text << in.rdbuf();
        if (!in)
            throw config_error(path + ": expected a readable platform file, found a read error");
        std::vector<YAML::Node> docs;
        try {
            docs = load_all_yaml_bounded(text.str());
        } catch (const YAML::Exception& e) {
            throw config_error(where.at(e.mark) + ": expected valid YAML, found a syntax error (" +
                               e.msg + ")");
        } catch (const yaml_limit_error& e) {
            throw config_error(path + ":1:1: expected valid YAML, found " + e.what());
        }
        if (docs.empty() || docs[0].IsNull())
            throw config_error(path + ":1:1: expected a mapping of sections (" +
                               join(children_of(""), ", ") + "), found an empty file");
        if (docs.size() > 1)
            throw_config(where.at(docs[1]), "", "one YAML document", "a second document");
        const YAML::Node root = docs[0];
        if (!root.IsMap())
            throw_config(where.at(root), "",
                         "a mapping of sections (" + join(children_of(""), ", ") + ")",
                         describe_found(root));
        check_unique_keys(root, "", where);
        return root;
    }

    // `include:` of the file at path: each file in list order, relative to this file's folder.
    void load_includes(const YAML::Node& inc, const std::string& path, const yaml_origin& where) {
        std::vector<YAML::Node> items;
        if (inc.IsScalar())
            items.push_back(inc);
        else if (inc.IsSequence() && inc.size() > 0)
            for (const auto& i : inc) items.push_back(i);
        else
            throw_config(where.at(inc), "include", "a file name or a list of file names",
                         describe_found(inc));
        for (const auto& item : items) {
            if (!item.IsScalar() || item.Scalar().empty())
                throw_config(where.at(item), "include", "a file name", describe_found(item));
            fs::path p(item.Scalar());
            if (p.is_relative()) p = fs::path(path).parent_path() / p;
            const std::string inc_place = where.at(item);
            try {
                load_file(p.lexically_normal().string(), inc_place);
            } catch (const config_error& e) {
                // Name the include line too, so a problem in a base file can be traced.
                const std::string what = e.what();
                if (what.compare(0, inc_place.size(), inc_place) == 0) throw;
                throw config_error(what + " (included from " + inc_place + ")");
            }
        }
    }

    // Calibrated values (reference-result.md, "Calibration and prediction"): each names the one
    // figure it was set from, at most three, no figure twice. In the order they were set, so
    // that the error names the one set last (a --set source can make a cost calibrated).
    void check_calibrated(const std::string& top_file) const {
        std::vector<std::pair<std::string, calibration_figure>> cal;
        for (const auto& d : param_schema()) {
            const value_provenance p = provenance_of(cfg, d);
            if (p.kind == "calibrated") cal.emplace_back(d.path, p.calibrated_on);
        }
        const auto seq = [this](const std::string& key) {
            const auto it = m_origin.find(key);
            return it == m_origin.end() ? 0 : it->second.second;
        };
        std::stable_sort(cal.begin(), cal.end(), [&seq](const auto& a, const auto& b) {
            return seq(a.first) < seq(b.first);
        });
        for (const auto& c : cal)
            if (c.second.empty())
                throw_config(place_of(c.first, top_file), c.first,
                             "calibrated_on: {metric, policy} on a calibrated value (the published "
                             "figure it was set from)",
                             "a source text that starts 'calibrated' and no calibrated_on (state "
                             "it in a file)");
        if (cal.size() > k_max_calibrated) {
            const std::string& fourth = cal[k_max_calibrated].first;
            throw_config(place_of(fourth, top_file), fourth,
                         "at most three calibrated values (" + cal[0].first + ", " + cal[1].first +
                             " and " + cal[2].first + " are)",
                         "a fourth; state it as sourced or assumed");
        }
        for (size_t j = 1; j < cal.size(); ++j)
            for (size_t i = 0; i < j; ++i)
                if (cal[i].second == cal[j].second)
                    throw_config(place_of(cal[j].first, top_file), cal[j].first,
                                 "one calibrated value per published figure (" + cal[i].first +
                                     " is calibrated on " + figure_text(cal[i].second) + ")",
                                 "a second one on " + figure_text(cal[j].second));
    }

    YAML::Node load_set_value(const std::string& text, const std::string& place,
                              const std::string& key) {
        try {
            const std::vector<YAML::Node> docs = load_all_yaml_bounded(text);
            return docs.empty() ? YAML::Node() : docs.front();
        } catch (const YAML::Exception& e) {
            throw_config(place, key, "a YAML value", "a syntax error (" + e.msg + ")");
        } catch (const yaml_limit_error& e) {
            throw_config(place, key, "a YAML value", e.what());
        }
    }

    void apply(const std::string& key, const YAML::Node& key_node, const YAML::Node& value,
               const yaml_origin& where, const std::string& prefix = "") {
        const std::string full = prefix.empty() ? key : prefix + "." + key;
        if (const param_def* d = find_param(full)) {
            // An empty value has no useful mark of its own: point at its key.
            if (value.IsNull()) throw_config(where.at(key_node), full, expectation(*d), "nothing");
            const std::string place = where.at(value, key_node.Mark());
            if (d->type == param_type::cost) {
                value_provenance p;
                d->set(cfg, parse_cost(*d, value, where, p));
                if (p.kind.empty())
                    cfg.provenance.erase(full);  // the kind follows from the source text
                else
                    cfg.provenance[full] = p;
            } else if (value.IsMap() && d->type != param_type::string) {
                value_provenance p;
                d->set(cfg, parse_stated_value(*d, value, where, p));
                cfg.provenance[full] = p;
            } else {
                d->set(cfg, parse_node(*d, value, where));
                cfg.provenance[full] = {"unspecified", "a plain value at " + place, {}, {}};
            }
            record(full, place);
            return;
        }
        if (is_section(full)) {
            if (!value.IsMap())
                throw_config(where.at(value, key_node.Mark()), full,
                             "a mapping of " + join(children_of(full), ", "),
                             describe_found(value));
            check_unique_keys(value, full, where);
            for (const auto& kv : value) apply(kv.first.Scalar(), kv.first, kv.second, where, full);
            return;
        }
        std::vector<std::string> keys = children_of(prefix);
        if (prefix.empty()) keys.insert(keys.begin(), "include");
        std::vector<std::string> full_keys;
        for (const auto& k : keys) full_keys.push_back(prefix.empty() ? k : prefix + "." + k);
        std::string found = "unknown key '" + key + "'";
        const std::string near = nearest_param(full, full_keys);
        if (!near.empty()) found += "; did you mean '" + near + "'?";
        const std::string what = prefix.empty() ? "a top-level key" : "a key of " + prefix;
        throw_config(where.at(key_node), full, what + " (" + join(keys, ", ") + ")", found);
    }

    void record(const std::string& key, const std::string& place) {
        m_origin[key] = {place, ++m_seq};
    }
    bool later(const std::string& a, const std::string& b) const {
        auto ia = m_origin.find(a), ib = m_origin.find(b);
        if (ia == m_origin.end()) return false;
        if (ib == m_origin.end()) return true;
        return ia->second.second > ib->second.second;
    }
    std::string place_of(const std::string& key, const std::string& top_file) const {
        auto it = m_origin.find(key);
        return it == m_origin.end() ? top_file + " (default of " + key + ")" : it->second.first;
    }

    std::vector<std::pair<std::string, std::string>> m_stack;     // canonical, as written
    std::map<std::string, std::pair<std::string, int>> m_origin;  // key -> place, order
    int m_seq = 0;
};

}  // namespace

platform_config load_platform(const std::string& path, const std::vector<std::string>& sets) {
    loader l;
    l.load_file(path, "");
    for (const auto& s : sets) l.apply_set(s);
    l.validate(path);
    l.cfg.source_file = path;
    if (l.cfg.name.empty()) l.cfg.name = fs::path(path).stem().string();
    return l.cfg;
}

std::string dump_config(const platform_config& cfg) {
    std::ostringstream out;
    out << "# nestvp merged configuration";
    if (!cfg.source_file.empty()) out << " of " << cfg.source_file;
    out << "; every default filled in\n";
    std::vector<std::string> open;  // current section path
    for (const auto& d : param_schema()) {
        std::vector<std::string> seg;
        std::stringstream ss(d.path);
        for (std::string s; std::getline(ss, s, '.');) seg.push_back(s);
        size_t common = 0;
        while (common < open.size() && common + 1 < seg.size() && open[common] == seg[common])
            ++common;
        open.resize(common);
        for (size_t i = common; i + 1 < seg.size(); ++i) {
            out << std::string(2 * i, ' ') << seg[i] << ":\n";
            open.push_back(seg[i]);
        }
        out << std::string(2 * (seg.size() - 1), ' ') << seg.back() << ": "
            << format_stated(d, d.get(cfg), provenance_of(cfg, d)) << "\n";
    }
    return out.str();
}

void print_params(std::ostream& out) {
    print_params_table(out);
}

}  // namespace nestvp
