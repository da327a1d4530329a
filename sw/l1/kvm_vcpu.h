#pragma once
// KVM's per-vCPU state in L1 for one L2 vCPU (nested-virtualization.md §3.1): the
// pending_exceptions DEC bit, ceded/prodded, the DEC hrtimer, and where the L2 state is kept.
#include <cstdint>

#include "sw/l1/l1_cpu.h"

namespace nestvp {

struct kvm_vcpu {
    unsigned id = 0;
    uint64_t guest_id = 0;
    // BOOK3S_IRQPRIO_DECREMENTER in pending_exceptions: level-like, delivery never clears it
    // (clear_irqprio returns false for DEC, §3.2).
    bool dec_queued = false;
    bool ceded = false;
    bool prodded = false;
    hrtimer dec_timer;  // kvmppc_decrementer_wakeup (§3.3)
    uint32_t trap = 0;
    // nestedv1: L2 state kept locally (no cache), DEC expiry in L1 TB.
    uint64_t v1_dec_expires = 0;
    uint64_t v1_msr = 0, v1_nia = 0;
    uint64_t v1_gpr[32] = {};
};

}  // namespace nestvp
