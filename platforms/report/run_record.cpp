// run_record JSON: writing in a fixed layout and reading it back (compare, merge).
#include "platforms/report/run_record.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "platforms/report/json.h"

namespace nestvp {

const latency_report& latency_of(const run_metrics& m, const std::string& kind) {
    static const latency_report empty;
    const auto it = m.latencies.find(kind);
    return it == m.latencies.end() ? empty : it->second;
}

std::string latency_title(const std::string& kind) {
    std::string t = kind;
    if (t.size() > 3 && t.compare(t.size() - 3, 3, "_ns") == 0) t.resize(t.size() - 3);
    for (char& c : t)
        if (c == '_') c = ' ';
    return t;
}

settings_list parse_settings(const std::vector<std::string>& sets) {
    settings_list out;
    for (const auto& s : sets) {
        const auto eq = s.find('=');
        if (eq == std::string::npos || eq == 0)
            throw std::invalid_argument("expected key=value, got '" + s + "'");
        const std::string key = s.substr(0, eq), value = s.substr(eq + 1);
        bool found = false;
        for (auto& kv : out)
            if (kv.first == key) {
                kv.second = value;
                found = true;
            }
        if (!found) out.emplace_back(key, value);
    }
    return out;
}

namespace {

void write_summary(json_writer& w, const std::string& key, const latency_summary& l) {
    w.begin_object(key);
    w.member("count", l.count);
    w.member("mean", l.mean);
    w.member("p50", l.p50);
    w.member("p90", l.p90);
    w.member("p99", l.p99);
    w.member("max", l.max);
    w.end_object();
}

void write_by_reason(json_writer& w, const std::string& key,
                     const std::map<std::string, latency_summary>& m) {
    w.begin_object(key);
    for (const auto& kv : m) write_summary(w, kv.first, kv.second);
    w.end_object();
}

// Every kind of latency_kinds() is written, a missing one as an empty report.
void write_latencies(json_writer& w, const run_metrics& m) {
    w.begin_object("latencies");
    for (const auto& kind : latency_kinds()) {
        const latency_report& r = latency_of(m, kind);
        w.begin_object(kind);
        write_summary(w, "all", r.all);
        write_by_reason(w, "by_reason", r.by_reason);
        w.begin_array("by_vcpu");  // index: L2 vCPU
        for (const auto& v : r.by_vcpu) write_by_reason(w, {}, v);
        w.end_array();
        w.begin_array("breakdown");  // path order
        for (const auto& st : r.breakdown)
            w.element("{\"step\": " + json_quote(st.step) +
                      ", \"mean_ns\": " + json_number(st.mean_ns) + "}");
        w.end_array();
        w.begin_array("histogram");  // [bin centre ns, count], ascending
        for (const auto& b : r.histogram)
            w.element("[" + json_number(b.first) + ", " + json_number(b.second) + "]");
        w.end_array();
        w.end_object();
    }
    w.end_object();
}

[[noreturn]] void bad(const std::string& what, const std::string& key, const std::string& msg) {
    throw std::runtime_error(what + ": " + key + ": " + msg);
}

const json_value& need(const json_value& obj, const std::string& key, json_value::kind_t kind,
                       const std::string& what, const std::string& path) {
    const json_value* v = obj.find(key);
    const std::string full = path.empty() ? key : path + "." + key;
    if (!v) bad(what, full, "missing");
    if (v->kind != kind) bad(what, full, "has the wrong type");
    return *v;
}

uint64_t need_u64(const json_value& obj, const std::string& key, const std::string& what,
                  const std::string& path) {
    const json_value& v = need(obj, key, json_value::number_v, what, path);
    if (!v.is_uint) bad(what, path + "." + key, "expected a non-negative integer");
    return v.u;
}

double need_num(const json_value& obj, const std::string& key, const std::string& what,
                const std::string& path) {
    const json_value* v = obj.find(key);
    if (v && v->kind == json_value::null_v) return 0;  // non-finite values are written as null
    return need(obj, key, json_value::number_v, what, path).num;
}

latency_summary read_summary(const json_value& obj, const std::string& key, const std::string& what,
                             const std::string& path) {
    const json_value& o = need(obj, key, json_value::object_v, what, path);
    const std::string p = path + "." + key;
    latency_summary l;
    l.count = need_u64(o, "count", what, p);
    l.mean = need_num(o, "mean", what, p);
    l.p50 = need_num(o, "p50", what, p);
    l.p90 = need_num(o, "p90", what, p);
    l.p99 = need_num(o, "p99", what, p);
    l.max = need_num(o, "max", what, p);
    return l;
}

std::map<std::string, latency_summary> read_by_reason(const json_value& o, const std::string& what,
                                                      const std::string& path) {
    if (o.kind != json_value::object_v) bad(what, path, "has the wrong type");
    std::map<std::string, latency_summary> out;
    for (const auto& kv : o.members) out[kv.first] = read_summary(o, kv.first, what, path);
    return out;
}

// A number that may be written as null (non-finite), else an error naming the place.
double item_num(const json_value& v, const std::string& what, const std::string& path) {
    if (v.kind == json_value::null_v) return 0;
    if (v.kind != json_value::number_v) bad(what, path, "expected a number");
    return v.num;
}

latency_report read_report(const json_value& lat, const std::string& kind,
                           const std::string& what) {
    const std::string p = "metrics.latencies." + kind;
    const json_value& o = need(lat, kind, json_value::object_v, what, "metrics.latencies");
    latency_report r;
    r.all = read_summary(o, "all", what, p);
    r.by_reason =
        read_by_reason(need(o, "by_reason", json_value::object_v, what, p), what, p + ".by_reason");
    const json_value& vs = need(o, "by_vcpu", json_value::array_v, what, p);
    for (size_t i = 0; i < vs.items.size(); ++i)
        r.by_vcpu.push_back(
            read_by_reason(vs.items[i], what, p + ".by_vcpu[" + std::to_string(i) + "]"));
    const json_value& bd = need(o, "breakdown", json_value::array_v, what, p);
    for (size_t i = 0; i < bd.items.size(); ++i) {
        const std::string ip = p + ".breakdown[" + std::to_string(i) + "]";
        if (bd.items[i].kind != json_value::object_v) bad(what, ip, "expected an object");
        latency_step st;
        st.step = need(bd.items[i], "step", json_value::string_v, what, ip).str;
        st.mean_ns = need_num(bd.items[i], "mean_ns", what, ip);
        r.breakdown.push_back(st);
    }
    const json_value& h = need(o, "histogram", json_value::array_v, what, p);
    for (size_t i = 0; i < h.items.size(); ++i) {
        const std::string ip = p + ".histogram[" + std::to_string(i) + "]";
        const json_value& b = h.items[i];
        if (b.kind != json_value::array_v || b.items.size() != 2)
            bad(what, ip, "expected [bin centre ns, count]");
        const double centre = item_num(b.items[0], what, ip + "[0]");
        if (b.items[1].kind != json_value::number_v || !b.items[1].is_uint)
            bad(what, ip + "[1]", "expected a non-negative integer");
        if (!r.histogram.empty() && !(centre > r.histogram.back().first))
            bad(what, ip, "bin centres must ascend");
        r.histogram.emplace_back(centre, b.items[1].u);
    }
    return r;
}

std::map<std::string, latency_report> read_latencies(const json_value& m, const std::string& what) {
    const json_value& lat = need(m, "latencies", json_value::object_v, what, "metrics");
    std::map<std::string, latency_report> out;
    for (const auto& kind : latency_kinds()) out[kind] = read_report(lat, kind, what);
    for (const auto& kv : lat.members)
        if (!out.count(kv.first)) bad(what, "metrics.latencies." + kv.first, "unknown latency");
    return out;
}

std::map<std::string, uint64_t> read_counts(const json_value& m, const std::string& key,
                                            const std::string& what,
                                            const std::string& path = "metrics") {
    const json_value& o = need(m, key, json_value::object_v, what, path);
    std::map<std::string, uint64_t> out;
    for (const auto& kv : o.members) out[kv.first] = need_u64(o, kv.first, what, path + "." + key);
    return out;
}

}  // namespace

std::string run_record_json(const run_record& rec) {
    const run_result& r = rec.result;
    const run_metrics& m = r.metrics;
    json_writer w;
    w.begin_object();
    w.member("platform", rec.platform);
    w.begin_object("settings");
    for (const auto& kv : rec.settings) w.member(kv.first, kv.second);
    w.end_object();
    w.member("sim_seconds", r.sim_seconds);
    w.member("wall_seconds", r.wall_seconds);
    w.member("sc_events", r.sc_events);
    w.member("partial", r.partial);
    w.begin_object("metrics");
    w.member("kvm_guest_exit", m.kvm_guest_exit);
    w.member("gsb_recv", m.gsb_recv);
    w.member("gsb_send", m.gsb_send);
    w.member("h_guest_run_vcpu", m.h_guest_run_vcpu);
    w.member("h_enter_nested", m.h_enter_nested);
    w.begin_object("exits_by_reason");
    for (const auto& kv : m.exits_by_reason) w.member(kv.first, kv.second);
    w.end_object();
    w.member("arithoh_count", m.arithoh_count);
    write_latencies(w, m);
    w.begin_object("counters");
    for (const auto& kv : m.counters) w.member(kv.first, kv.second);
    w.end_object();
    w.begin_object("vcpus");  // keyed by L2 vCPU number
    for (size_t v = 0; v < m.vcpu_counters.size(); ++v) {
        w.begin_object(std::to_string(v));
        for (const auto& kv : m.vcpu_counters[v]) w.member(kv.first, kv.second);
        w.end_object();
    }
    w.end_object();
    w.end_object();
    w.end_object();
    return w.str();
}

run_record parse_run_record(const std::string& text, const std::string& what) {
    const json_value doc = parse_json(text, what);
    if (doc.kind != json_value::object_v) bad(what, "(top level)", "expected an object");
    run_record rec;
    rec.platform = need(doc, "platform", json_value::string_v, what, "").str;
    const json_value& s = need(doc, "settings", json_value::object_v, what, "");
    for (const auto& kv : s.members) {
        if (kv.second.kind != json_value::string_v)
            bad(what, "settings." + kv.first, "expected a string");
        rec.settings.emplace_back(kv.first, kv.second.str);
    }
    run_result& r = rec.result;
    r.sim_seconds = need_num(doc, "sim_seconds", what, "");
    r.wall_seconds = need_num(doc, "wall_seconds", what, "");
    r.sc_events = need_u64(doc, "sc_events", what, "");
    r.partial = need(doc, "partial", json_value::bool_v, what, "").b;
    const json_value& m = need(doc, "metrics", json_value::object_v, what, "");
    run_metrics& rm = r.metrics;
    rm.kvm_guest_exit = need_u64(m, "kvm_guest_exit", what, "metrics");
    rm.gsb_recv = need_u64(m, "gsb_recv", what, "metrics");
    rm.gsb_send = need_u64(m, "gsb_send", what, "metrics");
    rm.h_guest_run_vcpu = need_u64(m, "h_guest_run_vcpu", what, "metrics");
    rm.h_enter_nested = need_u64(m, "h_enter_nested", what, "metrics");
    rm.exits_by_reason = read_counts(m, "exits_by_reason", what);
    rm.arithoh_count = need_u64(m, "arithoh_count", what, "metrics");
    rm.latencies = read_latencies(m, what);
    rm.counters = read_counts(m, "counters", what);
    // Optional: records written before per-vCPU counters existed have none.
    if (const json_value* vs = m.find("vcpus")) {
        if (vs->kind != json_value::object_v) bad(what, "metrics.vcpus", "has the wrong type");
        for (const auto& v : vs->members) {
            const std::string next = std::to_string(rm.vcpu_counters.size());
            if (v.first != next) bad(what, "metrics.vcpus." + v.first, "expected vCPU " + next);
            rm.vcpu_counters.push_back(read_counts(*vs, v.first, what, "metrics.vcpus"));
        }
    }
    return rec;
}

std::string read_text_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path + ": cannot read: " + std::strerror(errno));
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void write_text_file(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
    out << text;
    out.flush();
    if (!out) throw std::runtime_error(path + ": write failed: " + std::strerror(errno));
}

