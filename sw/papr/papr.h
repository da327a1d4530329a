#pragma once
// PAPR hypervisor-call constants used by the nested-virtualization model.
// Values from Linux arch/powerpc/include/asm/hvcall.h (return codes, opcodes, H_GUEST_* flags and
// capability bits; nestedv2 codes added by the 2023 "KVM: PPC: Nested PAPR guests" series) and
// QEMU include/hw/ppc/spapr.h / spapr_nested.h (H_UNSUPPORTED_FLAG, H_IN_USE, limits).
// nested-virtualization.md §5.4 lists the hcalls; §2.6 the exit vectors.
#include <cstdint>
#include <string>

namespace nestvp {
namespace papr {

// ---- Return codes (hvcall.h) ----
constexpr int64_t H_SUCCESS = 0;
constexpr int64_t H_BUSY = 1;
constexpr int64_t H_NOT_AVAILABLE = 3;
constexpr int64_t H_LONG_BUSY_START_RANGE = 9900;
constexpr int64_t H_LONG_BUSY_END_RANGE = 9905;
constexpr int64_t H_HARDWARE = -1;
constexpr int64_t H_FUNCTION = -2;
constexpr int64_t H_PRIVILEGE = -3;
constexpr int64_t H_PARAMETER = -4;
constexpr int64_t H_BAD_MODE = -5;
constexpr int64_t H_NOT_FOUND = -7;
constexpr int64_t H_NO_MEM = -9;
constexpr int64_t H_AUTHORITY = -10;
constexpr int64_t H_PERMISSION = -11;
constexpr int64_t H_RESOURCE = -16;
constexpr int64_t H_P2 = -55;
constexpr int64_t H_P3 = -56;
constexpr int64_t H_P4 = -57;
constexpr int64_t H_P5 = -58;
constexpr int64_t H_P6 = -59;
constexpr int64_t H_P7 = -60;
constexpr int64_t H_P8 = -61;
constexpr int64_t H_P9 = -62;
constexpr int64_t H_TOO_BIG = -64;
constexpr int64_t H_UNSUPPORTED = -67;
constexpr int64_t H_OVERLAP = -68;
constexpr int64_t H_STATE = -75;
constexpr int64_t H_IN_USE = -77;
constexpr int64_t H_INVALID_ELEMENT_ID = -79;
constexpr int64_t H_INVALID_ELEMENT_SIZE = -80;
constexpr int64_t H_INVALID_ELEMENT_VALUE = -81;
constexpr int64_t H_INPUT_BUFFER_NOT_DEFINED = -82;
constexpr int64_t H_INPUT_BUFFER_TOO_SMALL = -83;
constexpr int64_t H_OUTPUT_BUFFER_NOT_DEFINED = -84;
constexpr int64_t H_OUTPUT_BUFFER_TOO_SMALL = -85;
constexpr int64_t H_PARTITION_PAGE_TABLE_NOT_DEFINED = -86;
constexpr int64_t H_GUEST_VCPU_STATE_NOT_HV_OWNED = -87;
constexpr int64_t H_UNSUPPORTED_FLAG_START = -256;  // QEMU's H_UNSUPPORTED_FLAG
constexpr int64_t H_UNSUPPORTED_FLAG_END = -511;
constexpr int64_t H_UNSUPPORTED_FLAG = H_UNSUPPORTED_FLAG_START;

// ---- Hcall opcodes (hvcall.h; nested-virtualization.md §5.4) ----
// XICS interrupt presentation (icp-hv.c): end of interrupt, set a server's MFRR (its IPI),
// accept the most favoured pending interrupt.
constexpr uint64_t H_EOI = 0x64;
constexpr uint64_t H_IPI = 0x6C;
constexpr uint64_t H_XIRR = 0x74;
constexpr uint64_t XICS_IPI = 2;              // the IPI's interrupt source number (asm/xics.h)
constexpr uint64_t XICS_DEVICE_IRQ = 0x1300;  // a device MSI: QEMU's SPAPR_IRQ_MSI, the first
constexpr uint64_t IPI_PRIORITY = 4;          // the MFRR an IPI is raised with (asm/xics.h)
constexpr uint64_t H_REGISTER_VPA = 0xDC;
constexpr uint64_t H_CEDE = 0xE0;
constexpr uint64_t H_CONFER = 0xE4;
constexpr uint64_t H_PROD = 0xE8;
constexpr uint64_t H_RPT_INVALIDATE = 0x448;
constexpr uint64_t H_GUEST_GET_CAPABILITIES = 0x460;
constexpr uint64_t H_GUEST_SET_CAPABILITIES = 0x464;
constexpr uint64_t H_GUEST_CREATE = 0x470;
constexpr uint64_t H_GUEST_CREATE_VCPU = 0x474;
constexpr uint64_t H_GUEST_GET_STATE = 0x478;
constexpr uint64_t H_GUEST_SET_STATE = 0x47C;
constexpr uint64_t H_GUEST_RUN_VCPU = 0x480;
constexpr uint64_t H_GUEST_COPY_MEMORY = 0x484;
constexpr uint64_t H_GUEST_DELETE = 0x488;
constexpr uint64_t H_SET_PARTITION_TABLE = 0xF800;  // nestedv1
constexpr uint64_t H_ENTER_NESTED = 0xF804;
constexpr uint64_t H_TLB_INVALIDATE = 0xF808;
constexpr uint64_t H_COPY_TOFROM_GUEST = 0xF80C;

// Name of an hcall opcode ("H_CEDE"), or nullptr when unknown.
const char* hcall_name(uint64_t opcode);

// ---- Flags (hvcall.h; bit n in PAPR numbering = 1 << (63 - n)) ----
constexpr uint64_t ppc_bit(unsigned n) {
    return uint64_t{1} << (63 - n);
}
constexpr uint64_t H_GUEST_FLAGS_WIDE = ppc_bit(0);       // GET/SET_STATE: guest-wide request
constexpr uint64_t H_GUEST_FLAGS_HOST_WIDE = ppc_bit(1);  // GET_STATE: host-wide (2025)
constexpr uint64_t H_GUEST_SET_STATE_FLAGS_MASK = H_GUEST_FLAGS_WIDE;  // QEMU spapr_nested.h
constexpr uint64_t H_GUEST_GET_STATE_FLAGS_MASK = H_GUEST_FLAGS_WIDE | H_GUEST_FLAGS_HOST_WIDE;
constexpr uint64_t H_GUEST_DELETE_ALL_FLAG = ppc_bit(0);  // H_GUEST_DELETE: delete all guests
// H_GUEST_RUN_VCPU flag bits (§3.5): never used by Linux, rejected by QEMU.
constexpr uint64_t H_GUEST_RUN_GEN_EXT_INT = ppc_bit(0);
constexpr uint64_t H_GUEST_RUN_GEN_PRIV_DBELL = ppc_bit(1);
constexpr uint64_t H_GUEST_RUN_SYSTEM_RESET = ppc_bit(2);
constexpr uint64_t H_GUEST_CREATE_CONTINUE_NONE = ~uint64_t{0};  // continue token -1

// ---- Capability bitmap (H_GUEST_{GET,SET}_CAPABILITIES, hvcall.h) ----
constexpr uint64_t H_GUEST_CAP_COPY_MEM = ppc_bit(0);
constexpr uint64_t H_GUEST_CAP_POWER9 = ppc_bit(1);
constexpr uint64_t H_GUEST_CAP_POWER10 = ppc_bit(2);
constexpr uint64_t H_GUEST_CAP_POWER11 = ppc_bit(3);
constexpr uint64_t H_GUEST_CAP_BITMAP2 = ppc_bit(63);
// Processor-mode capabilities an L1 may select (QEMU H_GUEST_CAP_VALID_MASK: P9/P10/P11 modes).
constexpr uint64_t H_GUEST_CAP_VALID_MASK =
    H_GUEST_CAP_POWER9 | H_GUEST_CAP_POWER10 | H_GUEST_CAP_POWER11;

// ---- Limits (QEMU spapr_nested.h) ----
constexpr uint64_t PAPR_NESTED_GUEST_MAX = 4096;       // guest ids 1..4095
constexpr uint64_t PAPR_NESTED_GUEST_VCPU_MAX = 2048;  // vCPU ids 0..2047 (§5.4)
constexpr uint64_t VCPU_RUN_BUF_MIN_SIZE = 0x80;       // VCPU_OUT_BUF_MIN_SZ (§5.1)
constexpr uint64_t VCPU_RUN_BUF_MAX_SIZE = 16384;      // "per spec" in QEMU copy_state_runbuf
constexpr uint64_t GSB_MAX_BUF_SIZE = 1024 * 1024;     // GET/SET limit (§5.1)

// ---- Exit vectors returned in R4 by H_GUEST_RUN_VCPU / R3 by H_ENTER_NESTED (§2.6) ----
constexpr uint64_t EXIT_NONE = 0x000;  // stopped for an unspecified reason
constexpr uint64_t EXIT_EXTERNAL = 0x500;
constexpr uint64_t EXIT_DEC = 0x900;  // delivered inside L2, never an exit to L1 in v2
constexpr uint64_t EXIT_HDEC = 0x980;
constexpr uint64_t EXIT_HCALL = 0xC00;
constexpr uint64_t EXIT_HDSI = 0xE00;
constexpr uint64_t EXIT_HISI = 0xE20;
constexpr uint64_t EXIT_HEA = 0xE40;  // hypervisor emulation assistance
constexpr uint64_t EXIT_HMI = 0xE60;
constexpr uint64_t EXIT_H_DOORBELL = 0xE80;
constexpr uint64_t EXIT_HVIRT = 0xEA0;
constexpr uint64_t EXIT_PERFMON = 0xF00;
constexpr uint64_t EXIT_HFAC = 0xF80;      // hypervisor facility unavailable
constexpr uint64_t EXIT_L0_HDEC = 0x1980;  // KVM-internal: L1's hdec_expiry reached (§2.4)

// Name of an exit vector ("HDEC"), or nullptr when unknown.
const char* exit_name(uint64_t vector);

// ---- Labels: the one place codes get their names in tables, CSV and JSON ----
// "0x980 HDEC": the number first, so keys sort and grep by it; "0x123" when unnamed.
std::string exit_label(uint64_t vector);
// "H_CEDE (0xe0)": the name first, as hcalls are known by it; "0x123" when unnamed.
std::string hcall_label(uint64_t opcode);

}  // namespace papr
}  // namespace nestvp
