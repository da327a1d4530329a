// CLI test helpers.
#include "cli_test_util.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <thread>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "platforms/processes/child_procs.h"
#include "tests/support/sanitizer_notes.h"

namespace nestvp::test {

std::string fresh_dir(const std::string& name) {
    const std::string dir = std::string(NESTVP_BINARY_DIR) + "/tests/cli/tmp/" + name;
    std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "'").c_str());
    return dir;
}

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

bool file_exists(const std::string& path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0;
}

cmd_result run_cmd(const std::vector<std::string>& argv, const std::string& dir) {
    child_job j;
    j.argv = argv;
    j.stdout_path = dir + "/cmd.out";
    j.stderr_path = dir + "/cmd.err";
    cmd_result r;
    r.code = run_children({j}, 1).at(0);
    r.out = slurp(j.stdout_path);
    r.err = without_sanitizer_notes(slurp(j.stderr_path));
    return r;
}

namespace {
// The processes whose parent is `pid`, from /proc/PID/stat ("pid (comm) state ppid ...").
std::vector<pid_t> children_of(pid_t pid) {
    std::vector<pid_t> out;
    for (const auto& e : std::filesystem::directory_iterator("/proc")) {
        const std::string stat = slurp(e.path().string() + "/stat");
        const size_t paren = stat.rfind(')');
        if (paren == std::string::npos) continue;
        std::istringstream in(stat.substr(paren + 1));
        char state = 0;
        long ppid = 0;
        if (in >> state >> ppid && ppid == pid) out.push_back(std::stoi(stat));
    }
    return out;
}

// Whether process `pid` catches signal `sig` (SigCgt in /proc/PID/status, a hex bit mask).
bool catches(pid_t pid, int sig) {
    std::istringstream in(slurp("/proc/" + std::to_string(pid) + "/status"));
    for (std::string line; std::getline(in, line);)
        if (line.rfind("SigCgt:", 0) == 0)
            return (std::stoull(line.substr(7), nullptr, 16) >> (sig - 1)) & 1u;
    return false;
}

// The children of `pid`, once there is one and all of them catch `sig` (each has installed its
// handler), waited for up to 60 s (a sanitizer build starts slowly); empty if that never came.
std::vector<pid_t> children_catching(pid_t pid, int sig) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < until) {
        const std::vector<pid_t> children = children_of(pid);
        bool all = !children.empty();
        for (const pid_t c : children) all = all && catches(c, sig);
        if (all) return children;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return {};
}
}  // namespace

cmd_result run_with_signals(const std::vector<std::string>& argv, const std::string& dir,
                            const std::vector<signal_step>& steps, std::vector<bool>& alive) {
    const std::string out = dir + "/cmd.out", err = dir + "/cmd.err";
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    alive.clear();
    const pid_t pid = ::fork();
    if (pid == 0) {
        for (const signal_step& s : steps) ::signal(s.sig, SIG_DFL);
        ::dup2(::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644), 1);
        ::dup2(::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644), 2);
        ::execv(args[0], args.data());
        ::_exit(127);
    }
    cmd_result r;
    if (pid < 0) return r;
    int status = 0;
    bool ended = false;
    for (const signal_step& s : steps) {
        std::this_thread::sleep_for(std::chrono::milliseconds(s.wait_ms));
        ended = ended || ::waitpid(pid, &status, WNOHANG) == pid;
        alive.push_back(!ended);
        if (ended) continue;
        if (!s.to_children) {
            ::kill(pid, s.sig);
            continue;
        }
        const std::vector<pid_t> children = children_catching(pid, s.sig);
        for (const pid_t c : children) ::kill(c, s.sig);
        if (children.empty()) {  // nothing to signal: do not wait for a run that may not end
            for (const pid_t c : children_of(pid)) ::kill(c, SIGKILL);
            ::kill(pid, SIGKILL);
        }
    }
    if (!ended) ::waitpid(pid, &status, 0);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out);
    r.err = without_sanitizer_notes(slurp(err));
    return r;
}

cmd_result run_until_signal(const std::vector<std::string>& argv, const std::string& dir,
                            int wait_ms, int sig) {
    std::vector<bool> alive;
    return run_with_signals(argv, dir, {{wait_ms, sig}}, alive);
}

bool mark_partial(const std::string& path) {
    std::string rec = slurp(path);
    const std::string from = "\"partial\": false";
    const size_t at = rec.find(from);
    if (at == std::string::npos) return false;
    std::ofstream(path) << rec.replace(at, from.size(), "\"partial\": true");
    return true;
}

std::vector<std::string> nestvp(std::vector<std::string> args) {
    args.insert(args.begin(), std::string(NESTVP_BINARY_DIR) + "/nestvp");
    return args;
}

bool xml_well_formed(const std::string& path, std::string& why) {
    const std::string log = path + ".xmllint";
    const int rc = std::system(("xmllint --noout '" + path + "' > '" + log + "' 2>&1").c_str());
    why = slurp(log);
    std::remove(log.c_str());
    return rc == 0;
}

size_t count_of(const std::string& hay, const std::string& needle) {
    size_t n = 0;
    for (size_t p = hay.find(needle); p != std::string::npos;
         p = hay.find(needle, p + needle.size()))
        ++n;
    return n;
}

std::string without_wall(const std::string& json) {
    return std::regex_replace(json, std::regex("\"wall_seconds\": [^,\\n]*"),
                              "\"wall_seconds\": X");
}

}  // namespace nestvp::test
