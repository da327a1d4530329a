// nestvp compare A.yaml [B.yaml]: two runs, each its own `nestvp run` process (SystemC
// elaborates once per process), and the reference-style table metric | A | B | difference.
#include <unistd.h>

#include <cstdio>

#include "platforms/cli/command.h"
#include "platforms/config/platform_loader.h"
#include "platforms/report/child_procs.h"
#include "platforms/report/cli_args.h"
#include "platforms/report/interrupt.h"
#include "platforms/report/json.h"
#include "platforms/report/plot_files.h"
#include "platforms/report/run_record.h"
#include "platforms/report/svg_plots.h"
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
    "  -j N               run at most N sides at once (default 2)\n"
    "  --quiet            no progress messages\n"
    "  --help             this text\n"
    "\n"
    "example: nestvp compare platforms/reference.yaml --set l1.dec_policy=no-cancel \\\n"
    "             --vs l1.dec_policy=cancel\n"
    "Exit codes: 0 ok, 1 a run failed, 2 bad command line or platform file, 130 interrupted.\n";

std::string indent_json(const std::string& text) {
    std::string out;
    std::string t = text;
    while (!t.empty() && t.back() == '\n') t.pop_back();
    for (char c : t) {
        out += c;
        if (c == '\n') out += "  ";
    }
    return out;
}

std::string join_settings(const std::vector<std::string>& sets) {
    std::string s;
    for (const auto& x : sets) s += (s.empty() ? "" : ", ") + x;
    return s;
}

int compare_main(int argc, char** argv) {
    install_sigint_flag();  // first: a SIGINT while loading still ends in a partial result
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (help_requested(args, k_help)) return exit_ok;
    parsed_args pa;
    std::string file_a, file_b;
    std::vector<std::string> sets_a, sets_b;
    unsigned jobs = 2;
    try {
        pa = parse_args("compare", args,
                        {{"--set", "", true, true},
                         {"--vs", "", true, true},
                         {"--json", "", true, false},
                         {"--plot", "", true, false},
                         {"-j", "--jobs", true, false},
                         {"--quiet", "-q", false, false}});
        if (pa.positional.empty() || pa.positional.size() > 2)
            throw usage_error("nestvp compare: expected one or two platform files, got " +
                              std::to_string(pa.positional.size()));
        if (pa.positional.size() == 1 && !pa.has("--vs"))
            throw usage_error(
                "nestvp compare: with one platform file, give the B side's settings with --vs "
                "KEY=VALUE");
        if (pa.has("-j")) jobs = parse_positive_int("-j", pa.get("-j"));
        try {
            parse_settings(pa.all("--set"));
            parse_settings(pa.all("--vs"));
        } catch (const std::invalid_argument& e) {
            throw usage_error(std::string("nestvp compare: --set/--vs: ") + e.what());
        }
        file_a = pa.positional[0];
        file_b = pa.positional.size() == 2 ? pa.positional[1] : file_a;
        sets_a = pa.all("--set");
        sets_b = sets_a;
        for (const auto& v : pa.all("--vs")) sets_b.push_back(v);
        // Validate both sides here, so a bad file or key fails fast with exit 2.
        load_platform(file_a, sets_a);
        load_platform(file_b, sets_b);
    } catch (const usage_error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return exit_usage;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp compare: %s\n", e.what());
        return exit_usage;
    }
    const std::string json_out = pa.get("--json"), plot_dir = pa.get("--plot");
    if (!check_command_outputs("compare", "--json", json_out, plot_dir)) return exit_usage;

    // Labels: the B side's --vs settings, and the A side's values for the same keys.
    std::string label_a = "A", label_b = "B";
    if (pa.has("--vs")) {
        const settings_list vs = parse_settings(pa.all("--vs"));
        const settings_list sa = parse_settings(sets_a);
        std::vector<std::string> la, lb;
        for (const auto& kv : vs) {
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
        j.stderr_path = tmp + "/" + side[i] + ".err";
    }
    const bool chatty = !pa.has("--quiet") && ::isatty(2);
    if (chatty) std::fprintf(stderr, "nestvp compare: running A and B...\n");
    const auto codes = run_children(cj, jobs, [] { return sigint_received(); });
    int rc = exit_ok;
    run_record rec[2];
    for (int i = 0; i < 2; ++i) {
        if (codes[i] != exit_ok && codes[i] != exit_interrupted) {
            std::fprintf(stderr, "nestvp compare: the %s run failed (exit %d):\n%s",
                         i == 0 ? "A" : "B", codes[i], tail_of_file(cj[i].stderr_path).c_str());
            rc = exit_failure;
            continue;
        }
        try {
            rec[i] =
                parse_run_record(read_text_file(tmp + "/" + side[i] + ".json"), side[i] + ".json");
            if (!plot_dir.empty())
                parse_plot_data(read_text_file(tmp + "/" + side[i] + ".plot"), side[i] + ".plot",
                                rec[i].result);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "nestvp compare: %s\n", e.what());
            rc = exit_failure;
        }
    }
    if (rc == exit_ok) {
        const bool partial = rec[0].result.partial || rec[1].result.partial || sigint_received();
        // The effective settings of each side (a key given twice shows its last value).
        for (int i = 0; i < 2; ++i) {
            std::vector<std::string> eff;
            for (const auto& kv : rec[i].settings) eff.push_back(kv.first + "=" + kv.second);
            std::printf("%s: %s (%s)%s\n", i == 0 ? "A" : "B", (i == 0 ? file_a : file_b).c_str(),
                        rec[i].platform.c_str(),
                        eff.empty() ? "" : (" with " + join_settings(eff)).c_str());
        }
        std::printf("simulated %.3f s and %.3f s%s\n\n", rec[0].result.sim_seconds,
                    rec[1].result.sim_seconds, partial ? " (PARTIAL: interrupted)" : "");
        const auto rows = compare_rows(rec[0], rec[1]);
        std::fputs(compare_table(rows, label_a, label_b).c_str(), stdout);
        const std::string breakdown = compare_breakdown_tables(rec[0], rec[1], label_a, label_b);
        if (!breakdown.empty()) std::printf("\n%s", breakdown.c_str());
        std::fflush(stdout);
        try {
            if (!json_out.empty()) {
                json_writer w;
                w.begin_object();
                w.member("label_a", label_a);
                w.member("label_b", label_b);
                w.raw_member("a", indent_json(run_record_json(rec[0])));
                w.raw_member("b", indent_json(run_record_json(rec[1])));
                w.begin_object("difference_pct");
                for (const auto& r : rows) {
                    if (r.a == 0) {
                        w.raw_member(r.metric, "null");  // undefined relative to zero
                    } else {
                        w.member(r.metric, (r.b - r.a) / r.a * 100.0);
                    }
                }
                w.end_object();
                w.end_object();
                write_text_file(json_out, w.str());
            }
            if (!plot_dir.empty())
                write_run_plots(plot_dir, {{label_a, &rec[0].result}, {label_b, &rec[1].result}});
        } catch (const std::exception& e) {
            std::fprintf(stderr, "nestvp compare: %s\n", e.what());
            rc = exit_failure;
        }
        if (rc == exit_ok && partial) rc = exit_interrupted;
    }
    if (sigint_received() && rc == exit_failure) rc = exit_interrupted;
    remove_temp_dir(tmp);
    return rc;
}

}  // namespace
}  // namespace nestvp

NESTVP_REGISTER_COMMAND(compare, "compare",
                        "run two platforms or settings and print metric | A | B | difference",
                        nestvp::compare_main);
