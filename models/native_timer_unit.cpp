#include "models/native_timer_unit.h"

namespace nestvp {

native_timer_unit::native_timer_unit(const sc_core::sc_module_name& name, time_base& tb,
                                     unsigned dec_bits)
    : sc_core::sc_module(name), m_dec("dec", tb, dec_bits), m_hdec("hdec", tb, dec_bits) {
    SC_METHOD(forward);
    sensitive << m_dec.changed_event() << m_hdec.changed_event();
    dont_initialize();
}

void native_timer_unit::set_lpcr(bool ld, bool hdice) {
    m_dec.set_large(ld);
    m_hdec.set_hdice(hdice);
}

void native_timer_unit::forward() {
    const bool dec = m_dec.pending(), hdec = m_hdec.pending();
    if (dec == m_dec_line && hdec == m_hdec_line) return;
    m_dec_line = dec, m_hdec_line = hdec;
    m_changed.notify();
}

}  // namespace nestvp
