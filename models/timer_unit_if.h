#pragma once
// The DEC + HDEC unit of one hardware thread (timer-facilities.md §2, §3, §7.2).
// Three implementations sit behind it, chosen by the setting `impl: tlm | rtl | lockstep`:
// native_timer_unit (SystemC models), rtl_timer_unit (Verilated rtl/) and
// lockstep_timer_unit (both, compared on every operation).
// Its interrupt lines and their control (dec_pending, hdec_pending, ack_hdec, set_lpcr,
// pending_changed_event) are irq_lines_if, which the exception logic's port binds to.
#include <cstdint>
#include <vector>

#include <systemc>

#include "models/irq_lines_if.h"
#include "models/local_time.h"

namespace nestvp {

class timer_unit_if : public irq_lines_if {
public:
    // mtDEC / mfDEC (SPR 22). Writes truncate to the width in force; reads are
    // sign-extended when LPCR[LD]=1 and zero-extended from 32 bits otherwise (§2.1).
    virtual void write_dec(uint64_t value) = 0;
    virtual uint64_t read_dec() = 0;
    // mtHDEC / mfHDEC (SPR 310): always large mode, sign-extended reads (§3).
    virtual void write_hdec(uint64_t value) = 0;
    virtual uint64_t read_hdec() = 0;
    // The earliest time (sc_time value) at which a timed notification of the unit is pending,
    // ~0 if none: the sibling threads of its core do not run ahead past it (models/local_time.h).
    // A unit that cannot tell answers 0, which stops them running ahead at all.
    virtual sc_dt::uint64 next_wake() const { return 0; }
    // The variables next_wake() is the minimum of (local_time::wake_source::wake_slots).
    virtual void wake_slots(std::vector<const local_time::wake_slot*>& out) const {
        out.push_back(&no_wake);
    }

private:
    static inline const local_time::wake_slot no_wake{0};  // the default next_wake()
};

}  // namespace nestvp
