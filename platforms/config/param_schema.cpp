#include "platforms/config/param_schema.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "models/timer_unit_factory.h"
#include "platforms/config/cost_catalog.h"
#include "sw/l0/run_output_policy.h"
#include "sw/l1/dec_policy.h"

namespace nestvp {

namespace {

// One builder per field type keeps the table below readable. Each takes an accessor that
// returns a reference to the field; `get` only reads through it (hence the const_cast).
param_def make_def(std::string path, param_type type, std::string unit, double min = 0.0,
                   double max = 0.0, bool min_open = false) {
    param_def d;
    d.path = std::move(path);
    d.type = type;
    d.unit = std::move(unit);
    d.min = min;
    d.max = max;
    d.min_open = min_open;
    return d;
}
param_def uint_key(std::string path, double min, double max, std::string unit, std::string desc,
                   std::function<unsigned&(platform_config&)> field) {
    param_def d = make_def(std::move(path), param_type::uint, std::move(unit), min, max);
    d.description = std::move(desc);
    d.set = [field](platform_config& c, const param_value& v) {
        field(c) = static_cast<unsigned>(v.u);
    };
    d.get = [field](const platform_config& c) {
        param_value v;
        v.u = field(const_cast<platform_config&>(c));
        return v;
    };
    return d;
}

param_def u64_key(std::string path, param_type type, double min, double max, std::string unit,
                  std::string desc, std::function<uint64_t&(platform_config&)> field) {
    param_def d = make_def(std::move(path), type, std::move(unit), min, max);
    d.description = std::move(desc);
    d.set = [field](platform_config& c, const param_value& v) { field(c) = v.u; };
    d.get = [field](const platform_config& c) {
        param_value v;
        v.u = field(const_cast<platform_config&>(c));
        return v;
    };
    return d;
}

param_def real_key(std::string path, double min, double max, bool min_open, std::string unit,
                   std::string desc, std::function<double&(platform_config&)> field) {
    param_def d = make_def(std::move(path), param_type::real, std::move(unit), min, max, min_open);
    d.description = std::move(desc);
    d.set = [field](platform_config& c, const param_value& v) { field(c) = v.d; };
    d.get = [field](const platform_config& c) {
        param_value v;
        v.d = field(const_cast<platform_config&>(c));
        return v;
    };
    return d;
}

param_def bool_key(std::string path, std::string desc,
                   std::function<bool&(platform_config&)> field) {
    param_def d = make_def(std::move(path), param_type::boolean, "");
    d.description = std::move(desc);
    d.set = [field](platform_config& c, const param_value& v) { field(c) = v.b; };
    d.get = [field](const platform_config& c) {
        param_value v;
        v.b = field(const_cast<platform_config&>(c));
        return v;
    };
    return d;
}

param_def string_key(std::string path, std::vector<std::string> choices, std::string desc,
                     std::function<std::string&(platform_config&)> field) {
    param_def d =
        make_def(std::move(path), choices.empty() ? param_type::string : param_type::choice, "");
    d.choices = std::move(choices);
    d.description = std::move(desc);
    d.set = [field](platform_config& c, const param_value& v) { field(c) = v.s; };
    d.get = [field](const platform_config& c) {
        param_value v;
        v.s = field(const_cast<platform_config&>(c));
        return v;
    };
    return d;
}

cost_table& costs_of(platform_config& c, const std::string& level) {
    if (level == "l0") return c.l0.costs;
    if (level == "l1") return c.l1.costs;
    if (level == "l2") return c.l2.costs;
    return c.workload.costs;
}

param_def cost_key(const cost_def& cd) {
    param_def d = make_def(cd.level + ".costs." + cd.name, param_type::cost, "cycles", 0.0, 1e9);
    d.description = cd.description;
    const std::string level = cd.level, name = cd.name;
    d.set = [level, name](platform_config& c, const param_value& v) {
        cost_range r;
        if (v.list.size() == 2)
            r = cost_range{static_cast<uint64_t>(v.list[0]), static_cast<uint64_t>(v.list[1])};
        costs_of(c, level)[name] = cost_param{v.u, v.s, r};
    };
    d.get = [level, name](const platform_config& c) {
        param_value v;
        const cost_table& t = costs_of(const_cast<platform_config&>(c), level);
        auto it = t.find(name);
        if (it != t.end()) {
            v.u = it->second.cycles;
            v.s = it->second.source;
            if (!it->second.range.empty())
                v.list = {static_cast<double>(it->second.range.lo),
                          static_cast<double>(it->second.range.hi)};
        }
        return v;
    };
    return d;
}

void add_costs(std::vector<param_def>& t, const std::string& level) {
    for (const auto& cd : cost_catalog())
        if (cd.level == level) t.push_back(cost_key(cd));
}

std::vector<param_def> build_schema() {
    using pc = platform_config;
    std::vector<param_def> t;
    t.push_back(string_key("name", {}, "platform name shown in reports (default: the file's stem)",
                           [](pc& c) -> std::string& { return c.name; }));
    // machine: field-anchors.md §1.2 (QBox style: the file is the machine's netlist).
    t.push_back(u64_key("machine.tb.freq_hz", param_type::hz, 1, 1e10, "Hz",
                        "time base frequency (timer-facilities.md §1: 512 MHz on POWER8-10)",
                        [](pc& c) -> uint64_t& { return c.machine.tb_freq_hz; }));
    t.push_back(u64_key("machine.core.clock_hz", param_type::hz, 1, 1e11, "Hz",
                        "core clock; costs in cycles become time at this rate",
                        [](pc& c) -> uint64_t& { return c.machine.core_clock_hz; }));
    t.push_back(uint_key("machine.core.threads", 1, 8, "", "hardware threads per core (SMT mode)",
                         [](pc& c) -> unsigned& { return c.machine.threads_per_core; }));
    {
        param_def d = make_def("machine.core.smt_speed", param_type::real_list, "", 0.0, 1.0, true);
        d.description =
            "speed of one active thread when k threads of its core are active, k = 1..threads; "
            "length = threads, non-increasing";
        d.set = [](pc& c, const param_value& v) { c.machine.smt_speed = v.list; };
        d.get = [](const pc& c) {
            param_value v;
            v.list = c.machine.smt_speed;
            return v;
        };
        t.push_back(d);
    }
    t.push_back(string_key("machine.core.smt_source", {}, "where the smt_speed figures come from",
                           [](pc& c) -> std::string& { return c.machine.smt_source; }));
    t.push_back(real_key("machine.core.smt_low_priority_share", 0, 1, true, "",
                         "share of a thread that a sibling at low SMT priority (HMT_low: a "
                         "snoozing guest) takes, and its speed relative to a normal thread",
                         [](pc& c) -> double& { return c.machine.smt_low_priority_share; }));
    t.push_back(uint_key("machine.cores", 0, 1024, "",
                         "cores; 0 = as many as the hardware threads need",
                         [](pc& c) -> unsigned& { return c.machine.cores; }));
    t.push_back(string_key("machine.placement", {"pack", "spread"},
                           "L1 vCPU threads on cores: pack fills a core first, spread puts one "
                           "thread per core first",
                           [](pc& c) -> std::string& { return c.machine.placement; }));
    t.push_back(string_key("machine.timer.impl", timer_impls(),
                           "decrementer implementation: TLM model, Verilated RTL, or both compared",
                           [](pc& c) -> std::string& { return c.machine.timer_impl; }));
    t.push_back(uint_key("machine.timer.dec_bits", 32, 64, "bits",
                         "implemented large-decrementer width (timer-facilities.md §2.1)",
                         [](pc& c) -> unsigned& { return c.machine.dec_bits; }));
    t.push_back(bool_key("machine.timer.large_dec", "LPCR[LD] for the partitions",
                         [](pc& c) -> bool& { return c.machine.large_dec; }));
    t.push_back(real_key("machine.memory.latency_ns", 0, 1e6, false, "ns",
                         "L1 memory latency per 128-byte line an access touches (GSB traffic "
                         "through TLM costs what it moves)",
                         [](pc& c) -> double& { return c.machine.memory_latency_ns; }));
    t.push_back(string_key("machine.memory.latency_source", {},
                           "where machine.memory.latency_ns comes from (a source, or "
                           "\"assumption:\" with a reason and range)",
                           [](pc& c) -> std::string& { return c.machine.memory_latency_source; }));
    // L0 firmware
    t.push_back(string_key("l0.api", {"v1", "v2"},
                           "nested API: v1 H_ENTER_NESTED, v2 H_GUEST_* (nested-virtualization.md)",
                           [](pc& c) -> std::string& { return c.l0.api; }));
    t.push_back(string_key("l0.run_output", run_output_policy_names(),
                           "what H_GUEST_RUN_VCPU returns in the run output buffer",
                           [](pc& c) -> std::string& { return c.l0.run_output; }));
    add_costs(t, "l0");
    // L1 KVM host
    t.push_back(string_key("l1.dec_policy", dec_policy_names(),
                           "queued-DEC handling after an L2 exit (cancel: 7be6ce7043b4, "
                           "no-cancel: 180c6b072bf3, cancel-poll: cancel with halt polling)",
                           [](pc& c) -> std::string& { return c.l1.dec_policy; }));
    t.push_back(uint_key("l1.hz", 1, 10000, "Hz", "L1 periodic tick; bounds each L2 run via HDEC",
                         [](pc& c) -> unsigned& { return c.l1.hz; }));
    t.push_back(
        bool_key("l1.trace_guest_exit",
                 "the kvm_hv:kvm_guest_exit tracepoint is enabled: after each exit it reads "
                 "the L2 PC (trace_hv.h; a NIA reload in nestedv2, §2.5)",
                 [](pc& c) -> bool& { return c.l1.trace_guest_exit; }));
    t.push_back(real_key("l1.halt_poll_ns", 0, 1e9, false, "ns",
                         "with l1.dec_policy=cancel-poll: how long a ceded vCPU polls before it "
                         "blocks (KVM's halt_poll_ns, virt/kvm/kvm_main.c; the default is x86's "
                         "KVM_HALT_POLL_NS_DEFAULT, 200 us)",
                         [](pc& c) -> double& { return c.l1.halt_poll_ns; }));
    add_costs(t, "l1");
    // L2 guest
    t.push_back(uint_key("l2.vcpus", 1, 1024, "", "L2 vCPUs, one L1 run loop and thread each",
                         [](pc& c) -> unsigned& { return c.l2.vcpus; }));
    t.push_back(uint_key("l2.hz", 1, 10000, "Hz", "L2 periodic tick while busy",
                         [](pc& c) -> unsigned& { return c.l2.hz; }));
    t.push_back(bool_key("l2.nohz_idle", "idle vCPUs program only the next timer event (NO_HZ)",
                         [](pc& c) -> bool& { return c.l2.nohz_idle; }));
    t.push_back(bool_key("l2.dtl",
                         "L2 registered a dispatch trace log: each entry reads NIA "
                         "(kvmppc_update_vpa_dispatch_p9, nested-virtualization.md §2.5)",
                         [](pc& c) -> bool& { return c.l2.dtl; }));
    t.push_back(real_key("l2.housekeeping_hz", 0, 10000, false, "Hz",
                         "housekeeping timer events per second on an idle vCPU",
                         [](pc& c) -> double& { return c.l2.housekeeping_hz; }));
    t.push_back(bool_key("l2.snooze",
                         "the pseries idle loop may snooze (spin at low SMT priority, no exit) "
                         "before Shared Cede (cpuidle-pseries.c); false: every idle period cedes",
                         [](pc& c) -> bool& { return c.l2.snooze; }));
    t.push_back(real_key("l2.cede_target_residency_us", 0, 1e6, true, "us",
                         "Shared Cede target residency; also the snooze timeout "
                         "(cpuidle-pseries.c shared_states: 100 us)",
                         [](pc& c) -> double& { return c.l2.cede_target_residency_us; }));
    t.push_back(real_key("l2.cede_exit_latency_us", 0, 1e6, false, "us",
                         "Shared Cede exit latency, the governor's latency bound "
                         "(cpuidle-pseries.c shared_states: 10 us)",
                         [](pc& c) -> double& { return c.l2.cede_exit_latency_us; }));
    t.push_back(real_key("l2.devices.mmio_hz", 0, 1e6, false, "Hz",
                         "stores to emulated MMIO per second (device work, e.g. virtio notifies); "
                         "each is an HDSI exit whose source GPR L1 reloads (§4 of "
                         "l2-idle-and-get-state-paths.md)",
                         [](pc& c) -> double& { return c.l2.devices_mmio_hz; }));
    t.push_back(uint_key("l2.devices.irq_vcpu", 0, 1023, "",
                         "the vCPU that does the device work (its interrupts' target) and sends "
                         "the IPIs",
                         [](pc& c) -> unsigned& { return c.l2.devices_irq_vcpu; }));
    t.push_back(real_key("l2.devices.ipi_hz", 0, 1e6, false, "Hz",
                         "IPIs per second from l2.devices.irq_vcpu to the other vCPUs in turn "
                         "(H_IPI exits; the target wakes or exits with 0xEA0); >0 turns "
                         "run.run_ahead off (docs/ipi.md)",
                         [](pc& c) -> double& { return c.l2.devices_ipi_hz; }));
    add_costs(t, "l2");
    // Workloads
    t.push_back(uint_key("workload.arithoh_copies", 0, 1024, "",
                         "arithoh copies on vCPUs 0..copies-1 (at most l2.vcpus); the rest idle",
                         [](pc& c) -> unsigned& { return c.workload.arithoh_copies; }));
    add_costs(t, "workload");
    // Run
    t.push_back(real_key("run.duration_s", 0, 1e6, true, "s", "simulated time to run",
                         [](pc& c) -> double& { return c.run.duration_s; }));
    t.push_back(u64_key("run.seed", param_type::uint, 0, 0, "", "random seed",
                        [](pc& c) -> uint64_t& { return c.run.seed; }));
    t.push_back(bool_key("run.run_ahead",
                         "exact run-ahead: work that ends before anything can act on its core "
                         "is retired without a SystemC wait (docs/local-time.md)",
                         [](pc& c) -> bool& { return c.run.run_ahead; }));
    t.push_back(string_key("run.outputs.json", {}, "JSON result file; \"\" for none",
                           [](pc& c) -> std::string& { return c.run.json_path; }));
    t.push_back(string_key("run.outputs.csv", {}, "CSV result file; \"\" for none",
                           [](pc& c) -> std::string& { return c.run.csv_path; }));
    t.push_back(string_key("run.outputs.trace", {}, "VCD trace file; \"\" for none (costs nothing)",
                           [](pc& c) -> std::string& { return c.run.trace_path; }));
    t.push_back(string_key("run.outputs.plot", {}, "folder for SVG plots; \"\" for none",
                           [](pc& c) -> std::string& { return c.run.plot_dir; }));
    t.push_back(real_key("run.trace_window.start_s", 0, 1e6, false, "s",
                         "trace from this simulated time",
                         [](pc& c) -> double& { return c.run.trace_start_s; }));
    t.push_back(real_key("run.trace_window.end_s", -1e6, 1e6, false, "s",
                         "trace up to this simulated time; negative = to the end",
                         [](pc& c) -> double& { return c.run.trace_end_s; }));
    return t;
}

size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
            diag = up;
        }
    }
    return row[b.size()];
}

