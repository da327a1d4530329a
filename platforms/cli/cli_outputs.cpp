// Output files of the commands.
#include "platforms/cli/cli_outputs.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "platforms/processes/child_procs.h"
#include "platforms/records/run_record.h"
#include "platforms/records/text_files.h"

namespace nestvp {

namespace {
std::string parent_of(const std::string& path) {
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos) return {};
    return slash == 0 ? "/" : path.substr(0, slash);
}

// Writes text that could not go to `path` to a new file temp_root()/nestvp-XXXXXX-NAME, NAME
// being path's file name. Returns whether it did; `said` gets that file, or why not.
bool save_elsewhere(const std::string& path, const std::string& text, std::string& said) {
    std::string base = path.substr(path.find_last_of('/') + 1);
    if (base.size() > 200) base.erase(0, base.size() - 200);  // within NAME_MAX, with its end
    const std::string dir = temp_root();
    std::string name = dir + "/nestvp-XXXXXX-" + base;
    const int fd = ::mkstemps(&name[0], static_cast<int>(base.size() + 1));
    if (fd < 0) {
        said = "cannot create a file in " + dir + ": " + std::strerror(errno);
        return false;
    }
    ::close(fd);
    said = try_write_text_file(name, text);
    if (!said.empty()) {
        ::unlink(name.c_str());
        return false;
    }
    said = name;
    return true;
}

// write_output without exceptions (try_write_text_file says why): "" when written.
std::string try_write_output(const std::string& path, const std::string& text) {
    if (path == "-") {
        std::fputs(text.c_str(), stdout);
        if (std::fflush(stdout) != 0 || std::ferror(stdout))
            return std::string("cannot write standard output: ") + std::strerror(errno);
        return "";
    }
    const std::string failed = try_write_text_file(path, text);
    if (failed.empty()) return "";
    std::string said;  // what was computed is not lost with the file
    const bool saved = save_elsewhere(path, text, said);
    return failed + (saved ? "; it was saved to " + said + " instead"
                           : "; saving it elsewhere failed too: " + said);
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
    if (path.empty()) return true;
    if (find_gnuplot().empty()) {
        std::fprintf(stderr, "nestvp %s: %s %s: %s; it draws the figures\n", cmd.c_str(),
                     flag.c_str(), path.c_str(), k_no_gnuplot);
        return false;
    }
    const std::string env = gnuplot_env_problem();
    if (env.empty()) return true;
    std::fprintf(stderr, "nestvp %s: %s %s: %s\n", cmd.c_str(), flag.c_str(), path.c_str(),
                 env.c_str());
    return false;
}

bool report_figures(const std::string& cmd, const drawn_figures& d) {
    if (d.error.empty()) return true;
    std::fprintf(stderr, "nestvp %s: %s\n", cmd.c_str(), d.error.c_str());
    return false;
}

void write_output(const std::string& path, const std::string& text) {
    const std::string why = try_write_output(path, text);
    if (!why.empty()) throw std::runtime_error(why);
}

bool write_one(const std::string& cmd, const std::string& path,
               const std::function<std::string()>& text) {
    std::string why;
    try {
        why = try_write_output(path, text());
    } catch (const std::exception& e) {  // composing the text failed
        why = e.what();
    }
    if (why.empty()) return true;
    std::fprintf(stderr, "nestvp %s: %s\n", cmd.c_str(), why.c_str());
    return false;
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
