#pragma once
// The register block of nestedv1 H_ENTER_NESTED (struct pt_regs, Linux
// arch/powerpc/include/uapi/asm/ptrace.h: gpr[32], nip, msr, orig_gpr3, ctr, link, xer, ccr,
// softe, trap, dar, dsisr, result), big-endian in L1 memory. The model fills gpr, nip, msr.
#include <array>
#include <cstdint>

#include "models/memory_port.h"

namespace nestvp {

struct nested_pt_regs {
    std::array<uint64_t, 32> gpr{};
    uint64_t nip = 0, msr = 0;
};

constexpr uint64_t NESTED_PT_REGS_SIZE = 44 * 8;

// Address error -> H_PARAMETER (as hv_guest_state_read/write).
int64_t nested_pt_regs_read(memory_port& mem, uint64_t addr, nested_pt_regs& regs);
int64_t nested_pt_regs_write(memory_port& mem, uint64_t addr, const nested_pt_regs& regs);

}  // namespace nestvp
