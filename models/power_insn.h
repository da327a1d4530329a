#pragma once
// Power ISA instruction images the models exchange (Book I, D-form stores).
//
// The model keeps no guest text. A hypervisor that emulates a guest's MMIO store loads the
// instruction at the faulting NIA from guest memory and decodes its source register
// (kvmppc_load_last_inst, kvmppc_emulate_loadstore); here both sides use the one image of the
// guest's MMIO accessor below (docs/l1-kvm-run-loop.md, "Emulated MMIO").
#include <cstdint>

namespace nestvp::power_insn {

// stw RS,D(RA): primary opcode 36, RS in bits 6-10, RA in 11-15, D in 16-31.
constexpr uint32_t stw(unsigned rs, unsigned ra, int16_t d) {
    return (36u << 26) | ((rs & 31u) << 21) | ((ra & 31u) << 16) | static_cast<uint16_t>(d);
}
constexpr unsigned primary_opcode(uint32_t insn) {
    return insn >> 26;
}
constexpr unsigned rs_field(uint32_t insn) {
    return (insn >> 21) & 31u;
}

// ld RT,DS(RA): primary opcode 58, RT in bits 6-10 (DS-form).
constexpr uint32_t ld(unsigned rt, unsigned ra, int16_t ds) {
    return (58u << 26) | ((rt & 31u) << 21) | ((ra & 31u) << 16) |
           (static_cast<uint16_t>(ds) & 0xFFFCu);
}

// The guest's MMIO accessors: a store (iowrite32, out_be64 -> stw r9,0(r10)) and a load
// (in_be64 -> ld r9,0(r10)). HDSISR says which one trapped.
constexpr uint32_t guest_mmio_store = stw(9, 10, 0);
constexpr uint32_t guest_mmio_load = ld(9, 10, 0);

}  // namespace nestvp::power_insn