std::string last_segment(const std::string& p) {
    auto dot = p.rfind('.');
    return dot == std::string::npos ? p : p.substr(dot + 1);
}

std::string number_text(double v) {
    if (std::fabs(v) < 1e7 && v == std::floor(v)) return std::to_string(static_cast<long long>(v));
    return format_real(v);
}

}  // namespace

const std::vector<param_def>& param_schema() {
    static const std::vector<param_def> schema = build_schema();
    return schema;
}

const param_def* find_param(const std::string& path) {
    for (const auto& d : param_schema())
        if (d.path == path) return &d;
    return nullptr;
}

std::string nearest_param(const std::string& path, const std::vector<std::string>& candidates) {
    std::string best;
    size_t best_d = static_cast<size_t>(-1);
    for (const auto& c : candidates) {
        size_t d =
            std::min(edit_distance(path, c), edit_distance(last_segment(path), last_segment(c)));
        if (d < best_d) best_d = d, best = c;
    }
    const size_t limit = std::max<size_t>(1, last_segment(path).size() / 3);
    return best_d <= limit ? best : std::string();
}

bool is_stated_kind(const std::string& kind) {
    return kind == "sourced" || kind == "assumed" || kind == "calibrated";
}

namespace {
std::string cost_kind_from_source(const std::string& s) {
    const auto starts = [&s](const char* p) { return s.rfind(p, 0) == 0; };
    return starts("assumption")   ? "assumed"
           : starts("calibrated") ? "calibrated"
           : starts("--set")      ? "set"
                                  : "sourced";
}
}  // namespace

