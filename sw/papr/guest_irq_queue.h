#pragma once
// What the interrupt controller presents to one L2 vCPU, shared by its two sides: the
// controller (KVM's in-kernel ICP in L1, or the VMM's emulated XIVE in L1 userspace) sets a
// source when it raises the vCPU's external; the guest learns the source from H_XIRR's XISR
// (XICS) or by reading its event queue after the TIMA ack (XIVE), and the source is then
// consumed (docs/interrupt-controller.md).
#include <cstdint>

namespace nestvp {

// The XIVE pages an L2 maps under QEMU's spapr XIVE (two-page ESBs, QEMU spapr_xive.c): the
// TIMA's OS view and one 128 KiB ESB pair per source (EOI page, then trigger page). Source 0
// is the device's; source 1 + n is vCPU n's IPI.
namespace xive_page {
constexpr uint64_t tima_os = 0x0006030203180000ull;
constexpr uint64_t esb_base = 0x0006030300000000ull;
constexpr uint64_t esb_stride = 0x20000;
constexpr uint64_t esb_trigger = 0x10000;      // the trigger page of a pair
constexpr uint64_t tm_spc_ack_os_reg = 0x810;  // TM_SPC_ACK_OS_REG (xive-regs.h)
constexpr uint64_t tm_cppr = 0x11;             // TM_QW1_OS + TM_CPPR
constexpr uint64_t esb_set_pq_00 = 0xC00;      // XIVE_ESB_SET_PQ_00: the load-EOI of an MSI
constexpr uint64_t esb_of(unsigned source) {
    return esb_base + uint64_t{source} * esb_stride;
}
constexpr bool is_tima(uint64_t ea) {
    return (ea & ~0xFFFull) == tima_os;
}
}  // namespace xive_page

struct guest_irq_queue {
    bool ipi = false;     // the vCPU's IPI (XICS MFRR below 0xFF; XIVE: its IPI source)
    bool device = false;  // a device interrupt routed to this vCPU
    bool any() const { return ipi || device; }
};

}  // namespace nestvp
