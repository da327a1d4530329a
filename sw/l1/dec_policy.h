#pragma once
// The point where the L1 kernels differ (l1.dec_policy; nested-virtualization.md §4, §7):
// what happens to a queued DEC after an L2 exit, and at entry.
//   cancel          7be6ce7043b4: dequeue if queued and TB < DEC expiry (expiry from the
//                   run-output buffer if L0 sent it, else one H_GUEST_GET_STATE).
//   no-cancel       180c6b072bf3: skip the check for nestedv2 (v1 keeps it: it is free there).
//   cancel-poll     cancel, plus bounded polling before blocking, as KVM's halt_poll_ns
//                   (virt/kvm/kvm_main.c; the P9 path nested KVM uses has none).
//   clear-on-entry  Piggin's suggestion: nestedv2 treats DEC as an edge, clearing the bit on
//                   entry because L0 raises it from DEC_EXPIRY_TB; no GET_STATE.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sw/l1/kvm_vcpu.h"

namespace nestvp {

class dec_policy {
public:
    virtual ~dec_policy() = default;
    virtual std::string name() const = 0;
    // Step 3 of kvmhv_run_single_vcpu (before entry).
    virtual void on_entry(kvm_vcpu& v, bool nestedv2) const = 0;
    // Step 7 (after exit). `dec_expires` yields the expiry in L1 TB (it may cost a GET_STATE);
    // it is called only when needed (short-circuit, as in the kernel).
    virtual void after_exit(kvm_vcpu& v, bool nestedv2, uint64_t tb,
                            const std::function<uint64_t()>& dec_expires) const = 0;
    // Before blocking a ceded vCPU, poll for up to l1.halt_poll_ns (cancel-poll).
    virtual bool halt_polls() const { return false; }
};

// The values l1.dec_policy accepts: cancel, cancel-poll, no-cancel, clear-on-entry.
std::vector<std::string> dec_policy_names();
// Accepts one of dec_policy_names(); throws std::invalid_argument otherwise.
std::unique_ptr<dec_policy> make_dec_policy(const std::string& name);

}  // namespace nestvp
