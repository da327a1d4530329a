// Child process pool for compare and sweep.
#include "platforms/processes/child_procs.h"

#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <dirent.h>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <stdexcept>

extern char** environ;

namespace nestvp {

namespace {

// posix_spawn: the child gets SIGTERM's default action back, whatever this process does with
// it, since run_children stops jobs with it; SIGINT and SIGHUP stay as the caller set them (a
// background job's ignored SIGINT stays ignored in its children too). The child gets its
// stdout/stderr files, and a job with a timeout its own process group; returns -1 if it could
// not be started.
pid_t spawn(const child_job& job) {
    std::vector<char*> argv;
    for (const auto& a : job.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&attr);
    const char* out = job.stdout_path.empty() ? "/dev/null" : job.stdout_path.c_str();
    posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (!job.stderr_path.empty())
        posix_spawn_file_actions_addopen(&fa, 2, job.stderr_path.c_str(),
                                         O_WRONLY | O_CREAT | O_TRUNC, 0644);
    sigset_t def;
    sigemptyset(&def);
    sigaddset(&def, SIGTERM);
    posix_spawnattr_setsigdefault(&attr, &def);
    short flags = POSIX_SPAWN_SETSIGDEF;
    if (job.timeout_s > 0) {  // its own process group, so that a timeout stops all of it
        posix_spawnattr_setpgroup(&attr, 0);
        flags |= POSIX_SPAWN_SETPGROUP;
    }
    posix_spawnattr_setflags(&attr, flags);
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, argv[0], &fa, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    return rc == 0 ? pid : -1;
}

int code_of(int status) {
    return WIFEXITED(status) ? WEXITSTATUS(status)
                             : (WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1);
}

}  // namespace

std::vector<int> run_children(const std::vector<child_job>& jobs, unsigned max_parallel,
                              const std::function<bool()>& stop,
                              const std::function<void(size_t, int)>& on_done,
                              const std::function<void()>& on_tick) {
    using clock = std::chrono::steady_clock;
    std::vector<int> codes(jobs.size(), -1);
    std::map<pid_t, size_t> running;
    std::vector<clock::time_point> started(jobs.size());
    std::vector<bool> timed_out(jobs.size(), false);
    size_t next = 0;
    bool stopping = false;
    if (max_parallel == 0) max_parallel = 1;
    for (;;) {
        if (!stopping && stop && stop()) {
            stopping = true;
            for (const auto& r : running)
                ::kill(jobs[r.second].timeout_s > 0 ? -r.first : r.first, SIGTERM);
        }
        while (!stopping && next < jobs.size() && running.size() < max_parallel) {
            const pid_t pid = spawn(jobs[next]);
            if (pid < 0) {
                codes[next] = 127;
                if (on_done) on_done(next, 127);
            } else {
                running[pid] = next;
                started[next] = clock::now();
            }
            ++next;
        }
        if (running.empty()) break;
        // Only our own children are waited for (by pid): other children of this process
        // are left for whoever started them.
        bool any = false;
        for (auto it = running.begin(); it != running.end();) {
            int status = 0;
            const pid_t pid = ::waitpid(it->first, &status, WNOHANG);
            if (pid == 0 || (pid < 0 && errno == EINTR)) {
                const size_t idx = it->second;
                const double limit = jobs[idx].timeout_s;
                if (pid == 0 && limit > 0 && !timed_out[idx] &&
                    std::chrono::duration<double>(clock::now() - started[idx]).count() > limit) {
                    timed_out[idx] = true;        // reaped on a later pass
                    ::kill(-it->first, SIGKILL);  // its process group: what it started too
                }
                ++it;
                continue;
            }
            const size_t idx = it->second;
            it = running.erase(it);
            // Killed for its time (a job that ended just before the kill keeps its own code).
            const bool killed = pid > 0 && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
            codes[idx] = timed_out[idx] && killed ? k_child_timed_out
                         : pid < 0                ? 127
                                                  : code_of(status);
            if (on_done) on_done(idx, codes[idx]);
            any = true;
        }
        if (on_tick) on_tick();
        if (!any) ::usleep(20 * 1000);  // a stop signal cuts the sleep short
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

std::string temp_root() {
    const char* t = std::getenv("TMPDIR");
    return t && *t ? t : "/tmp";
}

std::string make_temp_dir(const std::string& prefix) {
    std::string tmpl = temp_root() + "/" + prefix + "-XXXXXX";
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

std::string child_exit_text(int code) {
    if (code > 128 && code < 128 + NSIG && code != 130)
        return "killed by signal " + std::to_string(code - 128) + " (" + strsignal(code - 128) +
               ")";
    return "exit " + std::to_string(code);
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
