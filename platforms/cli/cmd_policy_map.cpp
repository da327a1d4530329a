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
#include "platforms/figures/plot_files.h"
#include "platforms/processes/child_procs.h"
#include "platforms/processes/termination_signals.h"

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

// The command line of policy-map: each axis as its values text.
struct policy_map_args {
    std::vector<std::string> files, sets;
    std::string run_output = "powervm,powervm-dec-expiry", get_state = "1500,15000,150000",
                idle = "1,3,7", wake = "100,1000,3000,10000",
                policies = "no-cancel,cancel,cancel-poll", duration = "1";
    std::string jobs_text, csv_out, plot_dir;
    std::vector<std::string> logs;  // --log, handed to every point
    bool quiet = false;
    unsigned jobs = 0;
};

// The platform under --set and --duration; a bad --duration is named as the user gave it.
platform_config load_base(const cli_parser& cli, const policy_map_args& a,
                          const std::vector<std::string>& all_sets) {
    try {
        return load_platform(a.files[0], all_sets);
    } catch (const config_error& e) {
        const std::string what = e.what(), set = "--set " + all_sets.back() + ": ";
        if (what.rfind(set, 0) != 0) throw;
        throw usage_error(cli.prefix() + "--duration " + a.duration + ": " +
                          what.substr(set.size()));
    }
}

// The grid of the map, the policy last so that each cell's policies are adjacent points.
sweep_plan policy_map_plan(const cli_parser& cli, policy_map_args& a) {
    if (a.files.size() != 1)
        throw usage_error("nestvp policy-map: expected one platform file, got " +
                          std::to_string(a.files.size()));
    a.jobs = jobs_option(cli, a.jobs_text);
    check_plan_sets("policy-map", a.sets);
    std::vector<std::string> all_sets = a.sets;
    all_sets.push_back("run.duration_s=" + a.duration);
    const platform_config base = load_base(cli, a, all_sets);
    // Idle vCPUs -> l2.vcpus: the benchmark's copies plus the idle ones.
    grid_axis idle_ax = parse_grid("l2.vcpus=" + a.idle, "--idle-vcpus");
    for (auto& v : idle_ax.values) {
        unsigned n = 0;
        try {
            n = parse_positive_int("--idle-vcpus", v);
        } catch (const usage_error& e) {
            throw usage_error(cli.prefix() + e.what());
        }
        v = std::to_string(n + base.workload.arithoh_copies);
    }
    std::vector<grid_axis> axes = {parse_grid("l0.run_output=" + a.run_output, "--run-output"),
                                   parse_grid("l0.costs.get_state=" + a.get_state, "--get-state"),
                                   idle_ax, parse_grid("l2.housekeeping_hz=" + a.wake, "--wake-hz"),
                                   parse_grid("l1.dec_policy=" + a.policies, "--policies")};
    sweep_plan plan = make_sweep_plan(absolute_path(a.files[0]), all_sets, axes);
    check_plan_points("policy-map", plan);
    return plan;
}

// Parses the command line into the plan; the exit code when policy-map ends here, else -1.
int parse_policy_map_args(int argc, char** argv, policy_map_args& a, sweep_plan& plan) {
    cli_parser cli("policy-map", k_help);
    cli.positionals(a.files);
    cli.value("--run-output", a.run_output);
    cli.value("--get-state", a.get_state);
    cli.value("--idle-vcpus", a.idle);
    cli.value("--wake-hz", a.wake);
    cli.value("--policies", a.policies);
    cli.value("--duration", a.duration);
    cli.list("--set", a.sets);
    cli.value("-j,--jobs", a.jobs_text);
    cli.value("--csv", a.csv_out);
    cli.value("--plot", a.plot_dir);
    cli.flag("-q,--quiet", a.quiet);
    cli.list("--log", a.logs);
    try {
        if (!cli.parse({argv + 1, argv + argc})) return cli.help_exit();
        apply_log_options("policy-map", a.logs);
        plan = policy_map_plan(cli, a);
    } catch (const usage_error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return exit_usage;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp policy-map: %s\n", e.what());
        return exit_usage;
    }
    if (!prepare_output_file("policy-map", "--csv", a.csv_out) ||
        !prepare_plot_dir("policy-map", a.plot_dir))
        return exit_usage;
    return -1;
}

// The map from whole runs only, its CSV and its heatmaps; returns the exit code so far.
int write_policy_map(const policy_map_args& a, const sweep_plan& plan,
                     const std::vector<std::optional<run_record>>& pts, int rc) {
    policy_map m;
    try {
        m = analyse_policy_map(plan, complete_runs(pts));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp policy-map: %s\n", e.what());
        return exit_failure;
    }
    if (!write_one("policy-map", a.csv_out.empty() ? "-" : a.csv_out,
                   [&] { return policy_map_csv(m); }))
        rc = exit_failure;
    if (!a.plot_dir.empty() &&
        !draw_one("policy-map", [&] { return write_policy_map_plots(a.plot_dir, m, a.jobs); }))
        rc = exit_failure;
    return rc;
}

int policy_map_main(int argc, char** argv) {
    install_stop_signals();
    policy_map_args a;
    sweep_plan plan;
    if (const int rc = parse_policy_map_args(argc, argv, a, plan); rc >= 0) return rc;
    std::vector<std::optional<run_record>> pts;
    int rc = run_plan_locally("policy-map", plan, a.jobs, a.quiet, pts, a.logs);
    if (rc == exit_interrupted) rc = exit_ok;
    rc = write_policy_map(a, plan, pts, rc);
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
