// nestvp compare A.yaml [B.yaml]: two runs, each its own `nestvp run` process (SystemC
// elaborates once per process), and the reference-style table metric | A | B | difference.
#include <unistd.h>

#include <cstdio>

#include "platforms/cli/child_progress.h"
#include "platforms/cli/cli_outputs.h"
#include "platforms/cli/cli_parse.h"
#include "platforms/cli/command.h"
#include "platforms/cli/log_options.h"
#include "platforms/config/platform_loader.h"
#include "platforms/report/child_procs.h"
#include "platforms/report/interrupt.h"
#include "platforms/report/json.h"
#include "platforms/report/plot_data.h"
#include "platforms/report/plot_files.h"
#include "platforms/report/run_record.h"
#include "platforms/report/tables.h"

namespace nestvp {
namespace {

const char* const k_help =
    "usage: nestvp compare A.yaml [B.yaml] [options]\n"
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

int compare_main(int argc, char** argv) {
    install_stop_signals();  // first: a stop signal while loading still ends in a partial result
    std::vector<std::string> files, sets_a, vs, sets_b;
    std::string jobs_text, json_out, plot_dir;
    bool quiet = false;
    cli_parser cli("compare", k_help);
    cli.positionals(files);
    cli.list("--set", sets_a);
    cli.list("--vs", vs);
    cli.value("--json", json_out);
    cli.value("--plot", plot_dir);
    cli.value("-j,--jobs", jobs_text);
    cli.flag("-q,--quiet", quiet);
    std::vector<std::string> logs;
    cli.list("--log", logs);
    std::string file_a, file_b;
    unsigned jobs = 0;
    try {
        if (!cli.parse({argv + 1, argv + argc})) return cli.help_exit();
        apply_log_options("compare", logs);
        if (files.empty() || files.size() > 2)
            throw usage_error("nestvp compare: expected one or two platform files, got " +
                              std::to_string(files.size()));
        if (files.size() == 1 && vs.empty())
            throw usage_error(
                "nestvp compare: with one platform file, give the B side's settings with --vs "
                "KEY=VALUE");
        jobs = jobs_option(cli, jobs_text);
        for (const auto* f : {&sets_a, &vs}) {
            const char* flag = f == &vs ? "--vs" : "--set";
            try {
                parse_settings(*f);
            } catch (const std::invalid_argument& e) {
                throw usage_error(std::string("nestvp compare: ") + flag + ": " + e.what());
            }
            refuse_output_keys("compare", flag, *f);
        }
        file_a = files[0];
        file_b = files.size() == 2 ? files[1] : file_a;
        sets_b = sets_a;
        for (const auto& v : vs) sets_b.push_back(v);
        // Validate both sides here, so a bad file or key fails fast with exit 2; a bad key
        // that only --vs gives is labelled --vs.
        load_platform(file_a, sets_a);
        try {
            load_platform(file_b, sets_b);
        } catch (const std::exception& e) {
            if (files.size() == 2) throw;
            throw usage_error(std::string("nestvp compare: --vs: ") + e.what());
        }
    } catch (const usage_error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return exit_usage;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp compare: %s\n", e.what());
        return exit_usage;
    }
    if (!prepare_output_file("compare", "--json", json_out) ||
        !prepare_plot_dir("compare", plot_dir))
        return exit_usage;

    // Labels: the B side's --vs settings, and the A side's values for the same keys.
    std::string label_a = "A", label_b = "B";
    if (!vs.empty()) {
        const settings_list vsl = parse_settings(vs);
        const settings_list sa = parse_settings(sets_a);
        std::vector<std::string> la, lb;
        for (const auto& kv : vsl) {
            lb.push_back(kv.first + "=" + kv.second);
            std::string v = "(file)";
            for (const auto& a : sa)
                if (a.first == kv.first) v = a.second;
            la.push_back(kv.first + "=" + v);
        }
        label_a = "A: " + join_settings(la);
        label_b = "B: " + join_settings(lb);
    }

    std::string tmp;
    try {
        tmp = make_temp_dir("nestvp-compare");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp compare: %s\n", e.what());
        return exit_failure;
    }
    const std::string exe = self_exe_path();
    std::vector<child_job> cj(2);
    const std::string side[2] = {"a", "b"};
    for (int i = 0; i < 2; ++i) {
        auto& j = cj[i];
        j.argv = {exe, "run", i == 0 ? file_a : file_b};
        for (const auto& s : i == 0 ? sets_a : sets_b) {
            j.argv.push_back("--set");
            j.argv.push_back(s);
        }
        j.argv.insert(j.argv.end(),
                      {"--json", tmp + "/" + side[i] + ".json", "--quiet", "--no-file-outputs"});
        if (!plot_dir.empty())
            j.argv.insert(j.argv.end(), {"--plot-data", tmp + "/" + side[i] + ".plot"});
        add_child_log_args(j.argv, logs, side[i]);
        j.argv.insert(j.argv.end(), {"--progress-file", tmp + "/" + side[i] + ".progress"});
        j.stderr_path = tmp + "/" + side[i] + ".err";
    }
    const bool chatty = !quiet && ::isatty(2);
    children_progress progress("compare", "sides", {tmp + "/a.progress", tmp + "/b.progress"},
                               chatty);
    const auto codes = run_children(
        cj, jobs, [] { return stop_requested(); },
        [&](size_t i, int code) { progress.done(i, code); }, [&] { progress.tick(); });
    progress.finish();
    if (!logs.empty())
        for (const auto& j : cj) forward_child_logs(j.stderr_path);
    int rc = exit_ok;
    run_record rec[2];
    bool have[2] = {false, false}, alone = false;
    std::string why_not[2];  // why a side has no record
    for (int i = 0; i < 2; ++i) {
        const child_end end = end_of_child(codes[i]);
        const char* name = i == 0 ? "A" : "B";
        if (end == child_end::failed) {
            std::fprintf(stderr, "nestvp compare: the %s run failed (%s):\n%s", name,
                         child_exit_text(codes[i]).c_str(),
                         tail_of_file(cj[i].stderr_path).c_str());
            why_not[i] = "failed";
            rc = exit_failure;
            continue;
        }
        if (end != child_end::ok) {
            const bool wrote = ::access((tmp + "/" + side[i] + ".json").c_str(), F_OK) == 0;
            if (end == child_end::stopped_alone)
                std::fprintf(stderr, "nestvp compare: the %s run was stopped by a signal%s\n", name,
                             wrote ? " (its record is partial)" : " before it wrote a record");
            alone = alone || end == child_end::stopped_alone;
            if (!wrote) {  // a stopped command says so below
                why_not[i] = "was stopped before it wrote a record";
                rc = exit_failure;
                continue;
            }
        }
        try {
            rec[i] =
                parse_run_record(read_text_file(tmp + "/" + side[i] + ".json"), side[i] + ".json");
            if (!plot_dir.empty())
                parse_plot_data(read_text_file(tmp + "/" + side[i] + ".plot"), side[i] + ".plot",
                                rec[i].result);
            have[i] = true;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "nestvp compare: %s\n", e.what());
            why_not[i] = "failed";
            rc = exit_failure;
        }
    }
    if (rc == exit_ok) {
        const bool partial = rec[0].result.partial || rec[1].result.partial || stop_requested();
        auto rows = compare_rows(rec[0], rec[1]);
        const double sim_a = rec[0].result.sim_seconds, sim_b = rec[1].result.sim_seconds;
        const bool per_s = normalise_counts_per_second(rows, sim_a, sim_b);
        if (json_out != "-") {  // with --json -, stdout carries only the JSON
            // The effective settings of each side (a key given twice shows its last value).
            for (int i = 0; i < 2; ++i) {
                std::vector<std::string> eff;
                for (const auto& kv : rec[i].settings) eff.push_back(kv.first + "=" + kv.second);
                std::printf("%s: %s (%s)%s\n", i == 0 ? "A" : "B",
                            (i == 0 ? file_a : file_b).c_str(), rec[i].platform.c_str(),
                            eff.empty() ? "" : (" with " + join_settings(eff)).c_str());
            }
            std::printf("simulated %.3f s and %.3f s%s\n\n", rec[0].result.sim_seconds,
                        rec[1].result.sim_seconds, partial ? " (PARTIAL: interrupted)" : "");
            if (per_s)
                std::printf(
                    "the runs simulated different durations: counts are per simulated "
                    "second (count / that run's simulated seconds)\n\n");
            std::fputs(compare_table(rows, label_a, label_b).c_str(), stdout);
            const std::string breakdown =
                compare_breakdown_tables(rec[0], rec[1], label_a, label_b);
            if (!breakdown.empty()) std::printf("\n%s", breakdown.c_str());
        }
        if (!flush_stdout("compare")) rc = exit_failure;
        if (!json_out.empty() && !write_one("compare", json_out, [&] {
                json diff = json::object();
                for (const auto& r : rows)  // undefined relative to zero: null
                    diff[r.metric] = r.a == 0 ? json(nullptr) : json_num((r.b - r.a) / r.a * 100.0);
                return json_text(compare_doc(label_a, label_b, &rec[0], &rec[1], diff));
            }))
            rc = exit_failure;
        if (!plot_dir.empty() && !draw_one("compare", [&] {
                return write_run_plots(
                    plot_dir, {{label_a, &rec[0].result}, {label_b, &rec[1].result}}, jobs);
            }))
            rc = exit_failure;
        if (rc == exit_ok && partial) rc = alone ? exit_failure : exit_interrupted;
    } else if (have[0] || have[1]) {
        write_finished_side(rec, have, label_a, label_b, json_out, why_not[have[0] ? 1 : 0]);
    } else if (stop_requested()) {
        std::fprintf(stderr, "nestvp compare: interrupted before either run wrote a record\n");
    }
    if (stop_requested() && rc == exit_failure && !alone) rc = exit_interrupted;
    remove_temp_dir(tmp);
    return rc;
}

}  // namespace
}  // namespace nestvp

NESTVP_REGISTER_COMMAND(compare, "compare",
                        "run two platforms or settings and print metric | A | B | difference",
                        nestvp::compare_main);