value_provenance provenance_of(const platform_config& cfg, const param_def& def) {
    const auto it = cfg.provenance.find(def.path);
    if (it != cfg.provenance.end()) return it->second;
    if (def.type == param_type::cost) {
        const param_value v = def.get(cfg);
        return {cost_kind_from_source(v.s), v.s, v.list};
    }
    return {"default", "the schema's default", {}};
}

platform_config default_platform() {
    platform_config c;
    c.l0.costs = default_costs("l0");
    c.l1.costs = default_costs("l1");
    c.l2.costs = default_costs("l2");
    c.workload.costs = default_costs("workload");
    return c;
}

std::string type_name(param_type t) {
    switch (t) {
        case param_type::uint:
            return "integer";
        case param_type::hz:
            return "frequency";
        case param_type::real:
            return "number";
        case param_type::boolean:
            return "boolean";
        case param_type::string:
            return "string";
        case param_type::choice:
            return "enum";
        case param_type::real_list:
            return "list";
        case param_type::cost:
            return "cost";
    }
    return "?";
}

std::string range_text(const param_def& d) {
    switch (d.type) {
        case param_type::choice: {
            std::string s;
            for (const auto& c : d.choices) s += (s.empty() ? "" : "|") + c;
            return s;
        }
        case param_type::uint:
        case param_type::hz:
        case param_type::cost:
            if (d.min == 0 && d.max == 0) return "";
            return number_text(d.min) + ".." + number_text(d.max);
        case param_type::real:
        case param_type::real_list:
            return (d.min_open ? "(" : "[") + number_text(d.min) + ", " + number_text(d.max) + "]";
        default:
            return "";
    }
}

