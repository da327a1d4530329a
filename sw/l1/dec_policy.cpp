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

class cancel_poll_policy : public cancel_policy {
public:
    std::string name() const override { return "cancel-poll"; }
    bool halt_polls() const override { return true; }
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

// One instance of each policy: their names are the values l1.dec_policy accepts.
std::vector<std::unique_ptr<dec_policy>> all_policies() {
    std::vector<std::unique_ptr<dec_policy>> all;
    all.push_back(std::make_unique<cancel_policy>());
    all.push_back(std::make_unique<no_cancel_policy>());
    all.push_back(std::make_unique<clear_on_entry_policy>());
    all.push_back(std::make_unique<cancel_poll_policy>());
    return all;
}

}  // namespace

std::vector<std::string> dec_policy_names() {
    std::vector<std::string> names;
    for (const auto& p : all_policies()) names.push_back(p->name());
    return names;
}

std::unique_ptr<dec_policy> make_dec_policy(const std::string& name) {
    for (auto& p : all_policies())
        if (p->name() == name) return std::move(p);
    std::string known;
    for (const auto& n : dec_policy_names()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown l1.dec_policy '" + name + "' (known: " + known + ")");
}

}  // namespace nestvp
