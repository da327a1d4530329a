#include "platforms/runner/platform_trace.h"

#include <bitset>
#include <cmath>
#include <stdexcept>

#include "models/local_time.h"

namespace nestvp {

namespace {
std::string vcd_id(unsigned n) {
    std::string id;
    do {
        id += static_cast<char>('!' + n % 94);
        n /= 94;
    } while (n);
    return id;
}
std::string bits(uint64_t v, unsigned width) {
    std::string s = std::bitset<64>(v).to_string().substr(64 - width);
    const size_t nz = s.find('1');
    return nz == std::string::npos ? "0" : s.substr(nz);
}
}  // namespace

platform_trace::platform_trace(const std::string& path,
                               const std::vector<hardware_thread*>& threads, double start_s,
                               double end_s)
    : m_out(path), m_threads(threads), m_sig(threads.size()) {
    if (!m_out) throw std::runtime_error("cannot write the trace file '" + path + "'");
    m_start_ps = static_cast<uint64_t>(std::llround(start_s * 1e12));
    m_end_ps = end_s < 0 ? ~0ull : static_cast<uint64_t>(std::llround(end_s * 1e12));
    m_out << "$comment nestvp platform trace: DEC/HDEC per hardware thread $end\n"
          << "$timescale 1 ps $end\n$scope module platform $end\n";
    unsigned n = 0;
    for (size_t i = 0; i < threads.size(); ++i) {
        signals& s = m_sig[i];
        s.dec = vcd_id(n++), s.hdec = vcd_id(n++), s.dec_irq = vcd_id(n++);
        s.hdec_irq = vcd_id(n++), s.level = vcd_id(n++), s.ceded = vcd_id(n++);
        m_out << "$scope module " << threads[i]->basename() << " $end\n"
              << "$var wire 64 " << s.dec << " dec $end\n"
              << "$var wire 64 " << s.hdec << " hdec $end\n"
              << "$var wire 1 " << s.dec_irq << " dec_irq $end\n"
              << "$var wire 1 " << s.hdec_irq << " hdec_irq $end\n"
              << "$var wire 2 " << s.level << " level $end\n"
              << "$var wire 1 " << s.ceded << " ceded $end\n$upscope $end\n";
    }
    m_out << "$upscope $end\n$enddefinitions $end\n";
}

platform_trace::~platform_trace() {
    m_out.flush();
}

void platform_trace::stamp(uint64_t ps) {
    if (ps != m_last_stamp) {
        m_out << '#' << ps << '\n';
        m_last_stamp = ps;
    }
}

void platform_trace::sample(unsigned thread) {
    const uint64_t ps = local_time::now_value();  // the acting thread's time
    if (ps < m_start_ps || ps > m_end_ps || thread >= m_threads.size()) return;
    hardware_thread& t = *m_threads[thread];
    signals& s = m_sig[thread];
    const uint64_t dec = t.timers().read_dec(), hdec = t.timers().read_hdec();
    const int dec_irq = t.timers().dec_pending(), hdec_irq = t.timers().hdec_pending();
    const int level = static_cast<int>(t.level()), ceded = t.active() ? 0 : 1;
    if (s.first || dec != s.last_dec)
        stamp(ps), m_out << 'b' << bits(dec, 64) << ' ' << s.dec << '\n';
    if (s.first || hdec != s.last_hdec)
        stamp(ps), m_out << 'b' << bits(hdec, 64) << ' ' << s.hdec << '\n';
    if (dec_irq != s.last_dec_irq) stamp(ps), m_out << dec_irq << s.dec_irq << '\n';
    if (hdec_irq != s.last_hdec_irq) stamp(ps), m_out << hdec_irq << s.hdec_irq << '\n';
    if (level != s.last_level) stamp(ps), m_out << 'b' << bits(level, 2) << ' ' << s.level << '\n';
    if (ceded != s.last_ceded) stamp(ps), m_out << ceded << s.ceded << '\n';
    s.first = false;
    s.last_dec = dec, s.last_hdec = hdec, s.last_dec_irq = dec_irq, s.last_hdec_irq = hdec_irq;
    s.last_level = level, s.last_ceded = ceded;
}

}  // namespace nestvp
