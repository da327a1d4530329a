#include "models/vcd_writer.h"

#include <algorithm>

#include <cerrno>
#include <cstring>
#include <set>
#include <stdexcept>

namespace nestvp {

namespace {

std::set<std::string>& open_paths() {
    static std::set<std::string> paths;
    return paths;
}

std::vector<std::string>& write_errors() {
    static std::vector<std::string> errors;
    return errors;
}

std::string make_id(size_t n) {
    // Printable ASCII from '%': no '#' or '$', which start timestamps and keywords.
    std::string id;
    do {
        id += static_cast<char>('%' + n % 90);
        n /= 90;
    } while (n);
    return id;
}

std::vector<std::string> split_scope(const std::string& scope) {
    std::vector<std::string> parts;
    size_t from = 0;
    for (;;) {
        const size_t dot = scope.find('.', from);
        parts.push_back(scope.substr(from, dot - from));
        if (dot == std::string::npos) return parts;
        from = dot + 1;
    }
}

}  // namespace

vcd_writer::vcd_writer(const std::string& path, const std::string& version,
                       const std::string& comment, const std::string& timescale)
    : m_path(path), m_version(version), m_comment(comment), m_timescale(timescale) {
    // Two writers on one file would interleave garbage.
    if (!open_paths().insert(path).second)
        throw std::invalid_argument("VCD file '" + path +
                                    "' is already written by another unit; give each unit its "
                                    "own trace file");
    m_file = std::fopen(path.c_str(), "w");
    if (!m_file) {
        open_paths().erase(path);
        throw std::runtime_error("cannot open VCD file '" + path + "': " + std::strerror(errno));
    }
}

vcd_writer::~vcd_writer() {
    if (m_file) {
        if (!m_started) start(0);
        write_pending();
        int err = std::fflush(m_file) != 0 ? errno : 0;
        if (!err && std::ferror(m_file)) err = EIO;  // an earlier buffered write failed
        if (std::fclose(m_file) != 0 && !err) err = errno;
        if (err)
            write_errors().push_back("cannot write VCD file '" + m_path +
                                     "': " + std::strerror(err));
    }
    open_paths().erase(m_path);
}

std::vector<std::string> vcd_writer::take_write_errors() {
    std::vector<std::string> out;
    out.swap(write_errors());
    return out;
}

int vcd_writer::add(const std::string& scope, const std::string& name, unsigned width, bool pulse) {
    if (m_started)
        throw std::logic_error("VCD signal '" + scope + "." + name +
                               "' added after tracing started");
    m_sigs.push_back({scope, name, width, pulse, make_id(m_sigs.size()), 0, pulse});
    return static_cast<int>(m_sigs.size()) - 1;
}

void vcd_writer::at(uint64_t time) {
    if (!m_started) {
        start(time);
        return;
    }
    if (time <= m_time) return;
    write_pending();
    if (m_pulse_high) {
        // Strobes of the previous time end one unit later.
        m_time += 1;
        m_stamped = false;
        for (auto& s : m_sigs)
            if (s.pulse && s.last != 0) emit(s, 0);
        m_pulse_high = false;
        if (time == m_time) return;
    }
    m_time = time;
    m_stamped = false;
}

void vcd_writer::set(int id, uint64_t value) {
    auto& s = m_sigs[static_cast<size_t>(id)];
    if (!m_started) {
        // Before the first time: the value goes into $dumpvars.
        if (!s.pulse) s.last = value, s.known = true;
        return;
    }
    if (s.pulse && value == 0) return;  // lowered one unit later
    m_pending.push_back({id, value});
    if (s.pulse) m_pulse_high = true;
}

void vcd_writer::write_pending() {
    // Changes at one time go out in signal order, each signal's in the order they were made:
    // the file does not depend on which process happened to run first at that time.
    std::stable_sort(m_pending.begin(), m_pending.end(),
                     [](const change& a, const change& b) { return a.id < b.id; });
    for (const change& c : m_pending) {
        signal& s = m_sigs[static_cast<size_t>(c.id)];
        if (!(s.known && c.value == s.last)) emit(s, c.value);
    }
    m_pending.clear();
}

void vcd_writer::flush() {
    if (m_file) {
        write_pending();
        std::fflush(m_file);
    }
}

void vcd_writer::start(uint64_t time) {
    m_started = true;
    std::fprintf(m_file, "$version %s $end\n", m_version.c_str());
    if (!m_comment.empty()) std::fprintf(m_file, "$comment %s $end\n", m_comment.c_str());
    std::fprintf(m_file, "$timescale %s $end\n", m_timescale.c_str());
    std::vector<std::string> open;  // the scopes open now, outermost first
    for (const auto& s : m_sigs) {
        const std::vector<std::string> want = split_scope(s.scope);
        size_t common = 0;
        while (common < open.size() && common < want.size() && open[common] == want[common])
            ++common;
        for (size_t i = open.size(); i > common; --i) std::fprintf(m_file, "$upscope $end\n");
        for (size_t i = common; i < want.size(); ++i)
            std::fprintf(m_file, "$scope module %s $end\n", want[i].c_str());
        open = want;
        if (s.width == 1)
            std::fprintf(m_file, "$var wire 1 %s %s $end\n", s.id.c_str(), s.name.c_str());
        else
            std::fprintf(m_file, "$var wire %u %s %s [%u:0] $end\n", s.width, s.id.c_str(),
                         s.name.c_str(), s.width - 1);
    }
    for (size_t i = open.size(); i > 0; --i) std::fprintf(m_file, "$upscope $end\n");
    std::fprintf(m_file, "$enddefinitions $end\n#%llu\n$dumpvars\n",
                 static_cast<unsigned long long>(time));
    m_time = time;
    m_stamped = true;
    for (auto& s : m_sigs) {
        if (s.known)
            emit(s, s.pulse ? 0 : s.last);  // a pulse starts low
        else if (s.width == 1)
            std::fprintf(m_file, "x%s\n", s.id.c_str());
        else
            std::fprintf(m_file, "bx %s\n", s.id.c_str());
    }
    std::fprintf(m_file, "$end\n");
}

void vcd_writer::stamp() {
    if (m_stamped) return;
    std::fprintf(m_file, "#%llu\n", static_cast<unsigned long long>(m_time));
    m_stamped = true;
}

void vcd_writer::emit(signal& s, uint64_t value) {
    s.last = value;
    s.known = true;
    if (m_started) stamp();
    if (s.width == 1) {
        std::fprintf(m_file, "%c%s\n", value ? '1' : '0', s.id.c_str());
        return;
    }
    char buf[72];
    int n = 0;
    for (int b = static_cast<int>(s.width) - 1; b >= 0; --b) {
        const char c = ((value >> b) & 1) ? '1' : '0';
        if (n == 0 && c == '0' && b > 0) continue;  // drop leading zeros
        buf[n++] = c;
    }
    buf[n] = '\0';
    std::fprintf(m_file, "b%s %s\n", buf, s.id.c_str());
}

}  // namespace nestvp
