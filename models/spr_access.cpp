#include "models/spr_access.h"

#include <stdexcept>

namespace nestvp {

std::optional<spr_result> spr_access::refuse(level needed) const {
    const uint64_t m = m_ic.msr();
    spr_result r;
    if (needed == level::user) return std::nullopt;
    if (m & msr::pr) {  // problem state: Privileged-instruction Program interrupt
        r.exception = vector::program;
        r.srr1_flags = srr1_privileged;
        return r;
    }
    if (needed == level::hypervisor && !(m & msr::hv)) {  // guest OS: HEA (Q-smt)
        r.exception = vector::hv_emulation;
        return r;
    }
    return std::nullopt;
}

spr_result spr_access::mfspr(unsigned n) {
    switch (n) {
        case spr::tb:
        case spr::tbu_r: {  // §1: user-readable
            spr_result r;
            r.value = n == spr::tb ? m_tb.read() : m_tb.read_tbu();
            return r;
        }
        case spr::dec: {
            if (auto f = refuse(level::privileged)) return *f;
            spr_result r;
            r.value = m_timers.read_dec();
            return r;
        }
        case spr::hdec:
        case spr::lpcr: {
            if (auto f = refuse(level::hypervisor)) return *f;
            spr_result r;
            r.value = n == spr::hdec ? m_timers.read_hdec() : m_ic.lpcr();
            return r;
        }
        default:
            throw std::invalid_argument("mfspr: SPR " + spr_name(n) +
                                        " is not readable in this model");
    }
}

spr_result spr_access::mtspr(unsigned n, uint64_t v) {
    switch (n) {
        case spr::dec:
            if (auto f = refuse(level::privileged)) return *f;
            m_timers.write_dec(v);
            return {};
        case spr::hdec:
            if (auto f = refuse(level::hypervisor)) return *f;
            m_timers.write_hdec(v);
            return {};
        case spr::lpcr:
            if (auto f = refuse(level::hypervisor)) return *f;
            m_ic.set_lpcr(v);
            return {};
        case spr::tbl_w:
        case spr::tbu_w:
        case spr::tbu40:  // §1: hypervisor-only writes, change the offset only
            if (auto f = refuse(level::hypervisor)) return *f;
            if (n == spr::tbl_w)
                m_tb.write_tbl(v);
            else if (n == spr::tbu_w)
                m_tb.write_tbu(v);
            else
                m_tb.write_tbu40(v);
            return {};
        default:
            throw std::invalid_argument("mtspr: SPR " + spr_name(n) +
                                        " is not writable in this model");
    }
}

spr_result spr_access::rfid() {
    if (auto f = refuse(level::privileged)) return *f;
    spr_result r;
    r.value = m_ic.rfid();
    return r;
}

spr_result spr_access::hrfid() {
    if (auto f = refuse(level::hypervisor)) return *f;
    spr_result r;
    r.value = m_ic.hrfid();
    return r;
}

interrupt_record spr_access::raise(const spr_result& r, uint64_t cia) {
    if (!r.exception) throw std::logic_error("spr_access::raise: the access did not fault");
    return m_ic.raise(*r.exception, cia, r.srr1_flags);
}

std::string spr_access::spr_name(unsigned n) {
    switch (n) {
        case spr::dec:
            return "DEC";
        case spr::tb:
            return "TB";
        case spr::tbu_r:
            return "TBU";
        case spr::tbl_w:
            return "TBL";
        case spr::tbu_w:
            return "TBU";
        case spr::tbu40:
            return "TBU40";
        case spr::hdec:
            return "HDEC";
        case spr::lpcr:
            return "LPCR";
        default:
            return std::to_string(n);
    }
}

}  // namespace nestvp