std::string check_writable_file(const std::string& path) {
    if (path.empty()) return "empty path";
    struct stat st;
    if (::stat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) return "is a directory";
        if (::access(path.c_str(), W_OK) != 0) return std::strerror(errno);
        return {};
    }
    if (errno != ENOENT) return std::strerror(errno);
    const auto slash = path.find_last_of('/');
    const std::string dir =
        slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
    if (::stat(dir.c_str(), &st) != 0) return "directory '" + dir + "': " + std::strerror(errno);
    if (!S_ISDIR(st.st_mode)) return "'" + dir + "' is not a directory";
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
        return "directory '" + dir + "': " + std::strerror(errno);
    return {};
}

std::string ensure_directory(const std::string& path) {
    if (path.empty()) return "empty path";
    std::string cur;
    size_t pos = 0;
    while (pos != std::string::npos) {
        pos = path.find('/', pos + 1);
        cur = path.substr(0, pos);
        if (cur.empty()) continue;
        struct stat st;
        if (::stat(cur.c_str(), &st) == 0) {
            if (!S_ISDIR(st.st_mode)) return "'" + cur + "' is not a directory";
            continue;
        }
        if (::mkdir(cur.c_str(), 0777) != 0 && errno != EEXIST)
            return "cannot create '" + cur + "': " + std::strerror(errno);
    }
    if (::access(path.c_str(), W_OK | X_OK) != 0) return std::strerror(errno);
    return {};
}

bool check_command_outputs(const char* command, const char* file_flag, const std::string& file,
                           const std::string& plot_dir) {
    if (!file.empty()) {
        const std::string why = check_writable_file(file);
        if (!why.empty()) {
            std::fprintf(stderr, "nestvp %s: %s %s: cannot write: %s\n", command, file_flag,
                         file.c_str(), why.c_str());
            return false;
        }
    }
    if (!plot_dir.empty()) {
        const std::string why = ensure_directory(plot_dir);
        if (!why.empty()) {
            std::fprintf(stderr, "nestvp %s: --plot %s: %s\n", command, plot_dir.c_str(),
                         why.c_str());
            return false;
        }
    }
    return true;
}

}  // namespace nestvp
