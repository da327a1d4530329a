// Output files of the commands.
#include "platforms/cli/cli_outputs.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "platforms/report/child_procs.h"
#include "platforms/report/run_record.h"

namespace nestvp {

namespace {
std::string parent_of(const std::string& path) {
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos) return {};
    return slash == 0 ? "/" : path.substr(0, slash);
}

// Writes text that could not go to `path` to a new file in temp_root() named after it;
// returns that file, or "" if this failed too.
std::string save_elsewhere(const std::string& path, const std::string& text) {
    const std::string base = path.substr(path.find_last_of('/') + 1);
    const auto dot = base.find_last_of('.');
    const std::string stem = dot == std::string::npos ? base : base.substr(0, dot);
    const std::string ext = dot == std::string::npos ? "" : base.substr(dot);
    std::string name = temp_root() + "/nestvp-" + stem + "-XXXXXX" + ext;
    const int fd = ::mkstemps(&name[0], static_cast<int>(ext.size()));
    if (fd < 0) return {};
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n <= 0 && errno != EINTR) break;
        if (n > 0) done += static_cast<size_t>(n);
    }
    const bool ok = ::close(fd) == 0 && done == text.size();
    if (!ok) ::unlink(name.c_str());
    return ok ? name : std::string();
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
        try {
            write_text_file(path, text);
        } catch (const std::exception& e) {  // what was computed is not lost with the file
            const std::string kept = save_elsewhere(path, text);
            throw std::runtime_error(std::string(e.what()) +
                                     (kept.empty() ? "; saving it elsewhere failed too"
                                                   : "; it was saved to " + kept + " instead"));
        }
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
