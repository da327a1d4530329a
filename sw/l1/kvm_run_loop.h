#pragma once
// The L1 KVM host's run loop for one L2 vCPU, on its own L1 vCPU and hardware thread:
// kvmppc_vcpu_run_hv -> kvmhv_run_single_vcpu step by step (nested-virtualization.md §2.2,
// §2.3, §2.5, §3, §4.5): flush dirty state with HDEC_EXPIRY_TB = L1's next timer event and
// LPCR, H_GUEST_RUN_VCPU (or H_ENTER_NESTED for v1), parse the output buffer, the
// kvm_guest_exit count once per pass, the DEC policy, exit handling, and the cede path
// (kvmppc_cede, kvmppc_vcpu_check_block, kvmppc_set_timer with its hrtimer, blocking, wake).
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "models/memory_port.h"
#include "sw/l1/dec_policy.h"
#include "sw/l1/kvm_vcpu.h"
#include "sw/l1/l1_cpu.h"
#include "sw/l1/nestedv2_state_cache.h"
#include "sw/probes/nested_probe.h"

namespace nestvp {

// L1's VM, shared by the run loops of its vCPUs.
struct kvm_guest {
    bool nestedv2 = true;
    uint64_t id = 0;
    bool created = false;
    cpu_signal created_signal;     // raised by vCPU 0 once the guest exists
    uint64_t tb_offset = 0;        // L2 TB - L1 TB, a multiple of 2^24
    uint64_t lpcr = 0;             // L2's LPCR (LD)
    std::vector<kvm_vcpu*> vcpus;  // by vCPU id: H_IPI's targets (kvmppc_find_vcpu)
};

// What L1 knows of an L2 vCPU at creation, and which L1 paths read its PC after every exit
// (each read of an invalid NIA costs a GET_STATE in nestedv2, nested-virtualization.md §2.5).
struct l2_vcpu_setup {
    uint64_t boot_msr = 0, boot_nia = 0;
    bool dtl = true;                  // L2 registered a DTL: each entry writes the PC into it
    l1_config l1;                     // the tracepoint and the polling window
    guest_irq_queue* irqs = nullptr;  // what the controller presents to this vCPU
    double device_irq_hz = 0;         // device interrupts the VMM raises on this vCPU
    uint64_t seed = 1;                // the run's seed (device interrupt spacing)
};

// Where one vCPU's buffers live in L1 memory.
struct vcpu_buffers {
    uint64_t input = 0, input_size = 0, output = 0, output_size = 0, hv_state = 0, pt_regs = 0;
};

class kvm_run_loop {
public:
    kvm_run_loop(l1_cpu& cpu, kvm_guest& guest, unsigned vcpu_id, const dec_policy& policy,
                 memory_port& mem, const vcpu_buffers& buffers, const l1_costs& costs,
                 nested_probe& probe, const l2_vcpu_setup& setup);

    // The L1 vCPU's program (a SystemC thread).
    void main();
    const kvm_vcpu& vcpu() const { return m_vcpu; }

private:
    uint64_t hcall(uint64_t nr, uint64_t a4 = 0, uint64_t a5 = 0, uint64_t a6 = 0, uint64_t a7 = 0,
                   uint64_t a8 = 0, uint64_t* r4 = nullptr);
    void exec(double cycles) { m_cpu.exec(cycles); }
    void create_guest();
    void create_vcpu();
    void run_single_vcpu();
    // `entered` is false when it returned without an hcall (lazy_irq_pending).
    uint32_t enter_nestedv2(uint64_t time_limit, uint64_t& tb, bool& entered);
    uint32_t enter_nestedv1(uint64_t time_limit, uint64_t& tb);
    void kvmppc_cede();
    // kvmppc_hv_emulate_mmio after an HDSI exit: the store's source GPR, then NIA past it.
    void emulate_mmio();
    // The VMM's XIVE (QEMU hw/intc/xive.c, spapr_xive.c) behind a KVM_EXIT_MMIO: the TIMA
    // ack lowers the line, a CPPR store re-presents what is still queued, a trigger store
    // queues that vCPU's IPI and raises it (KVM_INTERRUPT). Returns a load's value.
    uint64_t vmm_xive_access(uint64_t ea, bool store);
    // Present `source` to `target` and raise its external: kvmppc_book3s_queue_irqprio and
    // kvmppc_fast_vcpu_kick_hv (KVM_INTERRUPT from the VMM, or the in-kernel ICP).
    void raise_external(kvm_vcpu& target, bool ipi);
    // The VMM's device completes: a device interrupt on this vCPU, then the next one armed.
    void device_irq();
    void arm_device_irq();
    uint64_t hcall_number();  // the L2's r3 at a 0xC00 exit
    uint64_t gpr(unsigned n);
    void set_return(uint64_t r3);
    // kvmppc_pseries_do_hcall -> kvmppc_xics_hcall: H_IPI, H_XIRR, H_EOI (book3s_xics.c).
    void xics_hcall(uint64_t nr);
    void trace_guest_enter();
    void trace_guest_exit(uint32_t trap);
    // kvmppc_fast_vcpu_kick_hv: wake the target if asleep, IPI its thread if on a CPU.
    void kick(kvm_vcpu& target);
    uint64_t entry_lpcr() const;  // L2's LPCR for the next entry: MER while an external waits
    bool vcpu_woken() const;
    bool check_block() const;
    void set_timer();
    uint64_t dec_expires_host_tb();
    void mark(path_step s);
    // The latencies of the pass that just returned from L0 (docs/nested-entry-exit.md).
    void run_hcall_issued();
    void run_hcall_returned();
    void sample_after_run(uint32_t reason);

    l1_cpu& m_cpu;
    kvm_guest& m_guest;
    const dec_policy& m_policy;
    memory_port& m_mem;
    vcpu_buffers m_buf;
    l1_costs m_costs;
    nested_probe& m_probe;
    kvm_vcpu m_vcpu;
    nestedv2_state_cache m_cache;
    l2_vcpu_setup m_setup;
    // Path times (sc_time values) of the last exit, for the latencies that end later.
    struct last_exit {
        bool valid = false;
        bool trapped = false;  // L2 ran and trapped (not an immediate exit)
        uint32_t reason = 0;
        uint64_t trap = 0, resumed = 0;
        uint64_t blocks = 0;  // m_blocks when it was taken
    } m_last;
    uint64_t m_issued = 0, m_resumed = 0;  // the last run hcall's issue and return
    uint64_t m_blocks = 0;                 // times this vCPU blocked
    uint64_t m_wake_from = 0;              // hrtimer expiry that queued the DEC (0: none pending)
    hrtimer m_device_timer;                // the VMM's device completions on this vCPU
    std::mt19937_64 m_device_rng;
};

}  // namespace nestvp
