#pragma once
// Output files of the commands: `-` means stdout, a file's missing parent folders are
// created, and a write to stdout is checked (a full disk or /dev/full is an error, exit 1).
#include <functional>
#include <string>

#include "platforms/figures/gnuplot_script.h"

namespace nestvp {

// Checks an output given as `flag path` before any work is done, creating its missing
// parent folders; "-" is stdout and always fine. Prints "nestvp <cmd>: flag path: why" and
// returns false when it cannot be written.
bool prepare_output_file(const std::string& cmd, const std::string& flag, const std::string& path);
// The same for a --plot folder (created with its parents).
bool prepare_output_dir(const std::string& cmd, const std::string& flag, const std::string& path);
// prepare_output_dir for --plot, which also needs gnuplot: without it the command stops before
// it runs anything, instead of after hours of runs. `flag` names it in errors (run names
// run.outputs.plot when the platform file gave it).
bool prepare_plot_dir(const std::string& cmd, const std::string& path,
                      const std::string& flag = "--plot");
// Prints "nestvp <cmd>: " and the figures not drawn, if any; returns whether all were drawn.
bool report_figures(const std::string& cmd, const drawn_figures& d);
// Writes text to path, or to stdout for "-"; throws std::runtime_error on failure. A file that
// cannot be written (a full disk after the run) is saved under $TMPDIR, and the error names it.
void write_output(const std::string& path, const std::string& text);
// One output of a command: write_output(path, text()), or the figures draw() makes. A failure is
// printed ("nestvp <cmd>: why") and returns false, so that it does not stop the other outputs.
bool write_one(const std::string& cmd, const std::string& path,
               const std::function<std::string()>& text);
bool draw_one(const std::string& cmd, const std::function<drawn_figures()>& draw);
// Flushes stdout; prints "nestvp <cmd>: cannot write standard output: why" and returns false
// if anything written to it was lost.
bool flush_stdout(const std::string& cmd);

}  // namespace nestvp
