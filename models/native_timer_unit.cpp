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
    m_changed.notify();  // the models notify only when their line changes
}

}  // namespace nestvp
