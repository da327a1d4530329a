// nestvp run FILE.yaml: load a platform, simulate it, print the summary and write reports.
// docs/cmd-run.md describes the options; docs/cli.md the exit codes.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>

#include "platforms/cli/command.h"
#include "platforms/config/platform_loader.h"
#include "platforms/report/cli_args.h"
#include "platforms/report/interrupt.h"
#include "platforms/report/plot_files.h"
#include "platforms/report/progress.h"
#include "platforms/report/run_record.h"
#include "platforms/report/svg_plots.h"
#include "platforms/report/tables.h"
#include "platforms/runner/run_platform.h"

namespace nestvp {
namespace {

const char* const k_help =
    "usage: nestvp run FILE.yaml [options]\n"
    "\n"
    "Simulates the platform FILE.yaml describes and prints a summary table.\n"
    "\n"
    "options:\n"
    "  --set KEY=VALUE        override a platform key (repeatable; 'nestvp params' lists keys)\n"
    "  --json OUT             write the run record as JSON\n"
    "  --csv OUT              write one CSV header line and one row\n"
    "  --plot DIR             write SVG figures (latency CDFs and breakdowns, exit rate) into DIR\n"
    "  --trace FILE.vcd       write a VCD trace (DEC, HDEC, interrupt lines, level, ceded)\n"
    "  --trace-window S:E     limit the trace to simulated seconds S..E (E may be empty)\n"
    "  --dump-config          print the merged configuration with every default, do not run\n"
    "  --quiet                no progress line on stderr\n"
    "  --no-file-outputs      ignore the file's run.outputs.* (sweep and compare points use it)\n"
    "  --help                 this text\n"
    "\n"
    "Output files are checked before simulating. SIGINT stops the run, writes the metrics so\n"
    "far marked \"partial\": true, and exits 130. Exit codes: 0 ok, 1 run or write failed,\n"
    "2 bad command line or platform file, 130 interrupted.\n";

std::string stem_of(const std::string& path) {
    std::string s = path.substr(path.find_last_of('/') + 1);
    const auto dot = s.rfind('.');
    return dot == std::string::npos || dot == 0 ? s : s.substr(0, dot);
}

int run_main(int argc, char** argv) {
    install_sigint_flag();  // first: a SIGINT while loading still ends in a partial result
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (help_requested(args, k_help)) return exit_ok;
    parsed_args pa;
    settings_list settings;
    platform_config cfg;
    try {
        pa = parse_args("run", args,
                        {{"--set", "", true, true},
                         {"--json", "", true, false},
                         {"--csv", "", true, false},
                         {"--plot", "", true, false},
                         {"--plot-data", "", true, false},  // internal: compare's children
                         {"--no-file-outputs", "", false, false},
                         {"--trace", "", true, false},
                         {"--trace-window", "", true, false},
                         {"--dump-config", "", false, false},
                         {"--quiet", "-q", false, false}});
        if (pa.positional.size() != 1)
            throw usage_error(
                pa.positional.empty()
                    ? "nestvp run: no platform file given (usage: nestvp run FILE.yaml)"
                    : "nestvp run: expected one platform file, got " +
                          std::to_string(pa.positional.size()) + " arguments");
        try {
            settings = parse_settings(pa.all("--set"));
        } catch (const std::invalid_argument& e) {
            throw usage_error(std::string("nestvp run: --set: ") + e.what());
        }
        if (pa.has("--trace-window") && !pa.has("--trace"))
            throw usage_error("nestvp run: --trace-window needs --trace FILE.vcd");
        std::pair<double, double> window{0.0, -1.0};
        if (pa.has("--trace-window"))
            window = parse_window("--trace-window", pa.get("--trace-window"));
        cfg = load_platform(pa.positional[0], pa.all("--set"));
        if (pa.has("--no-file-outputs")) {  // sweep/compare points: only the outputs on the command
                                            // line
            cfg.run.json_path.clear();
            cfg.run.csv_path.clear();
            cfg.run.trace_path.clear();
            cfg.run.plot_dir.clear();
        }
        if (pa.has("--json")) cfg.run.json_path = pa.get("--json");
        if (pa.has("--csv")) cfg.run.csv_path = pa.get("--csv");
        if (pa.has("--plot")) cfg.run.plot_dir = pa.get("--plot");
        if (pa.has("--trace")) {
            cfg.run.trace_path = pa.get("--trace");
            cfg.run.trace_start_s = window.first;
            cfg.run.trace_end_s = window.second;
        }
    } catch (const usage_error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return exit_usage;
    } catch (const config_error& e) {
        std::fprintf(stderr, "nestvp run: %s\n", e.what());
        return exit_usage;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp run: %s: %s\n",
                     pa.positional.empty() ? "?" : pa.positional[0].c_str(), e.what());
        return exit_usage;
    }
    if (pa.has("--dump-config")) {
        std::fputs(dump_config(cfg).c_str(), stdout);
        return exit_ok;
    }
    // issue 7, Faults: an output that cannot be written is reported before simulating.
    const std::string plot_data = pa.get("--plot-data");
    for (const auto& out :
         {std::make_pair("--json", cfg.run.json_path), std::make_pair("--csv", cfg.run.csv_path),
          std::make_pair("--trace", cfg.run.trace_path),
          std::make_pair("--plot-data", plot_data)}) {
        if (out.second.empty()) continue;
        const std::string why = check_writable_file(out.second);
        if (!why.empty()) {
            std::fprintf(stderr, "nestvp run: %s %s: cannot write: %s\n", out.first,
                         out.second.c_str(), why.c_str());
            return exit_usage;
        }
    }
    if (!cfg.run.plot_dir.empty()) {
        const std::string why = ensure_directory(cfg.run.plot_dir);
        if (!why.empty()) {
            std::fprintf(stderr, "nestvp run: --plot %s: %s\n", cfg.run.plot_dir.c_str(),
                         why.c_str());
            return exit_usage;
        }
    }