std::string expectation(const param_def& d) {
    const std::string r = range_text(d);
    switch (d.type) {
        case param_type::uint:
            return r.empty() ? "an unsigned integer" : "an integer in " + r;
        case param_type::hz:
            return "a frequency in Hz, an integer in " + r;
        case param_type::real:
            return "a number in " + r;
        case param_type::boolean:
            return "true or false";
        case param_type::string:
            return "a string";
        case param_type::choice:
            return "one of " + r;
        case param_type::real_list:
            return "a list of numbers in " + r;
        case param_type::cost:
            return "{cycles: an integer in " + r +
                   ", source: a non-empty string, optional range: [lo, hi] around cycles}";
    }
    return "?";
}

std::string format_real(double v) {
    if (std::isnan(v)) return ".nan";
    if (std::isinf(v)) return v > 0 ? ".inf" : "-.inf";
    char buf[40];
    for (int p = 1; p <= 17; ++p) {
        std::snprintf(buf, sizeof buf, "%.*g", p, v);
        if (std::strtod(buf, nullptr) == v) break;
    }
    // Prefer plain decimals ("10", not "1e+01") for values people write that way.
    if (std::strchr(buf, 'e') && std::fabs(v) >= 1e-4 && std::fabs(v) < 1e15) {
        char fixed[64];
        for (int p = 0; p <= 20; ++p) {
            std::snprintf(fixed, sizeof fixed, "%.*f", p, v);
            if (std::strtod(fixed, nullptr) == v) return fixed;
        }
    }
    return buf;
}

