// Run-output element lists (nested-virtualization.md §2.6, §6: QEMU get_exit_ids()).
#include "sw/l0/run_output_policy.h"

#include <algorithm>

#include "sw/papr/gsb_codec.h"
#include "sw/papr/papr.h"

namespace nestvp {

using namespace papr;

const char* to_string(run_output_policy p) {
    switch (p) {
        case run_output_policy::qemu:
            return "qemu";
        case run_output_policy::powervm:
            return "powervm";
        case run_output_policy::powervm_dec_expiry:
            return "powervm-dec-expiry";
        case run_output_policy::powervm_deduced:
            return "powervm-deduced";
    }
    return "?";
}

namespace {
const run_output_policy all_run_output_policies[] = {
    run_output_policy::qemu, run_output_policy::powervm, run_output_policy::powervm_dec_expiry,
    run_output_policy::powervm_deduced};
}  // namespace

std::vector<std::string> run_output_policy_names() {
    std::vector<std::string> names;
    for (auto p : all_run_output_policies) names.push_back(to_string(p));
    return names;
}

bool parse_run_output_policy(const std::string& s, run_output_policy& out) {
    for (auto p : all_run_output_policies)
        if (s == to_string(p)) {
            out = p;
            return true;
        }
    return false;
}

std::vector<uint16_t> run_output_ids(uint64_t exit_vector, run_output_policy p) {
    std::vector<uint16_t> ids;
    run_output_ids(exit_vector, p, ids);
    return ids;
}

void run_output_ids(uint64_t exit_vector, run_output_policy p, std::vector<uint16_t>& ids) {
    ids.clear();
    // §6, QEMU get_exit_ids(): elements by exit vector; anything else -> empty buffer.
    switch (exit_vector) {
        case EXIT_HCALL:
            for (unsigned n = 3; n <= 12; ++n) ids.push_back(gsid::gpr(n));
            // §2.6 [inference]: PowerVM's flat GET_STATE count under the no-cancel policy
            // implies it also returns MSR (and NIA) on hcall exits; QEMU does not.
            if (p != run_output_policy::qemu) {
                ids.push_back(gsid::NIA);
                ids.push_back(gsid::MSR);
            }
            break;
        case EXIT_HDSI:
            ids.assign({gsid::HDAR, gsid::HDSISR, gsid::ASDR, gsid::NIA, gsid::MSR});
            break;
        case EXIT_HISI:
            ids.assign({gsid::HDAR, gsid::ASDR, gsid::NIA, gsid::MSR});
            break;
        case EXIT_HEA:
            ids.assign({gsid::HEIR, gsid::NIA, gsid::MSR});
            break;
        case EXIT_HFAC:
            ids.assign({gsid::HFSCR, gsid::NIA, gsid::MSR});
            break;
        default:
            // get-state-deduction.md §3: the kvm_guest_exit tracepoint's NIA read after an
            // HDEC (or any other) exit is visible to the probe, and the seed shows no policy-
            // dependent reloads, so PowerVM returns NIA on every exit reason.
            if (p == run_output_policy::powervm_deduced) ids.push_back(gsid::NIA);
            break;
    }
    // §2.6: newer PowerVM firmware puts DEC expiry TB in the output buffer on every trap.
    if (p == run_output_policy::powervm_dec_expiry || p == run_output_policy::powervm_deduced)
        ids.push_back(gsid::DEC_EXPIRY_TB);
}

// The largest run-output buffer any policy can produce (header + elements), computed once.
uint64_t largest_run_output() {
    static const uint64_t largest = [] {
        static const uint64_t vectors[] = {EXIT_HCALL, EXIT_HDSI, EXIT_HISI, EXIT_HEA, EXIT_HFAC};
        uint64_t best = 0;
        for (auto p : all_run_output_policies)
            for (uint64_t v : vectors) {
                uint64_t n = GSB_HEADER_SIZE;
                for (uint16_t id : run_output_ids(v, p))
                    n += GSB_ELEMENT_HEADER_SIZE + gsb_find_id(id)->size;
                best = std::max(best, n);
            }
        return best;
    }();
    return largest;
}

}  // namespace nestvp
