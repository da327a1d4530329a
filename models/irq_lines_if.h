#pragma once
// The interrupt lines of a hardware thread's timer unit, as its exception logic sees them
// through a bound port (models/exception_logic.h, timer_unit_if implements it):
// the DEC line is a level (timer-facilities.md §2.2), the HDEC line an edge latched until
// delivered (§3). The exception logic's control path rides on the same interface: it acknowledges
// a delivered HDEC and forwards the LPCR bits the unit depends on (LD, HDICE).
#include <systemc>

namespace nestvp {

class irq_lines_if : public virtual sc_core::sc_interface {
public:
    // DEC exception: a level on the MSB of the active width (§2.2).
    virtual bool dec_pending() = 0;
    // HDEC exception: an edge latched until delivered (§3).
    virtual bool hdec_pending() = 0;
    // The HDEC interrupt was taken, or the thread entered a power-saving state: clear the latch.
    virtual void ack_hdec() = 0;
    // The LPCR bits the unit depends on: LD (large decrementer) and HDICE.
    virtual void set_lpcr(bool ld, bool hdice) = 0;

    // Notified whenever dec_pending() or hdec_pending() may have changed.
    virtual const sc_core::sc_event& pending_changed_event() const = 0;
    const sc_core::sc_event& default_event() const override { return pending_changed_event(); }
};

}  // namespace nestvp