// A YAML double-quoted scalar, escaped by yaml-cpp's emitter.
std::string yaml_quote(const std::string& s) {
    YAML::Emitter out;
    out << YAML::DoubleQuoted << s;
    return out.c_str();
}

std::string format_value(const param_def& d, const param_value& v) {
    switch (d.type) {
        case param_type::uint:
        case param_type::hz:
            return std::to_string(v.u);
        case param_type::real:
            return format_real(v.d);
        case param_type::boolean:
            return v.b ? "true" : "false";
        case param_type::string:
            return yaml_quote(v.s);
        case param_type::choice:
            return v.s;
        case param_type::real_list: {
            std::string s = "[";
            for (size_t i = 0; i < v.list.size(); ++i)
                s += (i ? ", " : "") + format_real(v.list[i]);
            return s + "]";
        }
        case param_type::cost:
            return "{cycles: " + std::to_string(v.u) + ", source: " + yaml_quote(v.s) +
                   (v.list.size() == 2 ? ", range: [" + std::to_string(uint64_t(v.list[0])) + ", " +
                                             std::to_string(uint64_t(v.list[1])) + "]"
                                       : std::string()) +
                   "}";
    }
    return "";
}

std::string format_stated(const param_def& d, const param_value& v, const value_provenance& p) {
    if (!is_stated_kind(p.kind)) return format_value(d, v);
    if (d.type == param_type::cost) {
        if (p.kind == cost_kind_from_source(v.s)) return format_value(d, v);
        std::string s = format_value(d, v);
        s.pop_back();  // '}'
        return s + ", kind: " + p.kind + "}";
    }
    std::string s =
        "{value: " + format_value(d, v) + ", kind: " + p.kind + ", source: " + yaml_quote(p.source);
    if (p.range.size() == 2)
        s += ", range: [" + format_real(p.range[0]) + ", " + format_real(p.range[1]) + "]";
    return s + "}";
}

