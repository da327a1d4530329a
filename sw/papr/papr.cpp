// Hcall names for logs and counters (opcodes from papr.h).
#include "sw/papr/papr.h"

#include <cstdio>

namespace nestvp {
namespace papr {

const char* hcall_name(uint64_t opcode) {
    switch (opcode) {
        case H_EOI:
            return "H_EOI";
        case H_IPI:
            return "H_IPI";
        case H_XIRR:
            return "H_XIRR";
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

const char* exit_name(uint64_t vector) {
    // nested-virtualization.md §2.5 (documented H_GUEST_RUN_VCPU exit reasons).
    switch (vector) {
        case EXIT_NONE:
            return "stopped";
        case EXIT_EXTERNAL:
            return "external";
        case EXIT_DEC:
            return "DEC";
        case EXIT_HDEC:
            return "HDEC";
        case EXIT_HCALL:
            return "hcall";
        case EXIT_HDSI:
            return "HDSI";
        case EXIT_HISI:
            return "HISI";
        case EXIT_HEA:
            return "HEA";
        case EXIT_HMI:
            return "HMI";
        case EXIT_H_DOORBELL:
            return "H_DOORBELL";
        case EXIT_HVIRT:
            return "HVI";
        case EXIT_PERFMON:
            return "PERFMON";
        case EXIT_HFAC:
            return "H_FAC";
        case EXIT_L0_HDEC:
            return "L0_HDEC";
        default:
            return nullptr;
    }
}

namespace {

std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

}  // namespace

std::string exit_label(uint64_t vector) {
    const char* n = exit_name(vector);
    return n ? hex(vector) + " " + n : hex(vector);
}

std::string hcall_label(uint64_t opcode) {
    const char* n = hcall_name(opcode);
    return n ? std::string(n) + " (" + hex(opcode) + ")" : hex(opcode);
}

}  // namespace papr
}  // namespace nestvp
