// Merged configuration <-> JSON through param_schema's get and set.
#include "platforms/records/config_json.h"

#include <stdexcept>

#include "platforms/config/param_schema.h"

namespace nestvp {

namespace {

json value_json(const param_def& d, const param_value& v) {
    switch (d.type) {
        case param_type::uint:
        case param_type::hz:
            return v.u;
        case param_type::real:
            return json_num(v.d);
        case param_type::boolean:
            return v.b;
        case param_type::string:
        case param_type::choice:
            return v.s;
        case param_type::real_list: {
            json a = json::array();
            for (double x : v.list) a.push_back(json_num(x));
            return a;
        }
        case param_type::cost: {
            json c = json::object();
            c["cycles"] = json_num(v.d);  // a whole figure stays an integer
            c["source"] = v.s;
            if (v.list.size() == 2)  // an assumed figure's plausible range
                c["range"] = json::array({json_num(v.list[0]), json_num(v.list[1])});
            return c;
        }
    }
    return nullptr;
}

param_value value_of(const param_def& d, const json& j, const std::string& what) {
    const auto bad = [&](const char* expected) {
        throw std::runtime_error(what + ": config." + d.path + ": expected " + expected);
    };
    param_value v;
    switch (d.type) {
        case param_type::uint:
        case param_type::hz:
            if (!j.is_number_unsigned()) bad("a non-negative integer");
            v.u = j.get<uint64_t>();
            break;
        case param_type::real:
            if (!j.is_number()) bad("a number");
            v.d = j.get<double>();
            break;
        case param_type::boolean:
            if (!j.is_boolean()) bad("true or false");
            v.b = j.get<bool>();
            break;
        case param_type::string:
        case param_type::choice:
            if (!j.is_string()) bad("a string");
            v.s = j.get<std::string>();
            break;
        case param_type::real_list:
            if (!j.is_array()) bad("a list of numbers");
            for (const auto& x : j) {
                if (!x.is_number()) bad("a list of numbers");
                v.list.push_back(x.get<double>());
            }
            break;
        case param_type::cost: {
            if (!j.is_object() || !j.contains("cycles") || !j["cycles"].is_number() ||
                !(j["cycles"].get<double>() >= 0) || !j.contains("source") ||
                !j["source"].is_string())
                bad("{\"cycles\": N >= 0, \"source\": \"...\"}");
            v.d = j["cycles"].get<double>();
            v.s = j["source"].get<std::string>();
            if (j.contains("range")) {
                const json& r = j["range"];
                if (!r.is_array() || r.size() != 2 || !r[0].is_number() || !r[1].is_number())
                    bad("a range [lo, hi]");
                v.list = {r[0].get<double>(), r[1].get<double>()};
            }
            break;
        }
    }
    return v;
}

}  // namespace

json config_json(const platform_config& cfg) {
    json out = json::object();
    for (const auto& d : param_schema()) out[d.path] = value_json(d, d.get(cfg));
    return out;
}

json provenance_json(const platform_config& cfg) {
    json out = json::object();
    for (const auto& d : param_schema()) {
        const value_provenance p = provenance_of(cfg, d);
        json e = json::object();
        e["kind"] = p.kind;
        e["source"] = p.source;
        if (p.range.size() == 2)
            e["range"] = json::array({json_num(p.range[0]), json_num(p.range[1])});
        if (!p.calibrated_on.empty()) {  // the published figure it was set from
            json f = json::object();
            f["metric"] = p.calibrated_on.metric;
            f["policy"] = p.calibrated_on.policy;
            e["calibrated_on"] = f;
        }
        out[d.path] = e;
    }
    return out;
}

void provenance_from_json(const json& prov, platform_config& cfg, const std::string& what) {
    if (!prov.is_object()) throw std::runtime_error(what + ": provenance: expected an object");
    for (const auto& [key, e] : prov.items()) {
        const param_def* d = find_param(key);
        if (!d) throw std::runtime_error(what + ": provenance." + key + ": unknown key");
        if (!e.is_object() || !e.contains("kind") || !e["kind"].is_string() ||
            !e.contains("source") || !e["source"].is_string())
            throw std::runtime_error(what + ": provenance." + key +
                                     ": expected {\"kind\": ..., \"source\": ...}");
        value_provenance p{e["kind"].get<std::string>(), e["source"].get<std::string>(), {}, {}};
        if (e.contains("range")) {
            const json& r = e["range"];
            if (!r.is_array() || r.size() != 2 || !r[0].is_number() || !r[1].is_number())
                throw std::runtime_error(what + ": provenance." + key +
                                         ".range: expected [lo, hi]");
            p.range = {r[0].get<double>(), r[1].get<double>()};
        }
        if (e.contains("calibrated_on")) {
            const json& f = e["calibrated_on"];
            if (!f.is_object() || !f.contains("metric") || !f["metric"].is_string() ||
                !f.contains("policy") || !f["policy"].is_string())
                throw std::runtime_error(what + ": provenance." + key +
                                         ".calibrated_on: expected {\"metric\", \"policy\"}");
            p.calibrated_on = {f["metric"].get<std::string>(), f["policy"].get<std::string>()};
        }
        // What would be inferred again is not kept: a default, a cost's kind from its source.
        if (p.kind == "default") continue;
        if (d->type == param_type::cost) {
            cfg.provenance.erase(key);
            if (provenance_of(cfg, *d).kind == p.kind && p.calibrated_on.empty()) continue;
        }
        cfg.provenance[key] = p;
    }
}

platform_config config_from_json(const json& config, const std::string& what) {
    if (!config.is_object()) throw std::runtime_error(what + ": config: expected an object");
    platform_config cfg = default_platform();
    for (const auto& [key, val] : config.items()) {
        const param_def* d = find_param(key);
        if (!d) throw std::runtime_error(what + ": config." + key + ": unknown key");
        d->set(cfg, value_of(*d, val, what));
    }
    return cfg;
}

}  // namespace nestvp