void print_params_table(std::ostream& out, const std::string& prefix,
                        const platform_config* values) {
    const platform_config def = values ? *values : default_platform();
    char line[512];
    if (values)
        std::snprintf(line, sizeof line, "%-34s %-9s %-22s %-11s %-6s %-32s %s\n", "KEY", "TYPE",
                      "VALUE", "KIND", "UNIT", "RANGE", "DESCRIPTION");
    else
        std::snprintf(line, sizeof line, "%-34s %-9s %-22s %-6s %-32s %s\n", "KEY", "TYPE",
                      "DEFAULT", "UNIT", "RANGE", "DESCRIPTION");
    out << line;
    for (const auto& d : param_schema()) {
        if (!prefix.empty() && d.path.compare(0, prefix.size(), prefix) != 0) continue;
        const param_value v = d.get(def);
        std::string shown = d.type == param_type::cost ? std::to_string(v.u) : format_value(d, v);
        std::string desc = d.description;
        if (d.type == param_type::cost) desc += " [source: " + v.s + "]";
        if (values) {
            const value_provenance p = provenance_of(def, d);
            if (is_stated_kind(p.kind) && d.type != param_type::cost) {
                desc += " [" + p.kind + ": " + p.source;
                if (p.range.size() == 2)
                    desc += "; range " + format_real(p.range[0]) + "-" + format_real(p.range[1]);
                desc += "]";
            }
            std::snprintf(line, sizeof line, "%-34s %-9s %-22s %-11s %-6s %-32s ", d.path.c_str(),
                          type_name(d.type).c_str(), shown.c_str(), p.kind.c_str(), d.unit.c_str(),
                          range_text(d).c_str());
        } else {
            std::snprintf(line, sizeof line, "%-34s %-9s %-22s %-6s %-32s ", d.path.c_str(),
                          type_name(d.type).c_str(), shown.c_str(), d.unit.c_str(),
                          range_text(d).c_str());
        }
        out << line << desc << "\n";
    }
}

void print_params_markdown(std::ostream& out, const std::string& prefix,
                           const platform_config* values) {
    const platform_config def = values ? *values : default_platform();
    out << "| key | type | " << (values ? "value | kind" : "default")
        << " | unit | range | description |\n";
    out << (values ? "|---|---|---|---|---|---|---|\n" : "|---|---|---|---|---|---|\n");
    for (const auto& d : param_schema()) {
        if (!prefix.empty() && d.path.compare(0, prefix.size(), prefix) != 0) continue;
        const param_value v = d.get(def);
        std::string shown = d.type == param_type::cost ? std::to_string(v.u) : format_value(d, v);
        std::string desc = d.description;
        if (d.type == param_type::cost) desc += " (source: " + v.s + ")";
        std::string range = range_text(d);
        for (auto* s : {&shown, &desc, &range}) {
            std::string e;
            for (char ch : *s) e += ch == '|' ? std::string("\\|") : std::string(1, ch);
            *s = e;
        }
        out << "| `" << d.path << "` | " << type_name(d.type) << " | `" << shown << "` | ";
        if (values) out << provenance_of(def, d).kind << " | ";
        out << d.unit << " | " << range << " | " << desc << " |\n";
    }
}

}  // namespace nestvp
