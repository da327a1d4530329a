#pragma once
// What the software of a guest or host kernel (L1 KVM, the L2 kernel, a workload) sees of the
// hardware thread it runs on: work in cycles, its SPRs and interrupt state, the time base, the
// hcall and the traps a guest takes, and waits. The run-ahead rules of the simulation
// (docs/local-time.md) live behind it: no call needs the software to synchronise first. The
// firmware's view of a thread is hv_thread_if (models/hcall_protocol.h); hardware_thread
// implements both.
//
// Every access to architected state first retires the cycles charged so far, so what the
// software observes or changes happens at the right simulated time (docs/hardware-thread.md).
#include <cstdint>
#include <functional>
#include <optional>

#include "models/cpu_signal.h"
#include "models/power_regs.h"
#include "models/sw_context.h"

namespace nestvp {

class cpu_if {
public:
    // Cycles retired per accounting class.
    enum accounting : unsigned { acct_l0, acct_l1, acct_l2_kernel, acct_l2_user, acct_count };
    enum class time_unit { ns, us };
    using interrupt_handler = std::function<void(const interrupt_record&)>;

    virtual ~cpu_if() = default;

    // Platform-wide thread number (statistics).
    virtual unsigned id() const = 0;

    // Work. charge(): the cost of a software step, retired at once with MSR[EE]=1, else
    // accumulated until the thread next does something observable; settle() retires it now.
    virtual void charge(double cycles) = 0;
    virtual void settle() = 0;
    // Retires `cycles`, taking each interrupt as it comes (the running level's handler, or a
    // trap to the hypervisor for an HV-class one in a guest).
    virtual void execute(double cycles) = 0;
    // Spins (the thread stays active) for `amount` or until `stop()` holds, taking interrupts as
    // they come; true if the time ran out.
    virtual bool spin_for(double amount, time_unit unit, const std::function<bool()>& stop) = 0;
    virtual double cycles(accounting a) const = 0;

    // The time base: mftb (with the running partition's offset), its frequency, and the
    // simulated time (sc_time value units) at which the host TB reads `host_ticks`.
    virtual uint64_t mftb() = 0;
    virtual uint64_t tb_freq_hz() const = 0;
    virtual uint64_t time_of_host_ticks(uint64_t host_ticks) const = 0;
    // Simulated time (sc_time value units) where the work charged so far ends: the start of
    // the software's next step. Retires nothing.
    virtual uint64_t step_time() const = 0;
    // The thread's own simulated time now, in seconds.
    virtual double now_seconds() const = 0;
    // When the last guest entry began running the guest, and when its trap was taken.
    virtual uint64_t entry_time_value() const = 0;
    virtual uint64_t trap_time_value() const = 0;

    // SPRs and interrupt state (timer-facilities.md §1, §2, §4).
    virtual uint64_t read_dec() = 0;
    virtual void write_dec(uint64_t value) = 0;
    virtual bool dec_pending() = 0;
    virtual uint64_t msr() = 0;
    virtual void set_msr(uint64_t value) = 0;  // mtmsrd
    virtual uint64_t lpcr() = 0;
    virtual uint64_t srr0() = 0;
    virtual uint64_t srr1() = 0;
    virtual void set_srr(uint64_t srr0, uint64_t srr1) = 0;
    virtual uint64_t rfid() = 0;  // §4.3: MSR <- SRR1; returns SRR0, the NIA to resume at
    virtual std::optional<uint32_t> pending_vector() = 0;  // deliverable now, if any
    virtual bool external_pending() = 0;  // the interrupt controller's line to the partition
    virtual void ack_external() = 0;      // the handler's acknowledge at the controller
    // From another thread's software: an interrupt-controller message (a host IPI) to this
    // thread's partition. Retires nothing of this thread's work.
    virtual void host_ipi() = 0;

    // Context bookkeeping.
    virtual void set_nia(uint64_t nia) = 0;
    virtual void set_level(context_level lvl) = 0;
    virtual void set_handler(context_level lvl, interrupt_handler handler) = 0;
    virtual void set_active(bool active) = 0;     // SMT activity
    virtual void set_low_priority(bool low) = 0;  // HMT_low while spinning idle

    // A host kernel's `sc 1` to the firmware: frame.r[3] holds the number, r3.. the results.
    virtual void hcall(hcall_frame& frame) = 0;
    // A guest's first instruction waits here for its first entry.
    virtual void await_entry(sw_context& guest) = 0;
    // A guest's `sc 1` with the hcall in its context's GPRs: traps to its hypervisor and returns
    // r3 once re-entered.
    virtual uint64_t guest_hcall() = 0;
    // A guest's access to emulated MMIO at `ea`: a Hypervisor Data Storage interrupt; the load
    // returns the value the hypervisor wrote back into its target GPR.
    virtual void guest_mmio_store(uint64_t ea) = 0;
    virtual uint64_t guest_mmio_load(uint64_t ea) = 0;

    // Waits until another thread's software raises `s`.
    virtual void wait_signal(const cpu_signal& s) = 0;
};

}  // namespace nestvp
