// run_record JSON: writing in a fixed layout and reading it back (compare, merge).
#include "platforms/records/run_record.h"

#include <cstdio>
#include <stdexcept>

#include "platforms/records/build_stamp.h"

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

run_record new_run_record() {
    run_record r;
    r.tool_version = build_version();
    r.tool_commit = build_commit();
    return r;
}

std::string metric_unit(const std::string& path) {
    // Counters and latencies name their unit by suffix; everything else counts events.
    const auto ends = [&](const char* suf) {
        const std::string x = suf;
        return path.size() >= x.size() && path.compare(path.size() - x.size(), x.size(), x) == 0;
    };
    if (path.rfind("metrics.latencies", 0) == 0 || ends("_ns")) return "ns";
    if (ends("_seconds") || ends("_s")) return "s";
    return "count";
}

namespace {

json summary_json(const latency_summary& l) {
    json o = json::object();
    o["count"] = l.count;
    o["mean"] = json_num(l.mean);
    o["p50"] = json_num(l.p50);
    o["p90"] = json_num(l.p90);
    o["p99"] = json_num(l.p99);
    o["max"] = json_num(l.max);
    return o;
}

json by_reason_json(const std::map<std::string, latency_summary>& m) {
    json o = json::object();
    for (const auto& kv : m) o[kv.first] = summary_json(kv.second);
    return o;
}

// Every kind of latency_kinds() is written, a missing one as an empty report.
json latencies_json(const run_metrics& m) {
    json lat = json::object();
    for (const auto& kind : latency_kinds()) {
        const latency_report& r = latency_of(m, kind);
        json k = json::object();
        k["all"] = summary_json(r.all);
        k["by_reason"] = by_reason_json(r.by_reason);
        json vs = json::array();  // index: L2 vCPU
        for (const auto& v : r.by_vcpu) vs.push_back(by_reason_json(v));
        k["by_vcpu"] = vs;
        json bd = json::array();  // path order
        for (const auto& st : r.breakdown) {
            json e = json::object();
            e["step"] = st.step;
            e["mean_ns"] = json_num(st.mean_ns);
            bd.push_back(e);
        }
        k["breakdown"] = bd;
        json h = json::array();  // [bin centre ns, count], ascending
        for (const auto& b : r.histogram) h.push_back(json::array({json_num(b.first), b.second}));
        k["histogram"] = h;
        lat[kind] = k;
    }
    return lat;
}

json counts_json(const std::map<std::string, uint64_t>& m) {
    json o = json::object();
    for (const auto& kv : m) o[kv.first] = kv.second;
    return o;
}

// The unit of every metric the record carries, by its path under the top level.
json units_json(const run_metrics& m) {
    json u = json::object();
    for (const char* k : {"sim_seconds", "wall_seconds", "sc_events"}) u[k] = metric_unit(k);
    for (const char* k :
         {"kvm_guest_exit", "gsb_recv", "h_guest_get_state", "gsb_send", "h_guest_run_vcpu",
          "h_enter_nested", "exits_by_reason", "kvm_guest_exit_by_trap", "arithoh_count"})
        u[std::string("metrics.") + k] = "count";
    u["metrics.latencies"] = metric_unit("metrics.latencies");
    for (const auto& kv : m.counters)
        u["metrics.counters." + kv.first] = metric_unit("metrics.counters." + kv.first);
    u["metrics.vcpus"] = "count";
    return u;
}

[[noreturn]] void bad(const std::string& what, const std::string& key, const std::string& msg) {
    throw std::runtime_error(what + ": " + key + ": " + msg);
}

enum class kind_t { object, array, string, boolean, number };

bool is_kind(const json& v, kind_t k) {
    switch (k) {
        case kind_t::object:
            return v.is_object();
        case kind_t::array:
            return v.is_array();
        case kind_t::string:
            return v.is_string();
        case kind_t::boolean:
            return v.is_boolean();
        case kind_t::number:
            return v.is_number();
    }
    return false;
}

const json* find(const json& obj, const std::string& key) {
    if (!obj.is_object()) return nullptr;
    const auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
}

const json& need(const json& obj, const std::string& key, kind_t kind, const std::string& what,
                 const std::string& path) {
    const json* v = find(obj, key);
    const std::string full = path.empty() ? key : path + "." + key;
    if (!v) bad(what, full, "missing");
    if (!is_kind(*v, kind)) bad(what, full, "has the wrong type");
    return *v;
}

uint64_t need_u64(const json& obj, const std::string& key, const std::string& what,
                  const std::string& path) {
    const json& v = need(obj, key, kind_t::number, what, path);
    if (!v.is_number_unsigned())
        bad(what, path.empty() ? key : path + "." + key, "expected a non-negative integer");
    return v.get<uint64_t>();
}

double need_num(const json& obj, const std::string& key, const std::string& what,
                const std::string& path) {
    const json* v = find(obj, key);
    if (v && v->is_null()) return 0;  // non-finite values are written as null
    return need(obj, key, kind_t::number, what, path).get<double>();
}

latency_summary read_summary(const json& obj, const std::string& key, const std::string& what,
                             const std::string& path) {
    const json& o = need(obj, key, kind_t::object, what, path);
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

std::map<std::string, latency_summary> read_by_reason(const json& o, const std::string& what,
                                                      const std::string& path) {
    if (!o.is_object()) bad(what, path, "has the wrong type");
    std::map<std::string, latency_summary> out;
    for (const auto& kv : o.items()) out[kv.key()] = read_summary(o, kv.key(), what, path);
    return out;
}

// A number that may be written as null (non-finite), else an error naming the place.
double item_num(const json& v, const std::string& what, const std::string& path) {
    if (v.is_null()) return 0;
    if (!v.is_number()) bad(what, path, "expected a number");
    return v.get<double>();
}

latency_report read_report(const json& lat, const std::string& kind, const std::string& what) {
    const std::string p = "metrics.latencies." + kind;
    const json& o = need(lat, kind, kind_t::object, what, "metrics.latencies");
    latency_report r;
    r.all = read_summary(o, "all", what, p);
    r.by_reason =
        read_by_reason(need(o, "by_reason", kind_t::object, what, p), what, p + ".by_reason");
    const json& vs = need(o, "by_vcpu", kind_t::array, what, p);
    for (size_t i = 0; i < vs.size(); ++i)
        r.by_vcpu.push_back(read_by_reason(vs[i], what, p + ".by_vcpu[" + std::to_string(i) + "]"));
    const json& bd = need(o, "breakdown", kind_t::array, what, p);
    for (size_t i = 0; i < bd.size(); ++i) {
        const std::string ip = p + ".breakdown[" + std::to_string(i) + "]";
        if (!bd[i].is_object()) bad(what, ip, "expected an object");
        latency_step st;
        st.step = need(bd[i], "step", kind_t::string, what, ip).get<std::string>();
        st.mean_ns = need_num(bd[i], "mean_ns", what, ip);
        r.breakdown.push_back(st);
    }
    const json& h = need(o, "histogram", kind_t::array, what, p);
    for (size_t i = 0; i < h.size(); ++i) {
        const std::string ip = p + ".histogram[" + std::to_string(i) + "]";
        const json& b = h[i];
        if (!b.is_array() || b.size() != 2) bad(what, ip, "expected [bin centre ns, count]");
        const double centre = item_num(b[0], what, ip + "[0]");
        if (!b[1].is_number_unsigned()) bad(what, ip + "[1]", "expected a non-negative integer");
        if (!r.histogram.empty() && !(centre > r.histogram.back().first))
            bad(what, ip, "bin centres must ascend");
        r.histogram.emplace_back(centre, b[1].get<uint64_t>());
    }
    return r;
}

std::map<std::string, latency_report> read_latencies(const json& m, const std::string& what) {
    const json& lat = need(m, "latencies", kind_t::object, what, "metrics");
    std::map<std::string, latency_report> out;
    for (const auto& kind : latency_kinds()) out[kind] = read_report(lat, kind, what);
    for (const auto& kv : lat.items())
        if (!out.count(kv.key())) bad(what, "metrics.latencies." + kv.key(), "unknown latency");
    return out;
}

std::map<std::string, uint64_t> read_counts(const json& m, const std::string& key,
                                            const std::string& what,
                                            const std::string& path = "metrics") {
    const json& o = need(m, key, kind_t::object, what, path);
    std::map<std::string, uint64_t> out;
    for (const auto& kv : o.items()) out[kv.key()] = need_u64(o, kv.key(), what, path + "." + key);
    return out;
}

std::string opt_string(const json& obj, const std::string& key, const std::string& what,
                       const std::string& path) {
    return find(obj, key) ? need(obj, key, kind_t::string, what, path).get<std::string>() : "";
}

}  // namespace

json run_record_doc(const run_record& rec) {
    const run_result& r = rec.result;
    const run_metrics& m = r.metrics;
    json d = json::object();
    d["schema_version"] = rec.schema_version;
    d["tool"] = json::object(
        {{"name", "nestvp"}, {"version", rec.tool_version}, {"commit", rec.tool_commit}});
    d["platform"] = rec.platform;
    d["platform_file"] =
        json::object({{"path", rec.platform_file}, {"sha256", rec.platform_sha256}});
    d["seed"] = rec.seed;
    json s = json::object();
    for (const auto& kv : rec.settings) s[kv.first] = kv.second;
    d["settings"] = s;
    d["config"] = rec.config.is_null() ? json::object() : rec.config;
    if (!rec.provenance.is_null()) d["provenance"] = rec.provenance;
    d["sim_seconds"] = json_num(r.sim_seconds);
    d["wall_seconds"] = json_num(r.wall_seconds);
    d["sc_events"] = r.sc_events;
    d["partial"] = r.partial;
    d["units"] = units_json(m);
    json mj = json::object();
    mj["kvm_guest_exit"] = m.kvm_guest_exit;
    mj["gsb_recv"] = m.gsb_recv;
    mj["h_guest_get_state"] = m.h_guest_get_state;
    mj["gsb_send"] = m.gsb_send;
    mj["h_guest_run_vcpu"] = m.h_guest_run_vcpu;
    mj["h_enter_nested"] = m.h_enter_nested;
    mj["exits_by_reason"] = counts_json(m.exits_by_reason);
    mj["kvm_guest_exit_by_trap"] = counts_json(m.kvm_guest_exit_by_trap);
    mj["arithoh_count"] = m.arithoh_count;
    mj["latencies"] = latencies_json(m);
    mj["counters"] = counts_json(m.counters);
    json vs = json::object();  // keyed by L2 vCPU number
    for (size_t v = 0; v < m.vcpu_counters.size(); ++v)
        vs[std::to_string(v)] = counts_json(m.vcpu_counters[v]);
    mj["vcpus"] = vs;
    d["metrics"] = mj;
    return d;
}

std::string run_record_json(const run_record& rec) {
    return json_text(run_record_doc(rec));
}

run_record parse_run_record(const std::string& text, const std::string& what) {
    const json doc = parse_json(text, what);
    if (!doc.is_object()) bad(what, "(top level)", "expected an object");
    run_record rec;
    // Optional: records written before schema 2 carry none of these.
    rec.schema_version = find(doc, "schema_version")
                             ? static_cast<unsigned>(need_u64(doc, "schema_version", what, ""))
                             : 1;
    if (const json* t = find(doc, "tool")) {
        if (!t->is_object()) bad(what, "tool", "has the wrong type");
        rec.tool_version = opt_string(*t, "version", what, "tool");
        rec.tool_commit = opt_string(*t, "commit", what, "tool");
    }
    rec.platform = need(doc, "platform", kind_t::string, what, "").get<std::string>();
    if (const json* f = find(doc, "platform_file")) {
        if (!f->is_object()) bad(what, "platform_file", "has the wrong type");
        rec.platform_file = opt_string(*f, "path", what, "platform_file");
        rec.platform_sha256 = opt_string(*f, "sha256", what, "platform_file");
    }
    if (find(doc, "seed")) rec.seed = need_u64(doc, "seed", what, "");
    const json& s = need(doc, "settings", kind_t::object, what, "");
    for (const auto& kv : s.items()) {
        if (!kv.value().is_string()) bad(what, "settings." + kv.key(), "expected a string");
        rec.settings.emplace_back(kv.key(), kv.value().get<std::string>());
    }
    if (const json* c = find(doc, "config")) {
        if (!c->is_object()) bad(what, "config", "has the wrong type");
        rec.config = *c;
    }
    if (const json* p = find(doc, "provenance")) {
        if (!p->is_object()) bad(what, "provenance", "has the wrong type");
        rec.provenance = *p;
    }
    run_result& r = rec.result;
    r.sim_seconds = need_num(doc, "sim_seconds", what, "");
    r.wall_seconds = need_num(doc, "wall_seconds", what, "");
    r.sc_events = need_u64(doc, "sc_events", what, "");
    r.partial = need(doc, "partial", kind_t::boolean, what, "").get<bool>();
    const json& m = need(doc, "metrics", kind_t::object, what, "");
    run_metrics& rm = r.metrics;
    rm.kvm_guest_exit = need_u64(m, "kvm_guest_exit", what, "metrics");
    rm.gsb_recv = need_u64(m, "gsb_recv", what, "metrics");
    rm.h_guest_get_state = need_u64(m, "h_guest_get_state", what, "metrics");
    rm.gsb_send = need_u64(m, "gsb_send", what, "metrics");
    rm.h_guest_run_vcpu = need_u64(m, "h_guest_run_vcpu", what, "metrics");
    rm.h_enter_nested = need_u64(m, "h_enter_nested", what, "metrics");
    rm.exits_by_reason = read_counts(m, "exits_by_reason", what);
    // Optional: records written before it existed have none.
    if (find(m, "kvm_guest_exit_by_trap"))
        rm.kvm_guest_exit_by_trap = read_counts(m, "kvm_guest_exit_by_trap", what);
    rm.arithoh_count = need_u64(m, "arithoh_count", what, "metrics");
    rm.latencies = read_latencies(m, what);
    rm.counters = read_counts(m, "counters", what);
    // Optional: records written before per-vCPU counters existed have none.
    if (const json* vs = find(m, "vcpus")) {
        if (!vs->is_object()) bad(what, "metrics.vcpus", "has the wrong type");
        for (const auto& v : vs->items()) {
            const std::string next = std::to_string(rm.vcpu_counters.size());
            if (v.key() != next) bad(what, "metrics.vcpus." + v.key(), "expected vCPU " + next);
            rm.vcpu_counters.push_back(read_counts(*vs, v.key(), what, "metrics.vcpus"));
        }
    }
    return rec;
}

}  // namespace nestvp
