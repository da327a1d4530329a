// Output files of the commands.
#include "platforms/cli/cli_outputs.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "platforms/report/run_record.h"

namespace nestvp {

namespace {
std::string parent_of(const std::string& path) {
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos) return {};
    return slash == 0 ? "/" : path.substr(0, slash);
}
}  // namespace

bool prepare_output_file(const std::string& cmd, const std::string& flag, const std::string& path) {
    if (path.empty() || path == "-") return true;
    std::string why;
    const std::string dir = parent_of(path);
    if (!dir.empty()) why = ensure_directory(dir);
    if (why.empty()) why = check_writable_file(path);
    if (why.empty()) return true;
    std::fprintf(stderr, "nestvp %s: %s %s: cannot write: %s\n", cmd.c_str(), flag.c_str(),
                 path.c_str(), why.c_str());
    return false;
}

bool prepare_output_dir(const std::string& cmd, const std::string& flag, const std::string& path) {
    if (path.empty()) return true;
    const std::string why = ensure_directory(path);
    if (why.empty()) return true;
    std::fprintf(stderr, "nestvp %s: %s %s: %s\n", cmd.c_str(), flag.c_str(), path.c_str(),
                 why.c_str());
    return false;
}

bool prepare_plot_dir(const std::string& cmd, const std::string& path, const std::string& flag) {
    if (!prepare_output_dir(cmd, flag, path)) return false;
    if (path.empty() || !find_gnuplot().empty()) return true;
    std::fprintf(stderr, "nestvp %s: %s %s: %s; it draws the figures\n", cmd.c_str(), flag.c_str(),
                 path.c_str(), k_no_gnuplot);
    return false;
}

bool report_figures(const std::string& cmd, const drawn_figures& d) {
    if (d.error.empty()) return true;
    std::fprintf(stderr, "nestvp %s: %s\n", cmd.c_str(), d.error.c_str());
    return false;
}

void write_output(const std::string& path, const std::string& text) {
    if (path != "-") {
        write_text_file(path, text);
        return;
    }
    std::fputs(text.c_str(), stdout);
    if (std::fflush(stdout) != 0 || std::ferror(stdout))
        throw std::runtime_error(std::string("cannot write standard output: ") +
                                 std::strerror(errno));
}

bool flush_stdout(const std::string& cmd) {
    errno = 0;
    if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return true;
    std::fprintf(stderr, "nestvp %s: cannot write standard output: %s\n", cmd.c_str(),
                 std::strerror(errno ? errno : EIO));
    return false;
}

}  // namespace nestvp
