#pragma once
// The machine a platform file describes, built as a SystemC netlist: cores of SMT hardware
// threads (one per L2 vCPU, each running its own L1 vCPU), the L1 partition's guest memory,
// the L0 firmware with every thread's hcall socket bound to it, and the software: an L1 CPU
// and KVM run loop and an L2 kernel (with its workload) per vCPU.
#include <memory>
#include <vector>

#include <systemc>

#include "models/core.h"
#include "models/guest_memory.h"
#include "models/hardware_thread.h"
#include "models/hcall_target.h"
#include "models/thread_memory_port.h"
#include "platforms/config/platform_config.h"
#include "platforms/runner/platform_trace.h"
#include "sw/l0/l0_firmware.h"
#include "sw/l1/dec_policy.h"
#include "sw/l1/kvm_run_loop.h"
#include "sw/l1/l1_cpu.h"
#include "sw/l2/l2_kernel.h"
#include "sw/metrics/nested_metrics.h"
#include "sw/workloads/workload.h"

namespace nestvp {

class nested_platform : public sc_core::sc_module {
public:
    // TB offsets (multiples of 2^24, timer-facilities.md §1). Their values do not change any
    // result; they are non-zero so that the offset arithmetic is exercised on every run.
    static constexpr uint64_t l1_tb_offset = 16ull << 24;
    static constexpr uint64_t l2_tb_offset = 7ull << 24;

    nested_platform(const sc_core::sc_module_name& name, const platform_config& cfg,
                    nested_metrics& metrics);
    ~nested_platform() override;

    unsigned vcpus() const { return static_cast<unsigned>(m_threads.size()); }
    unsigned cores() const { return static_cast<unsigned>(m_cores.size()); }
    hardware_thread& thread(unsigned i) { return *m_threads.at(i); }
    core& core_of(unsigned i) { return *m_cores.at(i); }
    l0_firmware& l0() { return *m_l0; }
    const kvm_run_loop& run_loop(unsigned i) const { return *m_loops.at(i); }
    // A trace writer beside the metrics; tracepoints are announced from now on. Before the
    // simulation starts.
    void add_trace_observer(probe_observer& o);
    // Total iterations of every arithoh copy.
    uint64_t arithoh_count() const;

private:
    // The netlist, in the order the constructor builds it.
    void make_cores();
    void make_memory_and_l0();
    void make_guest();  // the KVM guest L1 runs, its DEC policy, per-vCPU queues
    void add_vcpu(unsigned v);
    hardware_thread& make_thread(unsigned v);
    void make_contexts(unsigned v, hardware_thread& t);
    kvm_run_loop& make_l1_vcpu(unsigned v, hardware_thread& t);
    l2_kernel& make_l2_vcpu(unsigned v, hardware_thread& t);
    l2_vcpu_setup l2_setup(unsigned v);
    void attach_trace();
    void bind_l2_contexts();

    const platform_config& m_cfg;
    nested_metrics& m_metrics;
    nested_probe m_probe;   // what the software announces, bound to m_metrics
    probe_fanout m_fanout;  // the metrics and the trace writers, once there is a writer
    std::vector<std::unique_ptr<core>> m_cores;
    std::vector<std::unique_ptr<hardware_thread>> m_threads;
    std::unique_ptr<guest_memory> m_memory;
    std::unique_ptr<tlm_memory_port> m_l0_memory;  // L0's port to the L1 partition's memory
    std::unique_ptr<l0_firmware> m_l0;
    std::unique_ptr<hcall_target> m_l0_target;  // the hcalls' way in to L0
    std::vector<std::unique_ptr<tlm_memory_port>> m_l1_ports;
    std::vector<std::unique_ptr<thread_memory_port>> m_l1_mems;
    std::unique_ptr<dec_policy> m_policy;
    kvm_guest m_guest;
    std::vector<std::unique_ptr<sw_context>> m_l1_ctx, m_l2_ctx;
    std::vector<std::unique_ptr<l1_cpu>> m_cpus;
    std::vector<std::unique_ptr<kvm_run_loop>> m_loops;
    std::vector<std::unique_ptr<l2_kernel>> m_kernels;
    std::vector<guest_irq_queue> m_irq_queues;  // per vCPU (sized before any pointer is taken)
    l2_sched_view m_sched;
    std::vector<std::unique_ptr<workload>> m_workloads;
    std::unique_ptr<platform_trace> m_trace;
};

}  // namespace nestvp
