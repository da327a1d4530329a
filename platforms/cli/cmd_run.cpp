// nestvp run FILE.yaml: load a platform, simulate it, print the summary and write reports.
// docs/cmd-run.md describes the options; docs/cli.md the exit codes.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <memory>

#include <systemc>

#include "models/log.h"
#include "models/vcd_writer.h"
#include "platforms/cli/child_progress.h"
#include "platforms/cli/cli_outputs.h"
#include "platforms/cli/cli_parse.h"
#include "platforms/cli/command.h"
#include "platforms/cli/log_options.h"
#include "platforms/cli/trace_outputs.h"
#include "platforms/config/param_schema.h"
#include "platforms/config/platform_loader.h"
#include "platforms/figures/plot_data.h"
#include "platforms/figures/plot_files.h"
#include "platforms/processes/progress.h"
#include "platforms/processes/termination_signals.h"
#include "platforms/records/config_json.h"
#include "platforms/records/record_diff.h"
#include "platforms/records/run_record.h"
#include "platforms/records/sha256.h"
#include "platforms/records/text_files.h"
#include "platforms/report/tables.h"
#include "platforms/runner/run_platform.h"

namespace nestvp {
namespace {

const char* const k_help =
    "usage: nestvp run FILE.yaml [options]\n"
    "       nestvp run --from RECORD.json [--json OUT] [--csv OUT] [--plot DIR] [--quiet]\n"
    "\n"
    "Simulates the platform FILE.yaml describes and prints a summary table.\n"
    "\n"
    "options:\n"
    "  --set KEY=VALUE        override a platform key (repeatable; 'nestvp params' lists keys)\n"
    "  --json OUT             write the run record as JSON (- for stdout, then no table)\n"
    "  --csv OUT              write one CSV header line and one row (- for stdout)\n"
    "  --plot DIR             write figures (latency CDFs and breakdowns, exit rate) into DIR,\n"
    "                         each a gnuplot script .gp and the .svg it draws\n"
    "  --trace FILE.vcd       write a VCD trace (DEC, HDEC, interrupt lines, level, ceded)\n"
    "  --trace-window S:E     limit the trace to simulated seconds S..E (E may be empty)\n"
    "  --perf-script FILE     write L1's tracepoints as `perf script --ns` prints them\n"
    "                         (kvm_hv:kvm_guest_enter/exit, powerpc:hcall_entry/exit,\n"
    "                         probe:kvmppc_gsb_recv); `nestvp trace-stats` reads it back\n"
    "  --perf-window S:E      limit --perf-script to simulated seconds S..E\n"
    "  --trace-events FILE    write a Perfetto / chrome://tracing timeline (trace-event JSON)\n"
    "  --trace-events-window S:E  limit --trace-events to simulated seconds S..E\n"
    "  --dump-config          print the merged configuration with every default, do not run\n"
    "  --from RECORD.json     re-run a record (its platform file and settings; its merged\n"
    "                         configuration if the file changed) and check it "
    "reproduces\n" NESTVP_LOG_OPTION_HELP
    "  --quiet                no progress line on stderr\n"
    "  --no-file-outputs      ignore the file's run.outputs.* (sweep and compare points use it)\n"
    "  --help                 this text\n"
    "\n"
    "Output files are checked before simulating. SIGINT, SIGTERM or SIGHUP stops the run,\n"
    "writes the metrics so far marked \"partial\": true, and exits 130. Exit codes: 0 ok,\n"
    "1 run or write failed, 2 bad command line or platform file, 130 interrupted. With\n"
    "--from, 1 also when the new record differs from the old one (wall_seconds and the tool\n"
    "aside): the first field is named.\n";

// Log lines (models/log.h) go to stderr, so stdout keeps only the table or the record.
std::string stem_of(const std::string& path) {
    std::string s = path.substr(path.find_last_of('/') + 1);
    const auto dot = s.rfind('.');
    return dot == std::string::npos || dot == 0 ? s : s.substr(0, dot);
}

struct run_args {
    std::vector<std::string> files, sets;
    std::string json, csv, plot, plot_data, progress_file, trace, trace_window, from, log_prefix;
    std::vector<std::string> logs;
    trace_output_args traces;
    bool no_file_outputs = false, dump_config = false, quiet = false;
};

// A record to re-run: the record, its document and the configuration it ran.
struct from_record {
    run_record old;
    std::string old_text;
    platform_config cfg;
};

// The platform file and settings when the file is unchanged, else the embedded merged
// configuration (said on stderr).
from_record load_from_record(const std::string& path) {
    from_record f;
    const std::string text = read_text_file(path);
    f.old = parse_run_record(text, path);
    f.old_text = text;
    std::string why;
    if (f.old.platform_file.empty()) {
        why = "the record names no platform file";
    } else if (::access(f.old.platform_file.c_str(), R_OK) != 0) {
        why = f.old.platform_file + " cannot be read";
    } else if (sha256_hex(read_text_file(f.old.platform_file)) != f.old.platform_sha256) {
        why = f.old.platform_file + " changed (its SHA-256 differs from the record's)";
    }
    if (why.empty()) {
        std::vector<std::string> sets;
        for (const auto& kv : f.old.settings) sets.push_back(kv.first + "=" + kv.second);
        f.cfg = load_platform(f.old.platform_file, sets);
        // An included file may have changed under an unchanged top file.
        const std::string d = f.old.config.is_null()
                                  ? std::string()
                                  : first_record_difference(f.old.config, config_json(f.cfg));
        if (d.empty()) return f;
        why = f.old.platform_file + " now merges to another configuration (" + d + ")";
    }
    if (f.old.config.is_null())
        throw std::runtime_error(why + ", and the record carries no merged configuration");
    std::fprintf(stderr,
                 "nestvp run: --from %s: %s; running from the record's merged configuration\n",
                 path.c_str(), why.c_str());
    f.cfg = config_from_json(f.old.config, path);
    if (!f.old.provenance.is_null()) provenance_from_json(f.old.provenance, f.cfg, path);
    f.cfg.name = f.old.platform;
    return f;
}

// What run loaded: the settings, the configuration to run (with the command line's outputs),
// the one a re-run loads again, and the record it re-runs (--from).
struct run_setup {
    settings_list settings;
    platform_config cfg, recorded_cfg;
    from_record from;
    std::unique_ptr<trace_outputs> traces;
};

void declare_run_options(cli_parser& cli, run_args& pa) {
    cli.positionals(pa.files);
    cli.list("--set", pa.sets);
    cli.value("--json", pa.json);
    cli.value("--csv", pa.csv);
    cli.value("--plot", pa.plot);
    cli.value("--plot-data", pa.plot_data);          // internal: compare's children
    cli.value("--progress-file", pa.progress_file);  // internal: sweep's and compare's children
    cli.flag("--no-file-outputs", pa.no_file_outputs);
    cli.value("--trace", pa.trace);
    cli.value("--trace-window", pa.trace_window);
    cli.value("--perf-script", pa.traces.perf_script);
    cli.value("--perf-window", pa.traces.perf_window);
    cli.value("--trace-events", pa.traces.trace_events);
    cli.value("--trace-events-window", pa.traces.trace_events_window);
    cli.flag("--dump-config", pa.dump_config);
    cli.value("--from", pa.from);
    cli.list("--log", pa.logs);
    cli.value("--log-prefix", pa.log_prefix);  // internal: sweep's and compare's children
    cli.flag("-q,--quiet", pa.quiet);
}

void apply_logs(const run_args& pa) {
    apply_log_options("run", pa.logs);
    log::set_prefix(pa.log_prefix);
}

// The settings of the run: the old record's (--from), else --set's.
settings_list load_settings(const run_args& pa, run_setup& su) {
    if (!pa.from.empty()) {
        if (!pa.files.empty() || !pa.sets.empty())
            throw usage_error("nestvp run: --from takes no platform file and no --set");
        su.from = load_from_record(pa.from);
        return su.from.old.settings;
    }
    if (pa.files.size() != 1)
        throw usage_error(pa.files.empty()
                              ? "nestvp run: no platform file given (usage: nestvp run "
                                "FILE.yaml)"
                              : "nestvp run: expected one platform file, got " +
                                    std::to_string(pa.files.size()) + " arguments");
    try {
        return parse_settings(pa.sets);
    } catch (const std::invalid_argument& e) {
        throw usage_error(std::string("nestvp run: --set: ") + e.what());
    }
}

// The outputs of the command line over the platform file's run.outputs.
void apply_output_flags(const run_args& pa, std::pair<double, double> window,
                        platform_config& cfg) {
    if (!pa.from.empty() || pa.no_file_outputs) {
        // A re-run, and a sweep/compare point, write only the outputs on the command line.
        cfg.run.json_path.clear();
        cfg.run.csv_path.clear();
        cfg.run.trace_path.clear();
        cfg.run.plot_dir.clear();
    }
    if (!pa.json.empty()) cfg.run.json_path = pa.json;
    if (!pa.csv.empty()) cfg.run.csv_path = pa.csv;
    if (!pa.plot.empty()) cfg.run.plot_dir = pa.plot;
    if (!pa.trace.empty()) {
        cfg.run.trace_path = pa.trace;
        cfg.run.trace_start_s = window.first;
        cfg.run.trace_end_s = window.second;
    }
    // The loader checks a window from the platform file; this one came from the flag.
    if (!pa.trace_window.empty())
        check_window_start("--trace-window", cfg.run.trace_start_s, cfg.run.duration_s);
}

void load_run(const run_args& pa, run_setup& su) {
    apply_logs(pa);
    su.settings = load_settings(pa, su);
    const std::pair<double, double> window =
        output_window("--trace-window", pa.trace_window, "--trace FILE.vcd", pa.trace);
    su.cfg = !pa.from.empty() ? su.from.cfg : load_platform(pa.files[0], pa.sets);
    su.recorded_cfg = su.cfg;  // before command-line outputs: what a re-run loads again
    apply_output_flags(pa, window, su.cfg);
    su.traces = std::make_unique<trace_outputs>(pa.traces, su.cfg);
}

// Parses the command line and loads the platform; the exit code when run ends here, else -1.
int parse_and_load(int argc, char** argv, run_args& pa, run_setup& su) {
    cli_parser cli("run", k_help);
    declare_run_options(cli, pa);
    try {
        if (!cli.parse({argv + 1, argv + argc})) return cli.help_exit();
        load_run(pa, su);
    } catch (const usage_error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return exit_usage;
    } catch (const config_error& e) {
        std::fprintf(stderr, "nestvp run: %s\n", e.what());
        return exit_usage;
    } catch (const std::exception& e) {
        const std::string file = !pa.from.empty() ? pa.from : pa.files.empty() ? "?" : pa.files[0];
        const std::string what = e.what();  // most messages name the file already
        std::fprintf(stderr, "nestvp run: %s%s\n",
                     what.rfind(file + ":", 0) == 0 ? "" : (file + ": ").c_str(), what.c_str());
        return exit_usage;
    }
    return -1;
}

// An output that cannot be written is reported before simulating, named as it was given:
// the flag, or the platform file's run.outputs key.
bool prepare_outputs(const run_args& pa, const platform_config& cfg) {
    const auto given = [](const std::string& flag_value, const char* flag, const char* key) {
        return flag_value.empty() ? key : flag;
    };
    for (const auto& out :
         {std::make_pair(given(pa.json, "--json", "run.outputs.json"), cfg.run.json_path),
          std::make_pair(given(pa.csv, "--csv", "run.outputs.csv"), cfg.run.csv_path),
          std::make_pair(given(pa.trace, "--trace", "run.outputs.trace"), cfg.run.trace_path),
          std::make_pair("--plot-data", pa.plot_data)})
        if (!prepare_output_file("run", out.first, out.second)) return false;
    return prepare_plot_dir("run", cfg.run.plot_dir, given(pa.plot, "--plot", "run.outputs.plot"));
}

// The progress of the simulation: the line on a terminal, and --progress-file for a parent.
class run_progress {
public:
    run_progress(const run_args& pa, double duration_s)
        : m_file(pa.progress_file),
          m_duration(duration_s),
          m_meter(duration_s),
          m_show(!pa.quiet && ::isatty(2)) {}
    bool wanted() const { return m_show || !m_file.empty(); }
    void update(double done) {
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - m_t0).count();
        if (!m_file.empty() && wall - m_written >= 0.2) {
            write_progress_file(m_file, done, m_duration);
            m_written = wall;
        }
        if (!m_show) return;
        const std::string line = m_meter.update(done, wall);
        if (!line.empty()) std::fprintf(stderr, "\r%s\x1b[K", line.c_str());
    }
    void clear_line() const {
        if (m_meter.shown()) std::fputs("\r\x1b[K", stderr);
    }

private:
    const std::chrono::steady_clock::time_point m_t0 = std::chrono::steady_clock::now();
    std::string m_file;
    double m_duration;
    progress_meter m_meter;
    bool m_show;
    double m_written = -1;  // wall time of the last --progress-file write
};

// The record's identity: the old record's for a re-run (so that it can match), else the file's.
run_record record_of(const run_args& pa, const run_setup& su) {
    run_record rec = new_run_record();
    if (!pa.from.empty()) {
        rec.platform = su.from.old.platform;
        rec.platform_file = su.from.old.platform_file;
        rec.platform_sha256 = su.from.old.platform_sha256;
    } else {
        rec.platform = su.cfg.name.empty() ? stem_of(pa.files[0]) : su.cfg.name;
        rec.platform_file = pa.files[0];
        rec.platform_sha256 = sha256_hex(read_text_file(pa.files[0]));
    }
    rec.seed = su.recorded_cfg.run.seed;
    rec.settings = su.settings;
    rec.config = config_json(su.recorded_cfg);
    rec.provenance = provenance_json(su.recorded_cfg);
    return rec;
}

// Runs the platform into rec.result; false (said on stderr) if the run failed.
bool simulate(const run_args& pa, const platform_config& cfg, trace_outputs& traces,
              run_progress& progress, run_record& rec) {
    run_options opts;
    opts.trace_observers = traces.observers(cfg);
    opts.keep_exit_events = !cfg.run.plot_dir.empty() || !pa.plot_data.empty();
    opts.should_stop = [] { return stop_requested(); };
    if (progress.wanted()) opts.on_progress = [&progress](double done) { progress.update(done); };
    try {
        rec.result = run_platform(cfg, opts);
    } catch (const std::exception& e) {
        progress.clear_line();
        std::fprintf(stderr, "nestvp run: the run failed: %s\n", e.what());
        return false;
    }
    progress.clear_line();
    return true;
}

// The summary on stdout, then every output asked for; returns the exit code so far.
int write_outputs(const run_args& pa, const platform_config& cfg, const run_record& rec) {
    // With --json - or --csv -, stdout carries only that output.
    if (cfg.run.json_path != "-" && cfg.run.csv_path != "-")
        std::fputs(summary_table(rec).c_str(), stdout);
    int rc = flush_stdout("run") ? exit_ok : exit_failure;
    const auto keep = [&rc](bool written) {
        if (!written) rc = exit_failure;
    };
    if (!cfg.run.json_path.empty())
        keep(write_one("run", cfg.run.json_path, [&] { return run_record_json(rec); }));
    if (!cfg.run.csv_path.empty())
        keep(write_one("run", cfg.run.csv_path, [&] {
            std::vector<std::string> keys;
            for (const auto& kv : rec.settings) keys.push_back(kv.first);
            return records_csv({rec}, keys, true);
        }));
    if (!pa.plot_data.empty())
        keep(write_one("run", pa.plot_data, [&] { return plot_data_text(rec.result); }));
    // run has no -j: its figures are drawn on every core.
    if (!cfg.run.plot_dir.empty())
        keep(draw_one("run", [&] {
            return write_run_plots(cfg.run.plot_dir, {{rec.platform, &rec.result}}, default_jobs());
        }));
    return rc;
}

// --from: whether the new record reproduces the old one (the first difference named).
bool reproduced(const run_args& pa, const run_setup& su, const run_record& rec) {
    const std::string d = record_text_difference(su.from.old_text, pa.from, run_record_doc(rec));
    if (!d.empty()) {
        std::fprintf(stderr, "nestvp run: --from %s: not reproduced: %s\n", pa.from.c_str(),
                     d.c_str());
        return false;
    }
    std::fprintf(stderr, "nestvp run: --from %s: reproduced\n", pa.from.c_str());
    return true;
}

int run_main(int argc, char** argv) {
    install_stop_signals();  // first: a stop signal while loading still ends in a partial result
    run_args pa;
    run_setup su;
    if (const int rc = parse_and_load(argc, argv, pa, su); rc >= 0) return rc;
    const platform_config& cfg = su.cfg;
    if (pa.dump_config) {
        std::fputs(dump_config(cfg).c_str(), stdout);
        return flush_stdout("run") ? exit_ok : exit_failure;
    }
    if (!prepare_outputs(pa, cfg) || !su.traces->prepare()) return exit_usage;
    run_progress progress(pa, cfg.run.duration_s);
    if (cfg.run.run_ahead && !run_ahead_applies(cfg))
        std::fprintf(stderr,
                     "nestvp run: run-ahead off: l2.devices.ipi_hz > 0 (an IPI wakes a thread of "
                     "another core, docs/local-time.md)\n");
    run_record rec = record_of(pa, su);
    if (!simulate(pa, cfg, *su.traces, progress, rec)) return exit_failure;
    // The platform is gone, so its trace is closed: a write that failed (a full disk) is known.
    const std::vector<std::string> trace_errors = vcd_writer::take_write_errors();
    // run_platform marks a stopped run partial; a signal after the last slice leaves it complete.
    if (stop_requested() && rec.result.sim_seconds < cfg.run.duration_s) rec.result.partial = true;
    int rc = write_outputs(pa, cfg, rec);
    if (!su.traces->write(rec.platform)) rc = exit_failure;
    for (const auto& e : trace_errors) {  // reported after the outputs, which are kept
        std::fprintf(stderr, "nestvp run: %s\n", e.c_str());
        rc = exit_failure;
    }
    if (!pa.from.empty() && !rec.result.partial && !reproduced(pa, su, rec)) return exit_failure;
    if (rec.result.partial) {
        // 130 as for every command; an output that could not be written was named above.
        std::fprintf(stderr, "nestvp run: interrupted at %.3f s simulated; partial results %s\n",
                     rec.result.sim_seconds,
                     rc == exit_ok ? "written" : "written except as said above");
        return exit_interrupted;
    }
    return rc;
}

}  // namespace
}  // namespace nestvp

NESTVP_REGISTER_COMMAND(run, "run", "simulate a platform file and report (table, JSON, CSV, plots)",
                        nestvp::run_main);
