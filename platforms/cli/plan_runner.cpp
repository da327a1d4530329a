#include "platforms/cli/plan_runner.h"

#include <unistd.h>

#include <cstdio>

#include "platforms/cli/child_progress.h"
#include "platforms/cli/cli_outputs.h"
#include "platforms/cli/cli_parse.h"
#include "platforms/cli/command.h"
#include "platforms/cli/log_options.h"
#include "platforms/config/platform_loader.h"
#include "platforms/processes/child_procs.h"
#include "platforms/processes/termination_signals.h"
#include "platforms/records/text_files.h"

namespace nestvp {

void check_plan_sets(const char* cmd, const std::vector<std::string>& sets) {
    try {
        parse_settings(sets);
    } catch (const std::invalid_argument& e) {
        throw usage_error(std::string("nestvp ") + cmd + ": --set: " + e.what());
    }
    refuse_output_keys(cmd, "--set", sets);
}

namespace {
// "point 3 (l2.hz=250 l1.dec_policy=cancel)"
std::string point_where(const sweep_plan& plan, size_t i) {
    std::string where = "point " + std::to_string(i) + " (";
    for (size_t k = 0; k < plan.points[i].size(); ++k) where += (k ? " " : "") + plan.points[i][k];
    return where + ")";
}
}  // namespace

void check_plan_points(const char* cmd, const sweep_plan& plan,
                       const std::function<std::string(size_t)>& label) {
    for (size_t i = 0; i < plan.points.size(); ++i) {
        try {
            load_platform(plan.platform_file, plan.point_sets(i));
        } catch (const std::exception& e) {
            throw usage_error(std::string("nestvp ") + cmd + ": " +
                              (label ? label(i) : point_where(plan, i)) + ": " + e.what());
        }
    }
}

int run_plan_locally(const char* cmd, const sweep_plan& plan, unsigned jobs, bool quiet,
                     std::vector<std::optional<run_record>>& pts,
                     const std::vector<std::string>& logs) {
    std::string tmp;
    try {
        tmp = make_temp_dir(std::string("nestvp-") + cmd);
        write_text_file(tmp + "/sweep.json", sweep_manifest_json(plan));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp %s: %s\n", cmd, e.what());
        return exit_failure;
    }
    std::vector<child_job> cj(plan.points.size());
    for (size_t i = 0; i < cj.size(); ++i) {
        cj[i].argv = plan.point_argv(self_exe_path(), i, tmp + "/" + point_file_name(i));
        cj[i].stderr_path = tmp + "/" + point_file_name(i) + ".err";
        add_child_log_args(cj[i].argv, logs, "point " + std::to_string(i));
        cj[i].argv.insert(cj[i].argv.end(),
                          {"--progress-file", tmp + "/" + point_file_name(i) + ".progress"});
    }
    const bool chatty = !quiet && ::isatty(2);
    std::vector<std::string> progress_files;
    for (const auto& j : cj) progress_files.push_back(j.argv.back());
    children_progress progress(cmd, "points", progress_files, chatty);
    const auto codes = run_children(
        cj, jobs, [] { return stop_requested(); },
        [&](size_t i, int code) { progress.done(i, code); }, [&] { progress.tick(); });
    progress.finish();
    if (!logs.empty())
        for (const auto& j : cj) forward_child_logs(j.stderr_path);
    int rc = exit_ok;
    std::vector<child_end> ends(codes.size());
    for (size_t i = 0; i < codes.size(); ++i) {
        ends[i] = end_of_child(codes[i]);
        if (ends[i] != child_end::failed) continue;
        std::fprintf(stderr, "nestvp %s: %s failed (%s):\n%s", cmd, point_where(plan, i).c_str(),
                     child_exit_text(codes[i]).c_str(), tail_of_file(cj[i].stderr_path).c_str());
        rc = exit_failure;
    }
    std::vector<std::string> problems, stale;
    pts = load_points(plan, tmp, problems, stale);
    for (size_t i = 0; i < codes.size(); ++i) {
        if (ends[i] == child_end::failed) pts[i].reset();  // a record it left is not its result
        if (ends[i] == child_end::stopped_alone) {
            // A signal reached the point alone: its partial record is kept, and the run fails.
            std::fprintf(stderr, "nestvp %s: %s was stopped by a signal%s\n", cmd,
                         point_where(plan, i).c_str(),
                         pts[i] ? " (its record is partial)" : " before it wrote a record");
            rc = exit_failure;
        } else if (ends[i] == child_end::ok && !pts[i]) {
            std::fprintf(stderr, "nestvp %s: %s finished, but its record cannot be read\n", cmd,
                         point_where(plan, i).c_str());
            rc = exit_failure;
        }
    }
    remove_temp_dir(tmp);
    return stop_requested() ? exit_interrupted : rc;
}

int emit_plan_jobs(const char* cmd, const sweep_plan& plan, const std::string& dir, unsigned jobs) {
    const std::string why = ensure_directory(dir);
    if (!why.empty()) {
        std::fprintf(stderr, "nestvp %s: --emit-jobs %s: %s\n", cmd, dir.c_str(), why.c_str());
        return exit_usage;
    }
    const auto old_points = existing_point_files(dir);
    if (!old_points.empty())  // merge would refuse them, but a stale result is easy to miss
        std::fprintf(stderr,
                     "nestvp %s: warning: %s already holds %zu point-*.json file(s) "
                     "(%s, ...) of an earlier plan; remove them before running the jobs\n",
                     cmd, dir.c_str(), old_points.size(), old_points.front().c_str());
    try {
        emit_jobs(plan, self_exe_path(), dir);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp %s: %s\n", cmd, e.what());
        return exit_failure;
    }
    const std::string adir = absolute_path(dir);
    std::printf(
        "wrote %zu jobs to %s/jobs.txt\nrun them, e.g.:  parallel -j %u < %s/jobs.txt\n"
        "then:            nestvp merge %s%s\n",
        plan.points.size(), adir.c_str(), jobs, adir.c_str(), adir.c_str(),
        plan.sampled ? "" : " --csv sweep.csv");
    return exit_ok;
}

}  // namespace nestvp
