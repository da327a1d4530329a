#include "sw/papr/nested_pt_regs.h"

#include "sw/papr/gsb_codec.h"
#include "sw/papr/papr.h"

namespace nestvp {

int64_t nested_pt_regs_read(memory_port& mem, uint64_t addr, nested_pt_regs& regs) {
    uint8_t buf[NESTED_PT_REGS_SIZE];
    if (!mem.read(addr, buf, sizeof(buf))) return papr::H_PARAMETER;
    for (unsigned n = 0; n < 32; ++n) regs.gpr[n] = load_be64(buf + 8 * n);
    regs.nip = load_be64(buf + 8 * 32);
    regs.msr = load_be64(buf + 8 * 33);
    return papr::H_SUCCESS;
}

int64_t nested_pt_regs_write(memory_port& mem, uint64_t addr, const nested_pt_regs& regs) {
    uint8_t buf[NESTED_PT_REGS_SIZE] = {};
    for (unsigned n = 0; n < 32; ++n) store_be64(buf + 8 * n, regs.gpr[n]);
    store_be64(buf + 8 * 32, regs.nip);
    store_be64(buf + 8 * 33, regs.msr);
    return mem.write(addr, buf, sizeof(buf)) ? papr::H_SUCCESS : papr::H_PARAMETER;
}

}  // namespace nestvp
