#pragma once
// Helpers for the CLI tests: temp dirs, running commands and capturing their output,
// checking SVG with xmllint.
#include <csignal>
#include <string>
#include <vector>

namespace nestvp::test {

// A fresh directory under the build tree, removed by the caller's test fixture if wanted.
std::string fresh_dir(const std::string& name);
std::string slurp(const std::string& path);
bool file_exists(const std::string& path);

struct cmd_result {
    int code = -1;  // exit status, 128+signal if killed
    std::string out, err;
};
// Runs argv (argv[0] a path), capturing stdout and stderr via files in `dir`.
cmd_result run_cmd(const std::vector<std::string>& argv, const std::string& dir);
// run_cmd, but the command gets signal `sig` after wait_ms (it alone: not a terminal's whole
// process group); code is its exit status, or -1 if it did not exit normally. The signals sent
// have their default action in the command whatever this process does with them.
cmd_result run_until_signal(const std::vector<std::string>& argv, const std::string& dir,
                            int wait_ms, int sig = SIGINT);
// The same with several signals, each wait_ms after the one before; alive[k] says whether the
// command was still running when step k came (a step after its end sends nothing). A step
// `to_children` signals the command's child processes instead of the command, once they catch
// the signal; if none does within 60 s, the command and its children are killed (code -1).
struct signal_step {
    int wait_ms;
    int sig;
    bool to_children = false;
};
cmd_result run_with_signals(const std::vector<std::string>& argv, const std::string& dir,
                            const std::vector<signal_step>& steps, std::vector<bool>& alive);
// Marks the run record at `path` partial, as a run that a signal stopped writes it; false if
// the record has no "partial": false to change.
bool mark_partial(const std::string& path);
// `nestvp` arguments -> argv with the built binary first.
std::vector<std::string> nestvp(std::vector<std::string> args);

// xmllint --noout on path: true if well-formed; `why` gets xmllint's message otherwise.
bool xml_well_formed(const std::string& path, std::string& why);
// How many times `needle` occurs in `hay`.
size_t count_of(const std::string& hay, const std::string& needle);
// The JSON text without its wall_seconds value (the only host-dependent field).
std::string without_wall(const std::string& json);

}  // namespace nestvp::test
