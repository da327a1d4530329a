// Hcall names for logs and counters (opcodes from papr.h).
#include "sw/papr/papr.h"

namespace nestvp {
namespace papr {

const char* hcall_name(uint64_t opcode) {
    switch (opcode) {
        case H_REGISTER_VPA:
            return "H_REGISTER_VPA";
        case H_CEDE:
            return "H_CEDE";
        case H_CONFER:
            return "H_CONFER";
        case H_PROD:
            return "H_PROD";
        case H_RPT_INVALIDATE:
            return "H_RPT_INVALIDATE";
        case H_GUEST_GET_CAPABILITIES:
            return "H_GUEST_GET_CAPABILITIES";
        case H_GUEST_SET_CAPABILITIES:
            return "H_GUEST_SET_CAPABILITIES";
        case H_GUEST_CREATE:
            return "H_GUEST_CREATE";
        case H_GUEST_CREATE_VCPU:
            return "H_GUEST_CREATE_VCPU";
        case H_GUEST_GET_STATE:
            return "H_GUEST_GET_STATE";
        case H_GUEST_SET_STATE:
            return "H_GUEST_SET_STATE";
        case H_GUEST_RUN_VCPU:
            return "H_GUEST_RUN_VCPU";
        case H_GUEST_COPY_MEMORY:
            return "H_GUEST_COPY_MEMORY";
        case H_GUEST_DELETE:
            return "H_GUEST_DELETE";
        case H_SET_PARTITION_TABLE:
            return "H_SET_PARTITION_TABLE";
        case H_ENTER_NESTED:
            return "H_ENTER_NESTED";
        case H_TLB_INVALIDATE:
            return "H_TLB_INVALIDATE";
        case H_COPY_TOFROM_GUEST:
            return "H_COPY_TOFROM_GUEST";
        default:
            return nullptr;
    }
}

}  // namespace papr
}  // namespace nestvp
