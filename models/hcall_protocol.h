#pragma once
// The hcall protocol between a hardware thread (initiator) and the hypervisor firmware
// (target): a TLM-2.0 generic payload whose address is the hcall number and whose register
// frame travels in an extension, with the calling thread's id as data. The firmware acts on the
// calling thread through hv_thread_if, an interface the platform binds to the firmware's port
// (one binding per thread, looked up by id): nothing in the payload points back into the
// initiator.
#include <array>
#include <cstdint>

#include <systemc>
#include <tlm>

#include "models/exception_logic.h"
#include "models/power_regs.h"
#include "models/sw_context.h"
#include "models/timer_unit_if.h"

namespace nestvp {

class hcall_extension : public tlm::tlm_extension<hcall_extension> {
public:
    hcall_frame frame;
    unsigned thread_id = 0;

    tlm::tlm_extension_base* clone() const override { return new hcall_extension(*this); }
    void copy_from(const tlm::tlm_extension_base& other) override {
        *this = static_cast<const hcall_extension&>(other);
    }
};

// What hypervisor firmware running on a hardware thread does to it: charge its work, stall,
// reach its architected state, switch it into a guest and wait for the trap.
class hv_thread_if : public virtual sc_core::sc_interface {
public:
    // Platform-wide thread number (statistics): a plain field, not a virtual call, since the
    // firmware names its thread in every announcement it makes.
    unsigned id() const { return m_thread_id; }
    virtual void charge(double cycles) = 0;
    virtual void stall(const sc_core::sc_time& d) = 0;
    // When the work charged so far ends (sc_time value): the start of the next step.
    virtual uint64_t step_time() const = 0;
    virtual timer_unit_if& timers() = 0;
    virtual exception_logic& irq() = 0;
    virtual uint64_t host_ticks() = 0;            // TB without any partition offset
    virtual uint64_t host_tb_offset() const = 0;  // the running host partition's TB offset
    // Hands the thread to `guest` (hrfid) and blocks until it traps.
    virtual trap_info enter(sw_context& guest) = 0;
    virtual sc_core::sc_time entry_time() const = 0;
    virtual sc_core::sc_time trap_time() const = 0;
    virtual void set_active(bool active) = 0;  // SMT activity (a ceded thread is inactive)
    // Waits until the thread's DEC is pending or its partition's external line is raised (a
    // ceded virtual processor's wake-up sources), catching up with the kernel first.
    virtual void wait_for_wake() = 0;

protected:
    void set_thread_id(unsigned id) { m_thread_id = id; }

private:
    unsigned m_thread_id = 0;
};

// The firmware itself, as the target sees it: one call per hcall, on the calling thread, with
// the frame to read and answer in (models/hcall_target.h carries it from the socket).
class hcall_handler_if {
public:
    virtual ~hcall_handler_if() = default;
    virtual void hcall(hv_thread_if& t, hcall_frame& f) = 0;
};

}  // namespace nestvp
