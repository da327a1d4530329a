// kvm_run_loop: the exits L1 emulates itself after handle_exit: XICS hcalls (H_IPI, H_XIRR,
// H_EOI) with the kick they cause, and emulated MMIO (docs/ipi.md, docs/l1-kvm-run-loop.md).
#include "sw/l1/kvm_run_loop.h"

#include "models/power_insn.h"
#include "sw/common/event_spacing.h"
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
    const unsigned ti = m_cpu.id();
    if (target.sleeping)
        m_probe.count(counter::l1_ipi_wakes, ti);
    else if (target.on_cpu)
        m_probe.count(counter::l1_ipi_kicks, ti);
    else
        return;
    target.cpu->host_ipi();
}

void kvm_run_loop::raise_external(kvm_vcpu& target, bool ipi) {
    (ipi ? target.irqs->ipi : target.irqs->device) = true;
    target.ext_pending = true;
    if (&target != &m_vcpu) kick(target);
}

void kvm_run_loop::arm_device_irq() {
    // The next completion (sw/common/event_spacing.h).
    if (m_setup.device_irq_hz <= 0) return;
    const double tb_hz = static_cast<double>(m_cpu.cpu().tb_freq_hz());
    m_cpu.start_hrtimer(
        m_device_timer,
        m_cpu.mftb() + next_event_interval(tb_hz, m_setup.device_irq_hz, m_device_rng));
}

void kvm_run_loop::device_irq() {
    // The VMM's device finishes a request on this vCPU's queue (its interrupt's affinity,
    // docs/interrupt-controller.md) and raises the interrupt: in-kernel XICS through
    // ics_deliver_irq, emulated XIVE through QEMU's xive_router_notify and KVM_INTERRUPT.
    // Either queues the external (kvmppc_book3s_queue_irqprio); a sleeping vCPU wakes.
    exec(m_costs.vmm_device_irq.cycles);
    m_probe.count(counter::l1_device_irqs, m_cpu.id());
    raise_external(m_vcpu, false);
    arm_device_irq();
}

void kvm_run_loop::xics_hcall(uint64_t nr) {
    // kvmppc_xics_hcall (book3s_xics.c), the ICP of an L2 with the in-kernel XICS
    // (l2-idle-and-get-state-paths.md §5). The arguments are GPRs of the hcall exit's output.
    const unsigned ti = m_cpu.id();
    uint64_t rc = papr::H_SUCCESS;
    guest_irq_queue& q = *m_vcpu.irqs;
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
            m_probe.count(counter::l1_ipis, ti);
            target->icp_mfrr = mfrr;
            raise_external(*target, true);
        }
    } else if (nr == papr::H_XIRR) {
        // kvmppc_h_xirr: accept the most favoured source (the IPI at IPI_PRIORITY before a
        // device at DEFAULT_PRIORITY) and lower the external until the EOI. XIRR = the CPPR
        // before the accept (0xFF: the model keeps no CPPR) | XISR.
        exec(m_costs.icp_hcall.cycles);
        uint64_t xisr = 0;
        if (q.ipi) {
            xisr = papr::XICS_IPI, q.ipi = false;
        } else if (q.device) {
            xisr = papr::XICS_DEVICE_IRQ, q.device = false;
        }
        m_vcpu.ext_pending = false;
        const uint64_t xirr = xisr ? (uint64_t{0xFF} << 24) | xisr : 0;
        if (m_guest.nestedv2)
            m_cache.set(gsid::gpr(4), xirr);
        else
            m_vcpu.v1_gpr[4] = xirr;
    } else {
        // kvmppc_h_eoi: an IPI still raised (MFRR < 0xFF) is presented again, and so is a
        // source that arrived meanwhile.
        exec(m_costs.icp_hcall.cycles);
        if (m_vcpu.icp_mfrr != 0xFF) q.ipi = true;
        m_vcpu.ext_pending = q.any();
    }
    m_probe.count(counter::l1_icp_hcalls, ti);
    set_return(rc);
}

