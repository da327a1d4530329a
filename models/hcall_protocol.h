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
#include "models/sw_context.h"
#include "models/timer_unit_if.h"

namespace nestvp {

// The GPRs of `sc 1` (PAPR calling convention): r3 = hcall number on the way in, return code
// on the way out; r4.. arguments and results.
struct hcall_frame {
    std::array<uint64_t, 13> r{};  // r0..r12
};

class hcall_extension : public tlm::tlm_extension<hcall_extension> {
public:
    hcall_frame frame;
    unsigned thread_id = 0;

    tlm::tlm_extension_base* clone() const override { return new hcall_extension(*this); }
    void copy_from(const tlm::tlm_extension_base& other) override {
        *this = static_cast<const hcall_extension&>(other);
    }
};

// Why a guest stopped running: the interrupt vector L0 saw, with the guest's NIA and MSR.
struct trap_info {
    uint32_t vector = 0;
    uint64_t nia = 0;
    uint64_t msr = 0;
    // Hypervisor Data Storage (0xE00): HDAR, HDSISR and ASDR as the hardware sets them.
    uint64_t hdar = 0, hdsisr = 0, asdr = 0;
};

// What hypervisor firmware running on a hardware thread does to it: charge its work, stall,
// reach its architected state, switch it into a guest and wait for the trap.
class hv_thread_if : public virtual sc_core::sc_interface {
public:
    virtual unsigned id() const = 0;
    virtual void charge(double cycles) = 0;
    virtual void stall(const sc_core::sc_time& d) = 0;
    // When the work charged so far ends (sc_time value): the start of the next step.
    virtual sc_dt::uint64 step_time() const = 0;
    virtual timer_unit_if& timers() = 0;
    virtual exception_logic& irq() = 0;
    virtual uint64_t host_ticks() = 0;            // TB without any partition offset
    virtual uint64_t host_tb_offset() const = 0;  // the running host partition's TB offset
    // Hands the thread to `guest` (hrfid) and blocks until it traps.
    virtual trap_info enter(sw_context& guest) = 0;
    virtual sc_core::sc_time entry_time() const = 0;
    virtual sc_core::sc_time trap_time() const = 0;
    virtual void set_active(bool active) = 0;  // SMT activity (a ceded thread is inactive)
};

}  // namespace nestvp
