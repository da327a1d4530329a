#include "sw/l1/dec_policy.h"

#include <stdexcept>

namespace nestvp {

namespace {

// The upstream check (book3s_hv.c, kvmhv_run_single_vcpu step 7, §2.2):
// if (pending_dec && tb < dec_expires_host_tb) dequeue.
void cancel_if_rearmed(kvm_vcpu& v, uint64_t tb, const std::function<uint64_t()>& dec_expires) {
    if (v.dec_queued && tb < dec_expires()) v.dec_queued = false;
}

class cancel_policy : public dec_policy {
public:
    std::string name() const override { return "cancel"; }
    void on_entry(kvm_vcpu&, bool) const override {}
    void after_exit(kvm_vcpu& v, bool, uint64_t tb,
                    const std::function<uint64_t()>& dec_expires) const override {
        cancel_if_rearmed(v, tb, dec_expires);
    }
};

class no_cancel_policy : public dec_policy {
public:
    std::string name() const override { return "no-cancel"; }
    void on_entry(kvm_vcpu&, bool) const override {}
    void after_exit(kvm_vcpu& v, bool nestedv2, uint64_t tb,
                    const std::function<uint64_t()>& dec_expires) const override {
        if (!nestedv2) cancel_if_rearmed(v, tb, dec_expires);  // 180c6b072bf3: v2 only
    }
};

class clear_on_entry_policy : public dec_policy {
public:
    std::string name() const override { return "clear-on-entry"; }
    void on_entry(kvm_vcpu& v, bool nestedv2) const override {
        if (nestedv2) v.dec_queued = false;  // L0 raises it from DEC_EXPIRY_TB
    }
    void after_exit(kvm_vcpu& v, bool nestedv2, uint64_t tb,
                    const std::function<uint64_t()>& dec_expires) const override {
        if (!nestedv2) cancel_if_rearmed(v, tb, dec_expires);
    }
};

}  // namespace

std::unique_ptr<dec_policy> make_dec_policy(const std::string& name) {
    if (name == "cancel") return std::make_unique<cancel_policy>();
    if (name == "no-cancel") return std::make_unique<no_cancel_policy>();
    if (name == "clear-on-entry") return std::make_unique<clear_on_entry_policy>();
    throw std::invalid_argument("unknown l1.dec_policy '" + name +
                                "' (expected cancel, no-cancel or clear-on-entry)");
}

}  // namespace nestvp
