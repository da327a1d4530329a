// nestvp compare A.yaml [B.yaml]: two runs, each its own `nestvp run` process (SystemC
// elaborates once per process), and the reference-style table metric | A | B | difference.
#include <unistd.h>

#include <cstdio>

#include "platforms/cli/child_progress.h"
#include "platforms/cli/cli_outputs.h"
#include "platforms/cli/cli_parse.h"
#include "platforms/cli/command.h"
#include "platforms/cli/compare_results.h"
#include "platforms/cli/log_options.h"
#include "platforms/config/platform_loader.h"
#include "platforms/figures/plot_data.h"
#include "platforms/figures/plot_files.h"
#include "platforms/processes/child_procs.h"
#include "platforms/processes/termination_signals.h"
#include "platforms/records/json.h"
#include "platforms/records/run_record.h"
#include "platforms/records/text_files.h"
#include "platforms/report/tables.h"

namespace nestvp {
namespace {

const char* const k_help =
    "usage: nestvp compare A.yaml [B.yaml] [options]\n"
    "       nestvp compare --results A B [--names NAME_A,NAME_B] [--json OUT]\n"
    "\n"
    "Runs two points and prints the reference-style table: metric | A | B | difference %.\n"
    "The two points are two files, or one file under two settings (--vs).\n"
    "\n"
    "options:\n"
    "  --set KEY=VALUE    override a key on both sides (repeatable)\n"
    "  --vs KEY=VALUE     override a key on the B side only (repeatable)\n"
    "  --json OUT         write {\"a\": run, \"b\": run, \"difference_pct\": {...}}\n"
    "  --plot DIR         write latency CDFs and breakdowns (both sides per figure) and the\n"
    "                     exit rate per vCPU of each side\n"
    "  --perf-script STEM write each side's tracepoints to STEM-a.txt and STEM-b.txt\n"
    "                     (run --perf-script); --perf-window S:E bounds them\n"
    "  --trace-events STEM  write each side's timeline to STEM-a.json and STEM-b.json\n"
    "  --results          A and B are results, not platforms: run records, trace-stats JSON,\n"
    "                     real-stack counts JSON or trace texts (perf script, tracefs); nothing\n"
    "                     is run. --names labels the two columns\n"
    "  -j N               run at most N sides at once (default: the number of "
    "cores)\n" NESTVP_LOG_OPTION_HELP
    "                         (each line begins with its side, a: or b:)\n"
    "  --quiet            no progress messages\n"
    "  --help             this text\n"
    "\n"
    "example: nestvp compare platforms/reference.yaml --set l1.dec_policy=no-cancel \\\n"
    "             --vs l1.dec_policy=cancel\n"
    "Exit codes: 0 ok, 1 a run failed or was stopped on its own, 2 bad command line or\n"
    "platform file, 130 interrupted.\n";

std::string join_settings(const std::vector<std::string>& sets) {
    std::string s;
    for (const auto& x : sets) s += (s.empty() ? "" : ", ") + x;
    return s;
}

// compare --json: the labels, each side's record (null for a side that failed) and the
// difference per metric (null when there is none).
json compare_doc(const std::string& label_a, const std::string& label_b, const run_record* a,
                 const run_record* b, json difference) {
    json w = json::object();
    w["label_a"] = label_a;
    w["label_b"] = label_b;
    w["a"] = a ? run_record_doc(*a) : json(nullptr);
    w["b"] = b ? run_record_doc(*b) : json(nullptr);
    w["difference_pct"] = std::move(difference);
    return w;
}

// One side has no record (`other_why`: "failed", or stopped before it wrote one): the other's
// results are not lost. Its summary goes to stdout, and --json holds its record, with null for
// the side without one and no difference.
void write_finished_side(const run_record (&rec)[2], const bool (&have)[2],
                         const std::string& label_a, const std::string& label_b,
                         const std::string& json_out, const std::string& other_why) {
    const int i = have[0] ? 0 : 1;
    if (json_out != "-") {
        std::printf("%s %s (the other run %s):\n", (i == 0 ? label_a : label_b).c_str(),
                    rec[i].result.partial ? "stopped" : "finished", other_why.c_str());
        std::fputs(summary_table(rec[i]).c_str(), stdout);
    }
    flush_stdout("compare");
    if (json_out.empty()) return;
    write_one("compare", json_out, [&] {
        return json_text(compare_doc(label_a, label_b, have[0] ? &rec[0] : nullptr,
                                     have[1] ? &rec[1] : nullptr, nullptr));
    });
}

// The command line of compare.
struct compare_args {
    std::vector<std::string> files, sets_a, vs, sets_b;
    std::string jobs_text, json_out, plot_dir;
    std::vector<std::string> logs;  // --log, handed to both sides
    std::string perf_script, perf_window, trace_events, names;
    bool quiet = false, results = false;
    std::string file_a, file_b;
    unsigned jobs = 0;
};

// The two sides as they came back from their runs.
struct compare_sides {
    run_record rec[2];
    bool have[2] = {false, false};
    bool alone = false;      // a side was stopped by a signal that reached it alone
    std::string why_not[2];  // why a side has no record
    int rc = exit_ok;
};

const std::string k_side[2] = {"a", "b"};

// Checks the command line and both sides' platforms, so a bad file or key fails fast with
// exit 2; a bad key that only --vs gives is labelled --vs.
void check_compare_args(const cli_parser& cli, compare_args& a) {
    if (a.files.empty() || a.files.size() > 2)
        throw usage_error("nestvp compare: expected one or two platform files, got " +
                          std::to_string(a.files.size()));
    if (a.files.size() == 1 && a.vs.empty())
        throw usage_error(
            "nestvp compare: with one platform file, give the B side's settings with --vs "
            "KEY=VALUE");
    a.jobs = jobs_option(cli, a.jobs_text);
    for (const auto* f : {&a.sets_a, &a.vs}) {
        const char* flag = f == &a.vs ? "--vs" : "--set";
        try {
            parse_settings(*f);
        } catch (const std::invalid_argument& e) {
            throw usage_error(std::string("nestvp compare: ") + flag + ": " + e.what());
        }
        refuse_output_keys("compare", flag, *f);
    }
    a.file_a = a.files[0];
    a.file_b = a.files.size() == 2 ? a.files[1] : a.file_a;
    a.sets_b = a.sets_a;
    for (const auto& v : a.vs) a.sets_b.push_back(v);
    load_platform(a.file_a, a.sets_a);
    try {
        load_platform(a.file_b, a.sets_b);
    } catch (const std::exception& e) {
        if (a.files.size() == 2) throw;
        throw usage_error(std::string("nestvp compare: --vs: ") + e.what());
    }
}

compare_results_args results_args(const compare_args& a) {
    compare_results_args r;
    r.files = a.files;
    r.json_out = a.json_out;
    if (!a.names.empty()) {
        const auto comma = a.names.find(',');
        r.names = {a.names.substr(0, comma)};
        if (comma != std::string::npos) r.names.push_back(a.names.substr(comma + 1));
    }
    return r;
}

// Parses and checks the command line; the exit code when compare ends here, else -1.
int parse_compare_args(int argc, char** argv, compare_args& a) {
    cli_parser cli("compare", k_help);
    cli.positionals(a.files);
    cli.list("--set", a.sets_a);
    cli.list("--vs", a.vs);
    cli.value("--json", a.json_out);
    cli.value("--plot", a.plot_dir);
    cli.value("-j,--jobs", a.jobs_text);
    cli.flag("-q,--quiet", a.quiet);
    cli.list("--log", a.logs);
    cli.value("--perf-script", a.perf_script);
    cli.value("--perf-window", a.perf_window);
    cli.value("--trace-events", a.trace_events);
    cli.flag("--results", a.results);
    cli.value("--names", a.names);
    try {
        if (!cli.parse({argv + 1, argv + argc})) return cli.help_exit();
        if (a.results) return compare_results(results_args(a));
        if (!a.names.empty()) throw usage_error("nestvp compare: --names needs --results");
        if (!a.perf_window.empty() && a.perf_script.empty())
            throw usage_error("nestvp compare: --perf-window needs --perf-script STEM");
        if (!a.perf_window.empty()) parse_window("--perf-window", a.perf_window);
        apply_log_options("compare", a.logs);
        check_compare_args(cli, a);
    } catch (const usage_error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return exit_usage;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp compare: %s\n", e.what());
        return exit_usage;
    }
    if (!prepare_output_file("compare", "--json", a.json_out) ||
        !prepare_plot_dir("compare", a.plot_dir))
        return exit_usage;
    return -1;
}

// Labels: the B side's --vs settings, and the A side's values for the same keys.
std::pair<std::string, std::string> side_labels(const compare_args& a) {
    if (a.vs.empty()) return {"A", "B"};
    const settings_list vsl = parse_settings(a.vs);
    const settings_list sa = parse_settings(a.sets_a);
    std::vector<std::string> la, lb;
    for (const auto& kv : vsl) {
        lb.push_back(kv.first + "=" + kv.second);
        std::string v = "(file)";
        for (const auto& s : sa)
            if (s.first == kv.first) v = s.second;
        la.push_back(kv.first + "=" + v);
    }
    return {"A: " + join_settings(la), "B: " + join_settings(lb)};
}

// Each side is `nestvp run` writing its record (and plot data) into tmp.
std::vector<child_job> side_jobs(const compare_args& a, const std::string& tmp) {
    const std::string exe = self_exe_path();
    std::vector<child_job> cj(2);
    for (int i = 0; i < 2; ++i) {
        auto& j = cj[i];
        j.argv = {exe, "run", i == 0 ? a.file_a : a.file_b};
        for (const auto& s : i == 0 ? a.sets_a : a.sets_b) {
            j.argv.push_back("--set");
            j.argv.push_back(s);
        }
        j.argv.insert(j.argv.end(),
                      {"--json", tmp + "/" + k_side[i] + ".json", "--quiet", "--no-file-outputs"});
        if (!a.plot_dir.empty())
            j.argv.insert(j.argv.end(), {"--plot-data", tmp + "/" + k_side[i] + ".plot"});
        if (!a.perf_script.empty())
            j.argv.insert(j.argv.end(),
                          {"--perf-script", a.perf_script + "-" + k_side[i] + ".txt"});
        if (!a.perf_window.empty()) j.argv.insert(j.argv.end(), {"--perf-window", a.perf_window});
        if (!a.trace_events.empty())
            j.argv.insert(j.argv.end(),
                          {"--trace-events", a.trace_events + "-" + k_side[i] + ".json"});
        add_child_log_args(j.argv, a.logs, k_side[i]);
        j.argv.insert(j.argv.end(), {"--progress-file", tmp + "/" + k_side[i] + ".progress"});
        j.stderr_path = tmp + "/" + k_side[i] + ".err";
    }
    return cj;
}

std::vector<int> run_sides(const std::vector<child_job>& cj, const compare_args& a,
                           const std::string& tmp) {
    const bool chatty = !a.quiet && ::isatty(2);
    children_progress progress("compare", "sides", {tmp + "/a.progress", tmp + "/b.progress"},
                               chatty);
    const auto codes = run_children(
        cj, a.jobs, [] { return stop_requested(); },
        [&](size_t i, int code) { progress.done(i, code); }, [&] { progress.tick(); });
    progress.finish();
    if (!a.logs.empty())
        for (const auto& j : cj) forward_child_logs(j.stderr_path);
    return codes;
}

// Side i's record from its run's exit code and files; what went wrong is said on stderr.
void collect_side(int i, int code, const child_job& job, const compare_args& a,
                  const std::string& tmp, compare_sides& s) {
    const child_end end = end_of_child(code);
    const char* name = i == 0 ? "A" : "B";
    if (end == child_end::failed) {
        std::fprintf(stderr, "nestvp compare: the %s run failed (%s):\n%s", name,
                     child_exit_text(code).c_str(), tail_of_file(job.stderr_path).c_str());
        s.why_not[i] = "failed";
        s.rc = exit_failure;
        return;
    }
    if (end != child_end::ok) {
        const bool wrote = ::access((tmp + "/" + k_side[i] + ".json").c_str(), F_OK) == 0;
        if (end == child_end::stopped_alone)
            std::fprintf(stderr, "nestvp compare: the %s run was stopped by a signal%s\n", name,
                         wrote ? " (its record is partial)" : " before it wrote a record");
        s.alone = s.alone || end == child_end::stopped_alone;
        if (!wrote) {  // a stopped command says so below
            s.why_not[i] = "was stopped before it wrote a record";
            s.rc = exit_failure;
            return;
        }
    }
    try {
        s.rec[i] =
            parse_run_record(read_text_file(tmp + "/" + k_side[i] + ".json"), k_side[i] + ".json");
        if (!a.plot_dir.empty())
            parse_plot_data(read_text_file(tmp + "/" + k_side[i] + ".plot"), k_side[i] + ".plot",
                            s.rec[i].result);
        s.have[i] = true;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp compare: %s\n", e.what());
        s.why_not[i] = "failed";
        s.rc = exit_failure;
    }
}

// The terminal report: each side's platform and effective settings (a key given twice shows
// its last value), the simulated time, the table and the breakdowns.
void print_comparison(const compare_args& a, const compare_sides& s,
                      const std::vector<compare_row>& rows, bool per_s, bool partial,
                      const std::pair<std::string, std::string>& labels) {
    for (int i = 0; i < 2; ++i) {
        std::vector<std::string> eff;
        for (const auto& kv : s.rec[i].settings) eff.push_back(kv.first + "=" + kv.second);
        std::printf("%s: %s (%s)%s\n", i == 0 ? "A" : "B", (i == 0 ? a.file_a : a.file_b).c_str(),
                    s.rec[i].platform.c_str(),
                    eff.empty() ? "" : (" with " + join_settings(eff)).c_str());
    }
    std::printf("simulated %.3f s and %.3f s%s\n\n", s.rec[0].result.sim_seconds,
                s.rec[1].result.sim_seconds, partial ? " (PARTIAL: interrupted)" : "");
    if (per_s)
        std::printf(
            "the runs simulated different durations: counts are per simulated "
            "second (count / that run's simulated seconds)\n\n");
    std::fputs(compare_table(rows, labels.first, labels.second).c_str(), stdout);
    const std::string breakdown =
        compare_breakdown_tables(s.rec[0], s.rec[1], labels.first, labels.second);
    if (!breakdown.empty()) std::printf("\n%s", breakdown.c_str());
}

// Both sides have a record: the table, --json and --plot. Returns the exit code.
int report_comparison(const compare_args& a, const compare_sides& s,
                      const std::pair<std::string, std::string>& labels) {
    int rc = exit_ok;
    const bool partial = s.rec[0].result.partial || s.rec[1].result.partial || stop_requested();
    auto rows = compare_rows(s.rec[0], s.rec[1]);
    const double sim_a = s.rec[0].result.sim_seconds, sim_b = s.rec[1].result.sim_seconds;
    const bool per_s = normalise_counts_per_second(rows, sim_a, sim_b);
    // With --json -, stdout carries only the JSON.
    if (a.json_out != "-") print_comparison(a, s, rows, per_s, partial, labels);
    if (!flush_stdout("compare")) rc = exit_failure;
    if (!a.json_out.empty() && !write_one("compare", a.json_out, [&] {
            json diff = json::object();
            for (const auto& r : rows)  // undefined relative to zero: null
                diff[r.metric] = r.a == 0 ? json(nullptr) : json_num((r.b - r.a) / r.a * 100.0);
            return json_text(compare_doc(labels.first, labels.second, &s.rec[0], &s.rec[1], diff));
        }))
        rc = exit_failure;
    if (!a.plot_dir.empty() && !draw_one("compare", [&] {
            return write_run_plots(
                a.plot_dir, {{labels.first, &s.rec[0].result}, {labels.second, &s.rec[1].result}},
                a.jobs);
        }))
        rc = exit_failure;
    if (rc == exit_ok && partial) rc = s.alone ? exit_failure : exit_interrupted;
    return rc;
}

int compare_main(int argc, char** argv) {
    install_stop_signals();  // first: a stop signal while loading still ends in a partial result
    compare_args a;
    if (const int rc = parse_compare_args(argc, argv, a); rc >= 0) return rc;
    const auto labels = side_labels(a);
    std::string tmp;
    try {
        tmp = make_temp_dir("nestvp-compare");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp compare: %s\n", e.what());
        return exit_failure;
    }
    const std::vector<child_job> cj = side_jobs(a, tmp);
    const std::vector<int> codes = run_sides(cj, a, tmp);
    compare_sides s;
    for (int i = 0; i < 2; ++i) collect_side(i, codes[i], cj[i], a, tmp, s);
    int rc = s.rc;
    if (rc == exit_ok) {
        rc = report_comparison(a, s, labels);
    } else if (s.have[0] || s.have[1]) {
        write_finished_side(s.rec, s.have, labels.first, labels.second, a.json_out,
                            s.why_not[s.have[0] ? 1 : 0]);
    } else if (stop_requested()) {
        std::fprintf(stderr, "nestvp compare: interrupted before either run wrote a record\n");
    }
    if (stop_requested() && rc == exit_failure && !s.alone) rc = exit_interrupted;
    remove_temp_dir(tmp);
    return rc;
}

}  // namespace
}  // namespace nestvp

NESTVP_REGISTER_COMMAND(compare, "compare",
                        "run two platforms or settings and print metric | A | B | difference",
                        nestvp::compare_main);
