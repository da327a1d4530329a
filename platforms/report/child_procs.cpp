// Child process pool for compare and sweep.
#include "platforms/report/child_procs.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/wait.h>
#include <unistd.h>

#include <dirent.h>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <stdexcept>

namespace nestvp {

namespace {

pid_t spawn(const child_job& job) {
    // Everything the child needs is prepared before fork(): after it, only async-signal-safe calls.
    std::vector<char*> argv;
    for (const auto& a : job.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const char* out = job.stdout_path.empty() ? "/dev/null" : job.stdout_path.c_str();
    const char* err = job.stderr_path.empty() ? nullptr : job.stderr_path.c_str();
    const pid_t pid = ::fork();
    if (pid != 0) return pid;
    struct sigaction sa = {};
    sa.sa_handler = SIG_DFL;
    ::sigaction(SIGINT, &sa, nullptr);
    const int fo = ::open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fo >= 0) ::dup2(fo, 1);
    if (err) {
        const int fe = ::open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fe >= 0) ::dup2(fe, 2);
    }
    ::execv(argv[0], argv.data());
    ::_exit(127);
}

}  // namespace

std::vector<int> run_children(const std::vector<child_job>& jobs, unsigned max_parallel,
                              const std::function<bool()>& stop,
                              const std::function<void(size_t, int)>& on_done) {
    std::vector<int> codes(jobs.size(), -1);
    std::map<pid_t, size_t> running;
    size_t next = 0;
    bool stopping = false;
    if (max_parallel == 0) max_parallel = 1;
    for (;;) {
        if (!stopping && stop && stop()) {
            stopping = true;
            for (const auto& r : running) ::kill(r.first, SIGINT);
        }
        while (!stopping && next < jobs.size() && running.size() < max_parallel) {
            const pid_t pid = spawn(jobs[next]);
            if (pid < 0) {
                codes[next] = 127;
                if (on_done) on_done(next, 127);
            } else {
                running[pid] = next;
            }
            ++next;
        }
        if (running.empty()) break;
        int status = 0;
        const pid_t pid = ::waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR) continue;  // SIGINT: re-check stop()
            break;
        }
        const auto it = running.find(pid);
        if (it == running.end()) continue;
        const size_t idx = it->second;
        running.erase(it);
        codes[idx] = WIFEXITED(status) ? WEXITSTATUS(status)
                                       : (WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1);
        if (on_done) on_done(idx, codes[idx]);
    }
    return codes;
}

std::string self_exe_path() {
    char buf[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return "nestvp";
    return std::string(buf, static_cast<size_t>(n));
}

std::string absolute_path(const std::string& path) {
    char buf[PATH_MAX];
    if (::realpath(path.c_str(), buf)) return buf;
    if (!path.empty() && path[0] == '/') return path;
    if (!::getcwd(buf, sizeof buf)) return path;
    return std::string(buf) + "/" + path;
}

std::string shell_quote(const std::string& s) {
    if (!s.empty() &&
        s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                            "_-./=:,+@%") == std::string::npos)
        return s;
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string make_temp_dir(const std::string& prefix) {
    const char* t = std::getenv("TMPDIR");
    std::string tmpl = std::string(t && *t ? t : "/tmp") + "/" + prefix + "-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (!::mkdtemp(buf.data()))
        throw std::runtime_error("cannot create a temporary directory " + tmpl + ": " +
                                 std::strerror(errno));
    return buf.data();
}

void remove_temp_dir(const std::string& dir) {
    if (DIR* d = ::opendir(dir.c_str())) {
        while (const dirent* e = ::readdir(d)) {
            const std::string n = e->d_name;
            if (n != "." && n != "..") ::unlink((dir + "/" + n).c_str());
        }
        ::closedir(d);
    }
    ::rmdir(dir.c_str());
}

std::string tail_of_file(const std::string& path, size_t max_lines) {
    std::ifstream in(path);
    std::vector<std::string> lines;
    std::string l;
    while (std::getline(in, l)) {
        lines.push_back(l);
        if (lines.size() > max_lines) lines.erase(lines.begin());
    }
    std::string out;
    for (const auto& x : lines) out += x + "\n";
    return out;
}

}  // namespace nestvp
