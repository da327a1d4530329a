// Figures as gnuplot scripts, rendered to SVG by gnuplot.
#include "platforms/figures/gnuplot_script.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "platforms/processes/child_procs.h"
#include "platforms/processes/termination_signals.h"
#include "platforms/records/json.h"
#include "platforms/records/text_files.h"

namespace nestvp {

gnuplot_script::gnuplot_script(const std::string& title, int width, int height) {
    // noenhanced: labels are literal text (no ^ _ @ markup).
    m_head = "set terminal svg size " + std::to_string(width) + "," + std::to_string(height) +
             " dynamic noenhanced font \"sans,12\" background \"white\"\n";
    // Twenty distinct colours (ten strong, then ten light), enough for every step of a path.
    static const char* const palette[] = {"1f77b4", "ff7f0e", "2ca02c", "d62728", "9467bd",
                                          "8c564b", "e377c2", "7f7f7f", "bcbd22", "17becf",
                                          "aec7e8", "ffbb78", "98df8a", "ff9896", "c5b0d5",
                                          "c49c94", "f7b6d2", "c7c7c7", "dbdb8d", "9edae5"};
    for (size_t i = 0; i < 20; ++i)
        m_body += "set linetype " + std::to_string(i + 1) + " lc rgb \"#" + palette[i] + "\"\n";
    m_body += "set linetype cycle 20\nset title " + gp_quote(title) + "\n";
}

void gnuplot_script::line(const std::string& command) {
    m_body += command;
    m_body += '\n';
}

void gnuplot_script::data(const std::string& name, const std::vector<std::vector<double>>& rows) {
    m_body += "$" + name + " << EOD\n";
    for (const auto& row : rows) {
        for (size_t i = 0; i < row.size(); ++i) m_body += (i ? " " : "") + gp_number(row[i]);
        m_body += '\n';
    }
    m_body += "EOD\n";
}

std::string gnuplot_script::text(const std::string& default_output) const {
    return "# gnuplot -d -c THIS_FILE OUTPUT.svg (-d: without ~/.gnuplot; the output defaults to " +
           default_output + ")\n" + m_head +
           "set output (ARGC > 0 ? ARG1 : " + gp_quote(default_output) + ")\n" + m_body;
}

std::string gp_quote(const std::string& s) {
    // Single quotes: gnuplot runs a `command` inside double quotes (backquote substitution), so
    // a label from a platform's name or a --grid value could run a shell command.
    std::string out = "'";
    for (char c : s) {
        if (c == '\'') {
            out += "''";
        } else if (c == '\n') {
            out += "'.\"\\n\".'";  // single quotes have no escapes: concatenate a newline
        } else if (c == '\t') {
            out += ' ';
        } else if ((c >= 0 && c < 0x20) || c == 0x7f) {
            out += '?';  // other control characters are not allowed in SVG text
        } else {
            out += c;
        }
    }
    return out + "'";
}

std::string gp_tics(const std::vector<std::string>& labels) {
    std::string out = "(";
    for (size_t i = 0; i < labels.size(); ++i)
        out += (i ? ", " : "") + gp_quote(labels[i]) + " " + std::to_string(i);
    return out + ")";
}

std::string gp_number(double v) {
    return std::isfinite(v) ? json_number(v) : std::string("NaN");
}

const char* const k_no_gnuplot = "gnuplot not found on PATH (Debian package gnuplot-nox)";

std::string find_gnuplot() {
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "");
    for (std::string d; std::getline(dirs, d, ':');) {
        const std::string exe = (d.empty() ? "." : d) + "/gnuplot";
        struct stat st {};
        if (::stat(exe.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
            ::access(exe.c_str(), X_OK) == 0)
            return exe;
    }
    return "";
}

figure_file figure_in(const std::string& dir, const std::string& name) {
    return {dir + "/" + name + ".gp", dir + "/" + name + ".svg"};
}

namespace {
// How long one gnuplot may draw before it is stopped (a figure takes well under a second):
// NESTVP_GNUPLOT_TIMEOUT_S if it is a positive number of seconds.
constexpr double k_gnuplot_timeout_s = 120;

// The limit NESTVP_GNUPLOT_TIMEOUT_S sets, 0 if it sets none, -1 if it is not a limit.
double gnuplot_timeout_from_env() {
    const char* v = std::getenv("NESTVP_GNUPLOT_TIMEOUT_S");
    if (!v || !*v) return 0;
    char* end = nullptr;
    const double s = std::strtod(v, &end);
    return *end == '\0' && s > 0 && std::isfinite(s) ? s : -1;
}

double gnuplot_timeout_s() {
    const double s = gnuplot_timeout_from_env();
    return s > 0 ? s : k_gnuplot_timeout_s;  // a bad value was refused before (gnuplot_env_problem)
}
}  // namespace

std::string gnuplot_env_problem() {
    if (gnuplot_timeout_from_env() >= 0) return "";
    return "NESTVP_GNUPLOT_TIMEOUT_S='" + std::string(std::getenv("NESTVP_GNUPLOT_TIMEOUT_S")) +
           "': expected a positive number of seconds (how long one gnuplot may draw; unset: " +
           json_number(k_gnuplot_timeout_s) + ")";
}

drawn_figures render_figures(const std::vector<std::pair<figure_file, gnuplot_script>>& figures,
                             unsigned max_parallel) {
    drawn_figures out;
    for (const auto& f : figures) {
        const std::string& svg = f.first.svg_path;
        write_text_file(f.first.script_path, f.second.text(svg.substr(svg.find_last_of('/') + 1)));
    }
    if (figures.empty()) return out;
    // An SVG is drawn under a temporary name and renamed when complete. A figure that is not
    // drawn keeps its script and loses any SVG an earlier run left, which it no longer matches.
    const auto drop_old = [&](size_t i) { std::remove(figures[i].first.svg_path.c_str()); };
    const std::string gnuplot = find_gnuplot();
    if (gnuplot.empty()) {
        for (size_t i = 0; i < figures.size(); ++i) drop_old(i);
        const figure_file& f = figures.front().first;
        out.error = std::string(k_no_gnuplot) +
                    "; the figure scripts are written: render each with `gnuplot -d -c NAME.gp "
                    "NAME.svg`, e.g. gnuplot -d -c " +
                    shell_quote(f.script_path) + " " + shell_quote(f.svg_path);
        return out;
    }
    const std::string logs = make_temp_dir("nestvp-gnuplot");  // gnuplot's messages
    const double timeout_s = gnuplot_timeout_s();  // a hung gnuplot does not hang the command
    std::vector<child_job> jobs;
    for (size_t i = 0; i < figures.size(); ++i) {
        const figure_file& f = figures[i].first;
        jobs.push_back({{gnuplot, "-d", "-c", f.script_path, f.svg_path + ".part"},
                        "",
                        logs + "/" + std::to_string(i) + ".log",
                        timeout_s});
    }
    // Only a stop signal during the drawing stops it: the figures of a run that a signal
    // stopped are still drawn, from its partial results.
    const unsigned long stops = stop_signal_count();
    const auto stopped = [stops] { return stop_signal_count() != stops; };
    const std::vector<int> codes = run_children(jobs, std::max(1u, max_parallel), stopped);
    for (size_t i = 0; i < jobs.size(); ++i) {
        const std::string& svg = figures[i].first.svg_path;
        const std::string part = svg + ".part";
        if (codes[i] == 0 && std::rename(part.c_str(), svg.c_str()) == 0) {
            out.svgs.push_back(svg);
            continue;
        }
        std::remove(part.c_str());
        drop_old(i);
        out.error += (out.error.empty() ? "figures not drawn:\n  " : "\n  ") +
                     figures[i].first.script_path + ": ";
        if (codes[i] == 0)
            out.error += "cannot rename " + part + " to " + svg;
        else if (codes[i] == k_child_timed_out)
            out.error += "gnuplot did not finish within " + json_number(timeout_s) +
                         " s and was stopped (NESTVP_GNUPLOT_TIMEOUT_S sets the limit)";
        else if (codes[i] < 0 || stopped())
            out.error += "not drawn (interrupted)";
        else {
            std::string said = tail_of_file(jobs[i].stderr_path, 5);
            while (!said.empty() && said.back() == '\n') said.pop_back();  // one line per figure
            const std::string how = child_exit_text(codes[i]);  // "killed by signal 15 (...)"
            out.error +=
                (how.rfind("killed", 0) == 0 ? "gnuplot was " + how
                                             : "gnuplot exited with " + std::to_string(codes[i])) +
                ": " + said;
        }
    }
    remove_temp_dir(logs);
    return out;
}

}  // namespace nestvp
