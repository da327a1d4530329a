#pragma once
// Child processes for compare and sweep: SystemC elaborates once per process, so each run
// point is its own `nestvp run` process. At most N run at once; results are collected by
// index, so their order never depends on which finishes first.
#include <functional>
#include <string>
#include <vector>

namespace nestvp {

struct child_job {
    std::vector<std::string> argv;  // argv[0] is the executable path
    std::string stdout_path;        // empty: /dev/null
    std::string stderr_path;        // empty: inherit
    double timeout_s = 0;  // > 0: runs in its own process group, killed (SIGKILL) with all it
                           // started if still running after this long
};

// A job's code when it ran past its timeout_s and was killed.
constexpr int k_child_timed_out = -2;

// Exit code of each job: its exit status, 128+signal if killed, -1 if never started
// (stopped early), k_child_timed_out if it ran past its timeout_s, and 127 if it could not be
// executed.
// stop() is polled between events; once it returns true no further job starts and SIGTERM
// is sent once to the running ones (`nestvp run` writes partial results), which are waited for.
// on_done(index, code) is called as each job ends, on_tick() about every 20 ms while jobs
// run (progress lines). Jobs start with posix_spawn; only their pids are waited for.
std::vector<int> run_children(const std::vector<child_job>& jobs, unsigned max_parallel,
                              const std::function<bool()>& stop = {},
                              const std::function<void(size_t, int)>& on_done = {},
                              const std::function<void()>& on_tick = {});

// Absolute path of the running executable (/proc/self/exe).
std::string self_exe_path();
// Absolute form of `path` (realpath if it exists, else cwd-joined).
std::string absolute_path(const std::string& path);
// POSIX shell single-quoting: abc -> abc, a b -> 'a b', it's -> 'it'\''s'.
std::string shell_quote(const std::string& s);

// Where temporary files go: $TMPDIR, or /tmp.
std::string temp_root();
// A fresh private directory under temp_root(); throws std::runtime_error on failure.
std::string make_temp_dir(const std::string& prefix);
// Removes the files directly inside dir, then dir (temp dirs of compare and sweep).
void remove_temp_dir(const std::string& dir);
// The last max_lines lines of a text file ("" if unreadable): a failed child's stderr.
std::string tail_of_file(const std::string& path, size_t max_lines = 20);
// How a child ended, from run_children's code: "exit 1", or "killed by signal 8 (Floating
// point exception)" for 128 + signal (130 is the exit of a run that handled a stop signal).
std::string child_exit_text(int code);

}  // namespace nestvp
