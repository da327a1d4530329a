// kvm_run_loop: the exits L1 emulates itself after handle_exit: XICS hcalls (H_IPI, H_XIRR,
// H_EOI) with the kick they cause, and emulated MMIO (docs/ipi.md, docs/l1-kvm-run-loop.md).
#include "sw/l1/kvm_run_loop.h"

#include "models/exception_logic.h"
#include "models/power_insn.h"
#include "sw/papr/gsb_ids.h"
#include "sw/papr/papr.h"

namespace nestvp {

uint64_t kvm_run_loop::gpr(unsigned n) {
    // kvmppc_get_gpr: GPR3-12 come back in an hcall exit's output (§2.6), so no GET_STATE.
    return m_guest.nestedv2 ? m_cache.get(gsid::gpr(n)) : m_vcpu.v1_gpr[n];
}

void kvm_run_loop::set_return(uint64_t r3) {
    if (m_guest.nestedv2)
        m_cache.set(gsid::GPR3, r3);
    else
        m_vcpu.v1_gpr[3] = r3;
}

uint64_t kvm_run_loop::entry_lpcr() const {
    // kvmhv_run_single_vcpu on pseries: a queued external sets LPCR_MER in the LPCR passed to
    // L0, none clears it (a373830f96db, ec0f6639fa88); L0 then delivers it in L2.
    return m_guest.lpcr | (m_vcpu.ext_pending ? lpcr::mer : 0);
}

void kvm_run_loop::kick(kvm_vcpu& target) {
    // kvmppc_fast_vcpu_kick_hv: a sleeper on the vCPU's rcuwait is woken (its CPU idles in
    // H_CEDE to L0, so the wake-up is a host IPI there too); a vCPU on a CPU (thread_cpu >= 0)
    // gets kvmppc_ipi_thread. Otherwise the queued external waits for its next entry.
    const unsigned ti = m_cpu.thread().id();
    if (target.sleeping)
        m_metrics.add(counter::l1_ipi_wakes, ti);
    else if (target.on_cpu)
        m_metrics.add(counter::l1_ipi_kicks, ti);
    else
        return;
    target.thread->host_ipi();
}

void kvm_run_loop::xics_hcall(uint64_t nr) {
    // kvmppc_xics_hcall (book3s_xics.c), the ICP an L2 under KVM on PowerVM uses
    // (l2-idle-and-get-state-paths.md §5). The arguments are GPRs of the hcall exit's output.
    const unsigned ti = m_cpu.thread().id();
    uint64_t rc = papr::H_SUCCESS;
    if (nr == papr::H_IPI) {
        // kvmppc_h_ipi: set the server's MFRR; more favoured than 0xFF, icp_deliver_irq
        // queues its external (kvmppc_book3s_queue_irqprio) and kicks it.
        const uint64_t server = gpr(4);
        const auto mfrr = static_cast<uint8_t>(gpr(5));
        kvm_vcpu* target = server < m_guest.vcpus.size() ? m_guest.vcpus[server] : nullptr;
        if (!target) {
            rc = static_cast<uint64_t>(papr::H_PARAMETER);
        } else if (mfrr == 0xFF) {
            exec(m_costs.icp_hcall.cycles);
            target->icp_mfrr = mfrr;
        } else {
            exec(m_costs.ipi_emulate.cycles);
            m_metrics.add(counter::l1_ipis, ti);
            target->icp_mfrr = mfrr;
            target->ext_pending = true;
            if (target != &m_vcpu) kick(*target);
        }
    } else if (nr == papr::H_XIRR) {
        // kvmppc_h_xirr: accept the pending interrupt and dequeue the external. XIRR = the
        // CPPR before the accept (0xFF: the model keeps no CPPR) | XISR (the IPI, XICS_IPI).
        exec(m_costs.icp_hcall.cycles);
        const uint64_t xirr = m_vcpu.ext_pending ? (uint64_t{0xFF} << 24) | papr::XICS_IPI : 0;
        m_vcpu.ext_pending = false;
        if (m_guest.nestedv2)
            m_cache.set(gsid::gpr(4), xirr);
        else
            m_vcpu.v1_gpr[4] = xirr;
    } else {
        // kvmppc_h_eoi: an IPI still raised (MFRR < 0xFF) is presented again.
        exec(m_costs.icp_hcall.cycles);
        if (m_vcpu.icp_mfrr != 0xFF) m_vcpu.ext_pending = true;
    }
    m_metrics.add(counter::l1_icp_hcalls, ti);
    set_return(rc);
}

void kvm_run_loop::emulate_mmio() {
    // kvmppc_hv_emulate_mmio -> kvmppc_emulate_mmio: MSR (byte order), NIA (the instruction is
    // loaded from there: kvmppc_get_last_inst), the store's source GPR
    // (kvmppc_emulate_loadstore), the device access, then NIA past the store
    // (l2-idle-and-get-state-paths.md §2). The HDSI output holds MSR and NIA but no GPR, so in
    // nestedv2 the GPR costs one GET_STATE.
    const unsigned ti = m_cpu.thread().id();
    exec(m_costs.mmio_emulate.cycles);
    m_metrics.add(counter::l1_mmio_emulations, ti);
    const unsigned rs = power_insn::rs_field(power_insn::guest_mmio_store);
    if (m_guest.nestedv2) {
        (void)m_cache.get(gsid::MSR);
        const uint64_t nia = m_cache.get(gsid::NIA);
        const uint64_t before = m_cache.reloads();
        (void)m_cache.get(gsid::gpr(rs));
        if (m_cache.reloads() != before) m_metrics.add(counter::l1_mmio_gpr_reloads, ti);
        m_cache.set(gsid::NIA, nia + 4);
    } else {
        (void)m_vcpu.v1_gpr[rs];  // pt_regs came back whole with the exit
        m_vcpu.v1_nia += 4;
    }
}

}  // namespace nestvp
