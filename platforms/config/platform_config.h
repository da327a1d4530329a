#pragma once
// The typed configuration of one platform run: what a platform file (plus includes and
// --set overrides) resolves to. Each section holds the config structs of the models and
// software it configures, declared next to them (models/params.h); param_schema.cpp mounts
// them at their keys. Only the platform's own keys (how many, where, what to write) are
// declared here.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/core_config.h"
#include "models/memory_config.h"
#include "models/params.h"
#include "models/timer_unit_factory.h"
#include "sw/l0/l0_config.h"
#include "sw/l1/l1_config.h"
#include "sw/l2/l2_config.h"
#include "sw/workloads/workload_config.h"

namespace nestvp {

// The machine: its cores (with their time base), timer facilities and L1 memory, and how
// many cores and how vCPU threads land on them.
struct machine_config {
    unsigned cores = 0;  // 0: as many as the hardware threads need
    // How L1 vCPU threads land on cores: "spread" fills one thread per core first (the Linux
    // scheduler balances busy tasks across cores before siblings), "pack" fills a core first.
    std::string placement = "pack";
    core_config core;
    timer_unit_options timer;
    memory_config memory;

    static void describe(param_list<machine_config>& p) {
        p.add_uint("cores", &machine_config::cores, 0, 1024, "",
                   "cores; 0 = as many as the hardware threads need");
        p.add_text("placement", &machine_config::placement, {"pack", "spread"},
                   "L1 vCPU threads on cores: pack fills a core first, spread puts one thread "
                   "per core first");
    }
};

struct l0_section : l0_config {
    l0_costs costs;
};

struct l1_section : l1_config {
    l1_costs costs;
};

struct l2_section : l2_config {
    unsigned vcpus = 4;  // one L1 run loop and hardware thread each
    l2_costs costs;

    static void describe(param_list<l2_section>& p) {
        p.add_uint("vcpus", &l2_section::vcpus, 1, 1024, "",
                   "L2 vCPUs, one L1 run loop and thread each");
    }
};

struct run_config {
    double duration_s = 10.0;
    uint64_t seed = 1;
    bool run_ahead = true;  // exact run-ahead of compute segments (docs/local-time.md)
    std::string json_path;  // empty: no JSON file
    std::string csv_path;
    std::string trace_path;  // VCD
    std::string plot_dir;
    double trace_start_s = 0.0;
    double trace_end_s = -1.0;  // < 0: to the end

    static void describe(param_list<run_config>& p) {
        using c = run_config;
        // At least 1 us: a shorter run (1e-300 s) is below the time resolution and runs nothing.
        p.add_real("duration_s", &c::duration_s, 1e-6, 1e6, false, "s", "simulated time to run");
        p.add_u64("seed", &c::seed, param_type::uint, 0, 0, "", "random seed");
        p.add_bool("run_ahead", &c::run_ahead,
                   "exact run-ahead: work that ends before anything can act on its core is "
                   "retired without a SystemC wait (docs/local-time.md)");
        p.add_text("outputs.json", &c::json_path, {}, "JSON result file; \"\" for none");
        p.add_text("outputs.csv", &c::csv_path, {}, "CSV result file; \"\" for none");
        p.add_text("outputs.trace", &c::trace_path, {},
                   "VCD trace file; \"\" for none (costs nothing)");
        p.add_text("outputs.plot", &c::plot_dir, {},
                   "folder for the figures (gnuplot scripts and their SVG); \"\" for none");
        p.add_real("trace_window.start_s", &c::trace_start_s, 0, 1e6, false, "s",
                   "trace from this simulated time");
        p.add_real("trace_window.end_s", &c::trace_end_s, -1e6, 1e6, false, "s",
                   "trace up to this simulated time; negative = to the end");
    }
};

// The one published figure a calibrated value was set from (reference-result.md, "Calibration
// and prediction"): a row of the reference table and its policy column.
struct calibration_figure {
    std::string metric;  // kvm_guest_exit | arithoh_count | gsb_recv
    std::string policy;  // cancel: the kernel as fixed (no-cancel is predicted)
    bool empty() const { return metric.empty() && policy.empty(); }
    bool operator==(const calibration_figure& o) const {
        return metric == o.metric && policy == o.policy;
    }
};

// Where a value comes from (docs/calibration.md): `sourced` (names its source), `assumed` (a
// reason and, for a number, a plausible range), `calibrated` (names the one published figure it
// was set from). The loader also records `unspecified` (a plain value in a file), `set` (--set);
// a key no file mentions is `default`.
struct value_provenance {
    std::string kind;
    std::string source;                // the source, the reason, or the published figure
    std::vector<double> range;         // assumed numbers: [lo, hi]
    calibration_figure calibrated_on;  // calibrated values: the figure; empty for the others
};

struct platform_config {
    std::string name;
    std::string source_file;
    // Per key, what the loader learned of its value; costs without an entry infer it from
    // their source text (provenance_of, param_schema.h).
    std::map<std::string, value_provenance> provenance;
    machine_config machine;
    l0_section l0;
    l1_section l1;
    l2_section l2;
    workload_config workload;
    run_config run;

    // The cores l2.vcpus threads need, a thread each (machine.cores = 0 builds this many).
    unsigned cores_needed() const {
        return (l2.vcpus + machine.core.threads - 1) / machine.core.threads;
    }

    static void describe(param_list<platform_config>& p) {
        p.add_text("name", &platform_config::name, {},
                   "platform name shown in reports (default: the file's stem)");
    }
};

}  // namespace nestvp
