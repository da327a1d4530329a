#pragma once
// Figures as gnuplot scripts (Debian gnuplot-nox draws them). A script is self-contained: its
// data sit inline as named data blocks, and `gnuplot -d -c NAME.gp NAME.svg` renders it (-d: no
// ~/.gnuplot, whose settings could change the figure), so a user can restyle a figure and render
// it again. Numbers are written in the records' one form
// (json_number), NaN where a value is missing.
#include <string>
#include <vector>

namespace nestvp {

class gnuplot_script {
public:
    // An SVG figure of width x height pixels under `title`.
    gnuplot_script(const std::string& title, int width, int height);

    // Appends one command line.
    void line(const std::string& command);
    // Appends `$name << EOD`, one line per row (values separated by spaces), `EOD`.
    void data(const std::string& name, const std::vector<std::vector<double>>& rows);
    // The script; it renders to its first argument, else to `default_output`.
    std::string text(const std::string& default_output) const;

private:
    std::string m_head;
    std::string m_body;
};

// A gnuplot string literal that reaches the figure as it is: single-quoted (no escapes, and no
// backquote command substitution, which double quotes do), ' doubled, a newline concatenated as
// 'a'."\n".'b', a tab as a space, other control characters (not allowed in SVG text) as '?'.
std::string gp_quote(const std::string& s);
// Tic marks named by labels at 0, 1, 2, ...: ('a' 0, 'b' 1).
std::string gp_tics(const std::vector<std::string>& labels);
// A number as gnuplot reads it: json_number(v), or NaN when v is not finite.
std::string gp_number(double v);

// A figure to draw: its script and the SVG it makes.
struct figure_file {
    std::string script_path;  // DIR/NAME.gp
    std::string svg_path;     // DIR/NAME.svg
};
figure_file figure_in(const std::string& dir, const std::string& name);

// gnuplot's path on PATH, or "" (execvp's search, done here because posix_spawn takes a path).
std::string find_gnuplot();
// What to say when find_gnuplot() finds nothing: the problem and the package to install.
extern const char* const k_no_gnuplot;
// What is wrong with the environment's NESTVP_GNUPLOT_TIMEOUT_S (render_figures' limit per
// gnuplot), or "" when it is unset or a positive number of seconds.
std::string gnuplot_env_problem();

// What render_figures drew, and what it did not.
struct drawn_figures {
    std::vector<std::string> svgs;  // the SVGs drawn, in the order given
    std::string error;  // "": all drawn; else "figures not drawn:" and a line per figure, or
                        // that gnuplot is not installed
};

// Writes each script (rendering by default to its SVG's file name) and renders them with
// gnuplot, at most max_parallel at once (the command's -j); after a stop signal (SIGINT,
// SIGTERM, SIGHUP) that arrives while they are drawn, no further figure starts, and the
// running ones are stopped. The scripts stay written whatever happens; a figure not drawn has
// no SVG (an earlier one of that name is removed).
// A failed figure is reported in the result, not thrown, so the caller reports it beside its
// other outputs; only a script that cannot be written throws std::runtime_error.
drawn_figures render_figures(const std::vector<std::pair<figure_file, gnuplot_script>>& figures,
                             unsigned max_parallel);

}  // namespace nestvp
