// nestvp policy-map FILE: the decision map of docs/policy-map.md. A sweep over idle vCPUs x idle
// wake rate x GET_STATE cost x L0 run output x L1 DEC policy (the policy last, so each cell's
// policies are adjacent points), then per cell the policy that wins each criterion.
#include <cstdio>

#include "platforms/cli/cli_outputs.h"
#include "platforms/cli/cli_parse.h"
#include "platforms/cli/command.h"
#include "platforms/cli/log_options.h"
#include "platforms/cli/plan_runner.h"
#include "platforms/config/platform_loader.h"
#include "platforms/report/child_procs.h"
#include "platforms/report/interrupt.h"
#include "platforms/report/plot_files.h"

namespace nestvp {
namespace {

const char* const k_help =
    "usage: nestvp policy-map FILE.yaml [options]\n"
    "\n"
    "Runs the grid run output x GET_STATE cost x idle vCPUs x idle wake rate, each cell under\n"
    "every L1 DEC policy (each run its own process), and writes which policy gives the highest\n"
    "arithoh throughput, the lowest timer-interrupt latency p99 and the fewest exits per\n"
    "second in each cell, with its margin over the runner-up (docs/policy-map.md).\n"
    "\n"
    "options:\n"
    "  --run-output A,B     l0.run_output values (default powervm,powervm-dec-expiry)\n"
    "  --get-state A,B,...  l0.costs.get_state in cycles (default 1500,15000,150000)\n"
    "  --idle-vcpus A,B,... idle L2 vCPUs, besides the benchmark's (default 1,3,7)\n"
    "  --wake-hz A,B,...    l2.housekeeping_hz: timer wake-ups per second of each idle vCPU\n"
    "                       (default 100,1000,3000,10000)\n"
    "  --policies A,B,...   l1.dec_policy values (default no-cancel,cancel,cancel-poll)\n"
    "  --duration S         simulated seconds per run (default 1)\n"
    "  --set KEY=VALUE      override a key at every run (repeatable; not run.outputs.*)\n"
    "  -j N                 run at most N points at once (default: the number of cores)\n"
    "  --csv OUT            one row per cell (default: stdout)\n"
    "  --plot DIR           heatmaps: policy-map-throughput, -timer_p99, -exits (.gp, "
    ".svg)\n" NESTVP_LOG_OPTION_HELP
    "                         (each line begins with its point: point i:)\n"
    "  --quiet              no progress messages\n"
    "  --help               this text\n"
    "\n"
    "Exit codes: 0 ok, 1 a run failed or was stopped on its own (its cell compares the\n"
    "others), 2 bad command line or platform file, 130 interrupted.\n";

int policy_map_main(int argc, char** argv) {
    install_stop_signals();
    std::vector<std::string> files, sets;
    std::string run_output = "powervm,powervm-dec-expiry", get_state = "1500,15000,150000",
                idle = "1,3,7", wake = "100,1000,3000,10000",
                policies = "no-cancel,cancel,cancel-poll", duration = "1";
    std::string jobs_text, csv_out, plot_dir;
    bool quiet = false;
    cli_parser cli("policy-map", k_help);
    cli.positionals(files);
    cli.value("--run-output", run_output);
    cli.value("--get-state", get_state);
    cli.value("--idle-vcpus", idle);
    cli.value("--wake-hz", wake);
    cli.value("--policies", policies);
    cli.value("--duration", duration);
    cli.list("--set", sets);
    cli.value("-j,--jobs", jobs_text);
    cli.value("--csv", csv_out);
    cli.value("--plot", plot_dir);
    cli.flag("-q,--quiet", quiet);
    std::vector<std::string> logs;
    cli.list("--log", logs);
    sweep_plan plan;
    unsigned jobs = 0;
    try {
        if (!cli.parse({argv + 1, argv + argc})) return cli.help_exit();
        apply_log_options("policy-map", logs);
        if (files.size() != 1)
            throw usage_error("nestvp policy-map: expected one platform file, got " +
                              std::to_string(files.size()));
        jobs = jobs_option(cli, jobs_text);
        check_plan_sets("policy-map", sets);
        std::vector<std::string> all_sets = sets;
        all_sets.push_back("run.duration_s=" + duration);
        platform_config base;
        try {
            base = load_platform(files[0], all_sets);
        } catch (const config_error& e) {  // a bad --duration is named as the user gave it
            const std::string what = e.what(), set = "--set " + all_sets.back() + ": ";
            if (what.rfind(set, 0) != 0) throw;
            throw usage_error(cli.prefix() + "--duration " + duration + ": " +
                              what.substr(set.size()));
        }
        // Idle vCPUs -> l2.vcpus: the benchmark's copies plus the idle ones.
        grid_axis idle_ax = parse_grid("l2.vcpus=" + idle, "--idle-vcpus");
        for (auto& v : idle_ax.values) {
            unsigned n = 0;
            try {
                n = parse_positive_int("--idle-vcpus", v);
            } catch (const usage_error& e) {
                throw usage_error(cli.prefix() + e.what());
            }
            v = std::to_string(n + base.workload.arithoh_copies);
        }
        std::vector<grid_axis> axes = {parse_grid("l0.run_output=" + run_output, "--run-output"),
                                       parse_grid("l0.costs.get_state=" + get_state, "--get-state"),
                                       idle_ax,
                                       parse_grid("l2.housekeeping_hz=" + wake, "--wake-hz"),
                                       parse_grid("l1.dec_policy=" + policies, "--policies")};
        plan = make_sweep_plan(absolute_path(files[0]), all_sets, axes);
        check_plan_points("policy-map", plan);
    } catch (const usage_error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return exit_usage;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp policy-map: %s\n", e.what());
        return exit_usage;
    }
    if (!prepare_output_file("policy-map", "--csv", csv_out) ||
        !prepare_plot_dir("policy-map", plot_dir))
        return exit_usage;
    std::vector<std::optional<run_record>> pts;
    int rc = run_plan_locally("policy-map", plan, jobs, quiet, pts, logs);
    if (rc == exit_interrupted) rc = exit_ok;
    policy_map m;
    bool analysed = true;
    try {
        m = analyse_policy_map(plan, complete_runs(pts));  // a cell from whole runs only
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp policy-map: %s\n", e.what());
        analysed = false;
        rc = exit_failure;
    }
    if (analysed && !write_one("policy-map", csv_out.empty() ? "-" : csv_out,
                               [&] { return policy_map_csv(m); }))
        rc = exit_failure;
    if (analysed && !plot_dir.empty() &&
        !draw_one("policy-map", [&] { return write_policy_map_plots(plot_dir, m, jobs); }))
        rc = exit_failure;
    // stdout carries only the CSV, and write_output("-") checked it (said once, above).
    if (stop_requested()) {
        std::fprintf(stderr, "nestvp policy-map: interrupted; finished cells written\n");
        return exit_interrupted;
    }
    return rc;
}

}  // namespace
}  // namespace nestvp

NESTVP_REGISTER_COMMAND(policy_map, "policy-map",
                        "which L1 DEC policy wins where: throughput, timer p99 and exits over "
                        "idle vCPUs, wake rate, GET_STATE cost and run output",
                        nestvp::policy_map_main);
