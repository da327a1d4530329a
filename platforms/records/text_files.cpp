// Whole text files: read, written without leaving a cut-short file, checked before a run.
#include "platforms/records/text_files.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace nestvp {

std::string read_text_file(const std::string& path) {
    // A directory opens and reads as empty, and a FIFO blocks: only a file is read.
    std::error_code ec;
    if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
        throw std::runtime_error(path + ": cannot read: not a file (a directory, FIFO or device)");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path + ": cannot read: " + std::strerror(errno));
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

namespace {
// The stream's part of write_text_file: 0 when all was written, else the errno of the failure;
// `opened` says whether the file was opened (and so truncated).
int write_whole_file(const std::string& path, const std::string& text, bool& opened) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    opened = static_cast<bool>(out);
    if (!opened) return errno ? errno : EIO;
    out << text;
    out.flush();
    return out ? 0 : (errno ? errno : EIO);
}
}  // namespace

std::string try_write_text_file(const std::string& path, const std::string& text) {
    bool opened = false;
    errno = 0;
    const int err = write_whole_file(path, text, opened);
    if (err == 0) return "";
    if (!opened) return path + ": cannot write: " + std::strerror(err);
    // What was written is incomplete. A plain file with no other name is removed; a device,
    // a symbolic link or a file with another hard link is left (removing the name would not
    // remove the data).
    struct stat st;
    std::string left;
    if (::lstat(path.c_str(), &st) == 0 && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)))
        left = S_ISREG(st.st_mode) && st.st_nlink == 1 && ::unlink(path.c_str()) == 0
                   ? " (the incomplete file was removed)"
                   : " (the file is incomplete)";
    return path + ": write failed: " + std::strerror(err) + left;
}

void write_text_file(const std::string& path, const std::string& text) {
    const std::string why = try_write_text_file(path, text);
    if (!why.empty()) throw std::runtime_error(why);
}

std::string check_writable_file(const std::string& path) {
    if (path.empty()) return "empty path";
    struct stat st;
    if (::stat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) return "is a directory";
        if (::access(path.c_str(), W_OK) != 0) return std::strerror(errno);
        return {};
    }
    if (errno != ENOENT) return std::strerror(errno);
    const auto slash = path.find_last_of('/');
    const std::string dir =
        slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
    if (::stat(dir.c_str(), &st) != 0) return "directory '" + dir + "': " + std::strerror(errno);
    if (!S_ISDIR(st.st_mode)) return "'" + dir + "' is not a directory";
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
        return "directory '" + dir + "': " + std::strerror(errno);
    return {};
}

std::string ensure_directory(const std::string& path) {
    if (path.empty()) return "empty path";
    std::string cur;
    size_t pos = 0;
    while (pos != std::string::npos) {
        pos = path.find('/', pos + 1);
        cur = path.substr(0, pos);
        if (cur.empty()) continue;
        struct stat st;
        if (::stat(cur.c_str(), &st) == 0) {
            if (!S_ISDIR(st.st_mode)) return "'" + cur + "' is not a directory";
            continue;
        }
        if (::mkdir(cur.c_str(), 0777) != 0 && errno != EEXIST)
            return "cannot create '" + cur + "': " + std::strerror(errno);
    }
    if (::access(path.c_str(), W_OK | X_OK) != 0) return std::strerror(errno);
    return {};
}

}  // namespace nestvp
