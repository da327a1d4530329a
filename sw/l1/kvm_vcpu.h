#pragma once
// KVM's per-vCPU state in L1 for one L2 vCPU (nested-virtualization.md §3.1): the
// pending_exceptions DEC bit, ceded/prodded, the DEC hrtimer, and where the L2 state is kept.
#include <cstdint>

#include "sw/l1/l1_cpu.h"
#include "sw/papr/guest_irq_queue.h"

namespace nestvp {

struct kvm_vcpu {
    unsigned id = 0;
    uint64_t guest_id = 0;
    // BOOK3S_IRQPRIO_DECREMENTER in pending_exceptions: level-like, delivery never clears it
    // (clear_irqprio returns false for DEC, §3.2).
    bool dec_queued = false;
    bool ceded = false;
    bool prodded = false;
    // XICS emulation (book3s_xics.c): the vCPU's ICP MFRR (0xFF: no IPI) and its external
    // interrupt queued (BOOK3S_IRQPRIO_EXTERNAL; on entry it becomes LPCR[MER]).
    uint8_t icp_mfrr = 0xFF;
    bool ext_pending = false;
    // The sources presented to the guest (set by the ICP or the VMM's XIVE, read by the guest).
    guest_irq_queue* irqs = nullptr;
    // Where a kick finds the vCPU (kvmppc_fast_vcpu_kick_hv): on its CPU (thread_cpu >= 0,
    // from the run loop's step 2 until the exit is back), or asleep in the cede path.
    bool on_cpu = false;
    bool sleeping = false;
    cpu_if* cpu = nullptr;  // the hardware thread it runs on (one L1 vCPU per L2 vCPU)
    hrtimer dec_timer;      // kvmppc_decrementer_wakeup (§3.3)
    uint32_t trap = 0;
    // nestedv1: L2 state kept locally (no cache), DEC expiry in L1 TB.
    uint64_t v1_dec_expires = 0;
    uint64_t v1_msr = 0, v1_nia = 0;
    uint64_t v1_hdar = 0, v1_hdsisr = 0;  // the last HDSI's, from hv_guest_state
    uint64_t v1_gpr[32] = {};
};

}  // namespace nestvp
