// nestvp uncertainty FILE --samples N: a Latin hypercube over the platform's assumed ranges, each
// sample run under every value of --pair through the sweep machinery (so --emit-jobs and merge
// work for it too), and the intervals and variance shares of every metric and reference ratio.
#include <cstdio>

#include "platforms/analysis/latin_hypercube.h"
#include "platforms/cli/cli_outputs.h"
#include "platforms/cli/cli_parse.h"
#include "platforms/cli/command.h"
#include "platforms/cli/log_options.h"
#include "platforms/cli/plan_runner.h"
#include "platforms/config/param_schema.h"
#include "platforms/config/platform_loader.h"
#include "platforms/processes/child_procs.h"
#include "platforms/processes/termination_signals.h"

namespace nestvp {
namespace {

const char* const k_help =
    "usage: nestvp uncertainty FILE.yaml [--samples N] [options]\n"
    "\n"
    "Draws two independent Latin hypercubes of N/2 samples each over the platform's assumed\n"
    "ranges (every number of kind `assumed` with a range, costs included; see 'nestvp params\n"
    "--platform FILE'), runs each sample once per value of --pair, each run its own process,\n"
    "and reports for every metric and for the reference ratios (exits, arithoh and GET_STATE,\n"
    "last pair value over the first) the median, the 5-95 % interval and each assumption's\n"
    "share of the variance; the 5 % and 95 % points also from the first hypercube alone, each\n"
    "with its bootstrap standard error (--json). The same seed gives the same samples and the\n"
    "same intervals.\n"
    "\n"
    "options:\n"
    "  --samples N       samples to draw, even, at least 4 (default 64)\n"
    "  --short-runs S    simulate S seconds per run instead of run.duration_s and scale every\n"
    "                    count by run.duration_s / S (latencies and ratios are not scaled);\n"
    "                    only where rates are stationary (docs/cmd-uncertainty.md)\n"
    "  --seed S          the sampling seed (default: the platform's run.seed)\n"
    "  --run-noise K     also run K replicates of each pair value at the platform's own values,\n"
    "                    full length, each with its own run.seed, and give every interval as\n"
    "                    that of one run (default 0; docs/cmd-uncertainty.md)\n"
    "  --pair KEY=A,B    run every sample under each value (default\n"
    "                    l1.dec_policy=no-cancel,cancel)\n"
    "  --only KEY        sample only this assumed key (repeatable); the others keep their value\n"
    "  --set KEY=VALUE   override a key at every run (repeatable; not run.outputs.*)\n"
    "  -j N              run at most N points at once (default: the number of cores)\n"
    "  --csv OUT         the summary: target, n, p5, median, p95 and each key's share\n"
    "  --json OUT        the same as JSON\n"
    "  --points-csv OUT  one row per run: the sampled values, the pair value, the metrics\n"
    "  --plot DIR        a tornado chart (.gp, .svg) per ratio and per exit, arithoh and GET_STATE "
    "count\n"
    "  --emit-jobs DIR   do not run: write DIR/jobs.txt and DIR/sweep.json; run the lines with\n"
    "                    GNU parallel or a Slurm array, then 'nestvp merge "
    "DIR'\n" NESTVP_LOG_OPTION_HELP
    "                         (each line begins with its point: point i:)\n"
    "  --quiet           no progress messages\n"
    "  --help            this text\n"
    "\n"
    "Exit codes: 0 ok, 1 a run failed or was stopped on its own (the others are still used),\n"
    "2 bad command line or platform file, 130 interrupted.\n";

// --short-runs S: appends run.duration_s=S to `run_sets` and returns S, at most the platform's
// run.duration_s. A bad S is named as the user gave it.
double short_run_seconds(const cli_parser& cli, const std::string& file, const platform_config& cfg,
                         const std::string& text, std::vector<std::string>& run_sets) {
    const std::string flag = "--short-runs " + text;
    double s = 0;
    try {
        s = parse_seconds("--short-runs", text);
    } catch (const usage_error& e) {
        throw usage_error(cli.prefix() + e.what());
    }
    run_sets.push_back("run.duration_s=" + text);
    try {
        load_platform(file, run_sets);
    } catch (const config_error& e) {
        const std::string what = e.what(), set = "--set " + run_sets.back() + ": ";
        if (what.rfind(set, 0) != 0) throw;
        throw usage_error(cli.prefix() + flag + ": " + what.substr(set.size()));
    }
    if (s > cfg.run.duration_s)
        throw usage_error(cli.prefix() + flag + ": longer than run.duration_s (" +
                          format_real(cfg.run.duration_s) +
                          "); runs are shortened, never lengthened");
    return s;
}

// The command line of uncertainty.
struct uncertainty_args {
    std::vector<std::string> files, sets, only;
    std::string samples_text = "64", seed_text, pair_text = "l1.dec_policy=no-cancel,cancel";
    std::string short_runs, run_noise_text = "0";
    std::string jobs_text, csv_out, json_out, points_csv, plot_dir, emit_dir;
    std::vector<std::string> logs;  // --log, handed to every point
    bool quiet = false;
    unsigned jobs = 0;
};

unsigned samples_of(const cli_parser& cli, const std::string& text) {
    try {
        return parse_positive_int("--samples", text);
    } catch (const usage_error& e) {
        throw usage_error(cli.prefix() + e.what());
    }
}

// --run-noise K: replicates per paired value, 0 for none.
unsigned run_noise_of(const cli_parser& cli, const std::string& text) {
    if (text == "0") return 0;
    try {
        return parse_positive_int("--run-noise", text);
    } catch (const usage_error&) {
        throw usage_error(cli.prefix() + "--run-noise: expected 0 (none) or a whole number of " +
                          "replicates from 1 to 4096, got '" + text + "'");
    }
}

// --seed, else the platform's run.seed.
uint64_t seed_of(const cli_parser& cli, const std::string& text, uint64_t platform_seed) {
    if (text.empty()) return platform_seed;
    try {
        // stoull takes "-1" as 2^64 - 1: a seed is written as a whole number.
        if (text.find_first_not_of("0123456789") != std::string::npos)
            throw std::invalid_argument(text);
        return std::stoull(text);
    } catch (const std::exception&) {
        throw usage_error(cli.prefix() + "--seed: expected a whole number, got '" + text + "'");
    }
}

// The assumed ranges to sample: all of the platform's, or those --only names; never the paired
// key.
std::vector<sampled_param> sampled_params(const cli_parser& cli, const uncertainty_args& a,
                                          const platform_config& cfg, const grid_axis& pair) {
    std::vector<sampled_param> params = assumed_ranges(cfg);
    if (!a.only.empty()) {
        std::vector<sampled_param> kept;
        for (const auto& k : a.only) {
            bool found = false;
            for (const auto& p : params) found = found || p.key == k;
            if (!found)
                throw usage_error(cli.prefix() + "--only " + k +
                                  ": not an assumed number with a range in " + a.files[0]);
        }
        for (const auto& p : params)
            for (const auto& k : a.only)
                if (p.key == k) kept.push_back(p);
        params = kept;
    }
    for (const auto& p : params)
        if (p.key == pair.key)
            throw usage_error(cli.prefix() + "--pair " + pair.key +
                              ": an assumed key; it cannot be both sampled and paired");
    if (params.empty())
        throw usage_error("nestvp uncertainty: " + a.files[0] +
                          " states no assumed number with a range to sample");
    return params;
}

// The checked command line as a sampled plan: every sample once per value of --pair.
sweep_plan uncertainty_plan(const cli_parser& cli, uncertainty_args& a) {
    if (a.files.size() != 1)
        throw usage_error("nestvp uncertainty: expected one platform file, got " +
                          std::to_string(a.files.size()));
    const unsigned samples = samples_of(cli, a.samples_text);
    a.jobs = jobs_option(cli, a.jobs_text);
    // Two hypercubes of N/2: the first alone gives the bounds the convergence check compares.
    if (samples < 4 || samples % 2 != 0)
        throw usage_error(cli.prefix() + "--samples: expected an even number of at least 4 " +
                          "(two Latin hypercubes of N/2), got '" + a.samples_text + "'");
    if (!a.emit_dir.empty() &&
        (!a.csv_out.empty() || !a.json_out.empty() || !a.points_csv.empty() || !a.plot_dir.empty()))
        throw usage_error(
            "nestvp uncertainty: with --emit-jobs, give the outputs to "
            "'nestvp merge' instead");
    check_plan_sets("uncertainty", a.sets);
    const grid_axis pair = parse_grid(a.pair_text, "--pair");
    if (pair.values.size() < 2)
        throw usage_error(cli.prefix() + "--pair " + pair.key +
                          ": expected two or more values to compare, got '" + a.pair_text + "'");
    refuse_output_keys("uncertainty", "--pair", {pair.key + "="});
    const platform_config cfg = load_platform(a.files[0], a.sets);
    std::vector<std::string> run_sets = a.sets;
    const double run_seconds =
        a.short_runs.empty() ? cfg.run.duration_s
                             : short_run_seconds(cli, a.files[0], cfg, a.short_runs, run_sets);
    const uint64_t seed = seed_of(cli, a.seed_text, cfg.run.seed);
    const std::vector<sampled_param> params = sampled_params(cli, a, cfg, pair);
    std::vector<std::string> keys;
    for (const auto& p : params) keys.push_back(p.key);
    sweep_plan plan = make_sample_plan(absolute_path(a.files[0]), run_sets, keys,
                                       latin_hypercubes(params, samples / 2, 2, seed), pair, seed);
    plan.hypercubes = 2;
    plan.run_seconds = run_seconds;
    plan.count_scale = cfg.run.duration_s / run_seconds;
    add_noise_replicates(plan, run_noise_of(cli, a.run_noise_text), cfg.run.seed,
                         cfg.run.duration_s);
    // A sample the platform's checks refuse fails before anything runs.
    const size_t pairs = pair.values.size();
    const size_t samples_end = size_t(plan.samples) * pairs,
                 replicates_end = samples_end + size_t(plan.replicates) * pairs;
    check_plan_points("uncertainty", plan, [=](size_t i) {
        if (i < samples_end) return "sample " + std::to_string(i / pairs);
        if (i < replicates_end) return "replicate " + std::to_string((i - samples_end) / pairs);
        return std::string("the platform's own point");
    });
    return plan;
}

// Parses the command line into the plan; the exit code when uncertainty ends here, else -1.
int parse_uncertainty_args(int argc, char** argv, uncertainty_args& a, sweep_plan& plan) {
    cli_parser cli("uncertainty", k_help);
    cli.positionals(a.files);
    cli.value("--samples", a.samples_text);
    cli.value("--seed", a.seed_text);
    cli.value("--short-runs", a.short_runs);
    cli.value("--run-noise", a.run_noise_text);
    cli.value("--pair", a.pair_text);
    cli.list("--only", a.only);
    cli.list("--set", a.sets);
    cli.value("-j,--jobs", a.jobs_text);
    cli.value("--csv", a.csv_out);
    cli.value("--json", a.json_out);
    cli.value("--points-csv", a.points_csv);
    cli.value("--plot", a.plot_dir);
    cli.value("--emit-jobs", a.emit_dir);
    cli.flag("-q,--quiet", a.quiet);
    cli.list("--log", a.logs);
    try {
        if (!cli.parse({argv + 1, argv + argc})) return cli.help_exit();
        apply_log_options("uncertainty", a.logs);
        plan = uncertainty_plan(cli, a);
    } catch (const usage_error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return exit_usage;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp uncertainty: %s\n", e.what());
        return exit_usage;
    }
    return -1;
}

int uncertainty_main(int argc, char** argv) {
    install_stop_signals();
    uncertainty_args a;
    sweep_plan plan;
    if (const int rc = parse_uncertainty_args(argc, argv, a, plan); rc >= 0) return rc;
    if (!a.emit_dir.empty()) return emit_plan_jobs("uncertainty", plan, a.emit_dir, a.jobs);
    if (!prepare_output_file("uncertainty", "--csv", a.csv_out) ||
        !prepare_output_file("uncertainty", "--json", a.json_out) ||
        !prepare_output_file("uncertainty", "--points-csv", a.points_csv) ||
        !prepare_plot_dir("uncertainty", a.plot_dir))
        return exit_usage;
    std::vector<std::optional<run_record>> pts;
    int rc = run_plan_locally("uncertainty", plan, a.jobs, a.quiet, pts, a.logs);
    if (rc == exit_interrupted) rc = exit_ok;
    if (!write_uncertainty_results("uncertainty", plan, pts, a.csv_out, a.json_out, a.points_csv,
                                   a.plot_dir, a.jobs))
        rc = exit_failure;
    if (stop_requested()) {
        std::fprintf(stderr, "nestvp uncertainty: interrupted; finished samples used\n");
        return exit_interrupted;
    }
    return rc;
}

}  // namespace
}  // namespace nestvp

NESTVP_REGISTER_COMMAND(uncertainty, "uncertainty",
                        "sample the assumed ranges (Latin hypercube): intervals and variance "
                        "shares of every metric",
                        nestvp::uncertainty_main);