    run_options opts;
    opts.keep_exit_events = !cfg.run.plot_dir.empty() || !plot_data.empty();
    opts.should_stop = [] { return sigint_received(); };
    const auto t0 = std::chrono::steady_clock::now();
    progress_meter meter(cfg.run.duration_s);
    const bool show_progress = !pa.has("--quiet") && ::isatty(2);
    if (show_progress)
        opts.on_progress = [&](double done) {
            const double wall =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            const std::string line = meter.update(done, wall);
            if (!line.empty()) std::fprintf(stderr, "\r%s\x1b[K", line.c_str());
        };
    run_record rec;
    rec.platform = cfg.name.empty() ? stem_of(pa.positional[0]) : cfg.name;
    rec.settings = settings;
    try {
        rec.result = run_platform(cfg, opts);
    } catch (const std::exception& e) {
        if (meter.shown()) std::fputs("\r\x1b[K", stderr);
        std::fprintf(stderr, "nestvp run: the run failed: %s\n", e.what());
        return exit_failure;
    }
    if (meter.shown()) std::fputs("\r\x1b[K", stderr);
    // run_platform marks a stopped run partial; a SIGINT after the last slice leaves it complete.
    if (sigint_received() && rec.result.sim_seconds < cfg.run.duration_s) rec.result.partial = true;

    std::fputs(summary_table(rec).c_str(), stdout);
    std::fflush(stdout);
    try {
        if (!cfg.run.json_path.empty()) write_text_file(cfg.run.json_path, run_record_json(rec));
        if (!cfg.run.csv_path.empty()) {
            std::vector<std::string> keys;
            for (const auto& kv : rec.settings) keys.push_back(kv.first);
            write_text_file(cfg.run.csv_path, records_csv({rec}, keys, true));
        }
        if (!plot_data.empty()) write_text_file(plot_data, plot_data_text(rec.result));
        if (!cfg.run.plot_dir.empty())
            write_run_plots(cfg.run.plot_dir, {{rec.platform, &rec.result}});
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp run: %s\n", e.what());
        return exit_failure;
    }
    if (rec.result.partial) {
        std::fprintf(stderr,
                     "nestvp run: interrupted at %.3f s simulated; partial results written\n",
                     rec.result.sim_seconds);
        return exit_interrupted;
    }
    return exit_ok;
}

}  // namespace
}  // namespace nestvp

NESTVP_REGISTER_COMMAND(run, "run", "simulate a platform file and report (table, JSON, CSV, plots)",
                        nestvp::run_main);
