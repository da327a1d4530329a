#pragma once
// The architected registers and records software and the hardware thread exchange: MSR and
// LPCR bits, interrupt vectors, what taking an interrupt did, the `sc 1` register frame and
// why a guest trapped. Plain declarations: no SystemC.
#include <array>
#include <cstdint>

namespace nestvp {

// MSR bits (IBM numbering in comments; masks are LSB-0).
namespace msr {
constexpr uint64_t sf = 1ull << 63;  // bit 0
constexpr uint64_t hv = 1ull << 60;  // bit 3
constexpr uint64_t ee = 1ull << 15;  // bit 48
constexpr uint64_t pr = 1ull << 14;  // bit 49
constexpr uint64_t me = 1ull << 12;  // bit 51
constexpr uint64_t ir = 1ull << 5;   // bit 58
constexpr uint64_t dr = 1ull << 4;   // bit 59
constexpr uint64_t ri = 1ull << 1;   // bit 62
constexpr uint64_t le = 1ull << 0;   // bit 63
// SRR1/HSRR1 <- MSR with bits 33:36 and 42:47 cleared (§2.2, Q-excp powerpc_excp_books).
constexpr uint64_t srr1_cleared = 0x0000000078000000ull | 0x00000000003F0000ull;
}  // namespace msr

// LPCR bits (§4.1 sources: Linux asm/reg.h).
namespace lpcr {
constexpr uint64_t ld = 0x20000;  // bit 46, large decrementer
constexpr uint64_t dee = 0x2000;  // bit 50, DEC wake-up enable
constexpr uint64_t heic = 0x10;   // bit 59
constexpr uint64_t lpes0 = 0x8;   // bit 60
constexpr uint64_t mer = 0x800;   // bit 52, mediated external request
constexpr uint64_t hvice = 0x2;   // bit 62
constexpr uint64_t hdice = 0x1;   // bit 63
}  // namespace lpcr

namespace vector {
constexpr uint32_t external = 0x500;           // §4.1, SRR form (LPES=1 view, or LPCR[MER])
constexpr uint32_t program = 0x700;            // privileged-instruction type via SRR1 bit 45
constexpr uint32_t decrementer = 0x900;        // §2.2
constexpr uint32_t hdecrementer = 0x980;       // §3
constexpr uint32_t hv_emulation = 0xE40;       // Hypervisor Emulation Assistance
constexpr uint32_t hv_virtualization = 0xEA0;  // §4.1, the interrupt controller (XIVE) to HV
}  // namespace vector

// What taking an interrupt did.
struct interrupt_record {
    uint32_t vector = 0;
    bool hypervisor = false;  // saved into HSRR0/1 (true) or SRR0/1 (false)
    uint64_t save0 = 0;       // SRR0 or HSRR0: the NIA to resume at
    uint64_t save1 = 0;       // SRR1 or HSRR1: the interrupted MSR (bits cleared per §2.2)
    uint64_t new_msr = 0;
};

// The GPRs of `sc 1` (PAPR calling convention): r3 = hcall number on the way in, return code
// on the way out; r4.. arguments and results.
struct hcall_frame {
    std::array<uint64_t, 13> r{};  // r0..r12
};

// Why a guest stopped running: the interrupt vector L0 saw, with the guest's NIA and MSR.
struct trap_info {
    uint32_t vector = 0;
    uint64_t nia = 0;
    uint64_t msr = 0;
    // Hypervisor Data Storage (0xE00): HDAR, HDSISR and ASDR as the hardware sets them.
    uint64_t hdar = 0, hdsisr = 0, asdr = 0;
};

}  // namespace nestvp
