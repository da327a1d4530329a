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

// Writes text that could not go to `path` to a new file temp_root()/nestvp-XXXXXX-NAME, NAME
// being path's file name; returns that file, or throws saying why it could not.
std::string save_elsewhere(const std::string& path, const std::string& text) {
    std::string base = path.substr(path.find_last_of('/') + 1);
    if (base.size() > 200) base.erase(0, base.size() - 200);  // within NAME_MAX, with its end
    std::string name = temp_root() + "/nestvp-XXXXXX-" + base;
    const int fd = ::mkstemps(&name[0], static_cast<int>(base.size() + 1));
    if (fd < 0)
        throw std::runtime_error("cannot create a file in " + temp_root() + ": " +
                                 std::strerror(errno));
    ::close(fd);
    try {
        write_text_file(name, text);
    } catch (...) {
        ::unlink(name.c_str());
        throw;
    }
    return name;
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
            const std::string failed = e.what();
            std::string kept;
            try {
                kept = "; it was saved to " + save_elsewhere(path, text) + " instead";
            } catch (const std::exception& again) {
                kept = "; saving it elsewhere failed too: " + std::string(again.what());
            }
            throw std::runtime_error(failed + kept);
        }
        return;
    }
    std::fputs(text.c_str(), stdout);
    if (std::fflush(stdout) != 0 || std::ferror(stdout))
        throw std::runtime_error(std::string("cannot write standard output: ") +
                                 std::strerror(errno));
}

bool write_one(const std::string& cmd, const std::string& path,
               const std::function<std::string()>& text) {
    try {
        write_output(path, text());
        return true;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp %s: %s\n", cmd.c_str(), e.what());
        return false;
    }
}

bool draw_one(const std::string& cmd, const std::function<drawn_figures()>& draw) {
    try {
        return report_figures(cmd, draw());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp %s: %s\n", cmd.c_str(), e.what());
        return false;
    }
}

bool flush_stdout(const std::string& cmd) {
    errno = 0;
    if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return true;
    std::fprintf(stderr, "nestvp %s: cannot write standard output: %s\n", cmd.c_str(),
                 std::strerror(errno ? errno : EIO));
    return false;
}

}  // namespace nestvp