uint64_t kvm_run_loop::vmm_xive_access(uint64_t ea, bool store) {
    guest_irq_queue& q = *m_vcpu.irqs;
    if (xive_page::is_tima(ea)) {
        if (!store && (ea & 0xFFF) == xive_page::tm_spc_ack_os_reg) {
            // xive_tctx_accept (xive.c:491): the pending priority is accepted and the line
            // lowered; the sources stay in the event queue for the guest to read.
            m_vcpu.ext_pending = false;
            return q.any() ? 0x8000 : 0;  // NSR_EO | the priority
        }
        // A CPPR store (xive.c:484): anything still pending is presented again.
        if (store && q.any()) m_vcpu.ext_pending = true;
        return 0;
    }
    const uint64_t source = (ea - xive_page::esb_base) / xive_page::esb_stride;
    if (store && (ea & xive_page::esb_trigger) && source >= 1) {
        // A trigger store to vCPU n's IPI source (xive_source_esb_write, xive.c:1072):
        // the router queues it in n's event queue and raises n's line.
        const uint64_t n = source - 1;
        kvm_vcpu* target = n < m_guest.vcpus.size() ? m_guest.vcpus[n] : nullptr;
        if (target) {
            m_probe.count(counter::l1_ipis, m_cpu.id());
            raise_external(*target, true);
        }
    }
    // An ESB load of SET_PQ_00 (xive.c:1042) is the EOI: nothing more is raised here.
    return 0;
}

void kvm_run_loop::emulate_mmio() {
    // HDSI on a page with no memslot: kvmppc_book3s_hv_page_fault -> kvmppc_hv_emulate_mmio
    // -> kvmppc_emulate_loadstore: MSR (byte order), NIA (the instruction is loaded from
    // there), HDAR and HDSISR from the exit; a store reads its source GPR, a load's target GPR
    // is written on completion (kvmppc_complete_mmio_load). The access itself is a
    // KVM_EXIT_MMIO round trip to the VMM (l2-idle-and-get-state-paths.md §2). In nestedv2 a
    // store's GPR costs one GET_STATE: no L0 returns GPRs on 0xE00.
    const unsigned ti = m_cpu.id();
    exec(m_costs.mmio_emulate.cycles);
    m_probe.count(counter::l1_mmio_emulations, ti);
    const bool v2 = m_guest.nestedv2;
    if (v2) (void)m_cache.get(gsid::MSR);
    const uint64_t ea = v2 ? m_cache.get(gsid::HDAR) : m_vcpu.v1_hdar;
    const uint64_t dsisr = v2 ? m_cache.get(gsid::HDSISR) : m_vcpu.v1_hdsisr;
    const bool store = (dsisr & 0x02000000ull) != 0;  // DSISR_ISSTORE
    const unsigned reg =
        power_insn::rs_field(store ? power_insn::guest_mmio_store : power_insn::guest_mmio_load);
    const uint64_t nia = v2 ? m_cache.get(gsid::NIA) : m_vcpu.v1_nia;
    if (store && v2) {
        const uint64_t before = m_cache.reloads();
        (void)m_cache.get(gsid::gpr(reg));
        if (m_cache.reloads() != before) m_probe.count(counter::l1_mmio_gpr_reloads, ti);
    }
    // (nestedv1: pt_regs came back whole with the exit, the GPR with it.)
    // KVM_EXIT_MMIO: out to the VMM, its handling, and back through KVM_RUN.
    mark(path_step::l1_vmm_exit);
    exec(m_costs.vmm_exit.cycles);
    m_probe.count(counter::l1_userspace_mmio, ti);
    mark(path_step::l1_vmm_dispatch);
    exec(m_costs.vmm_dispatch.cycles);
    const uint64_t value = vmm_xive_access(ea, store);
    mark(path_step::l1_vmm_entry);
    exec(m_costs.vmm_entry.cycles);
    if (v2) {
        if (!store) m_cache.set(gsid::gpr(reg), value);
        m_cache.set(gsid::NIA, nia + 4);
    } else {
        if (!store) m_vcpu.v1_gpr[reg] = value;
        m_vcpu.v1_nia = nia + 4;
    }
}

}  // namespace nestvp
