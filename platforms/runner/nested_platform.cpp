#include "platforms/runner/nested_platform.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "models/exception_logic.h"
#include "sw/workloads/arithoh.h"

namespace nestvp {

namespace {
constexpr uint64_t min_memory_size = 4ull << 20;  // the L1 memory the model touches (48 vCPUs)
constexpr uint64_t buffers_base = 0x100000;       // per-vCPU buffers, 64 KiB apart
constexpr uint64_t buffers_stride = 0x10000;
constexpr uint64_t run_input_size = 4096;   // all thread-wide IDs fit (§2.5)
constexpr uint64_t run_output_size = 1024;  // >= RUN_OUTPUT_MIN_SIZE (0x80, §5.1)
constexpr uint64_t l2_boot_nia = 0xc000000000000100ull;
constexpr size_t coroutine_stack = 256 * 1024;
constexpr uint64_t boot_msr = msr::sf | msr::me | msr::ee;

// vCPU v's hcall buffers in L1's memory: input, output, nestedv1 hv_guest_state and pt_regs.
vcpu_buffers buffers_of(unsigned v) {
    vcpu_buffers buf;
    buf.input = buffers_base + v * buffers_stride;
    buf.input_size = run_input_size;
    buf.output = buf.input + 0x4000;
    buf.output_size = run_output_size;
    buf.hv_state = buf.input + 0x8000;
    buf.pt_regs = buf.input + 0x9000;
    return buf;
}

run_output_policy parse_policy(const std::string& s) {
    run_output_policy p;
    if (!parse_run_output_policy(s, p))
        throw std::invalid_argument("unknown l0.run_output '" + s + "'");
    return p;
}
}  // namespace

// The netlist: the cores, then L1's memory and L0 bound to it, then each vCPU's thread and
// software in vCPU order (the order SystemC creates and first runs their processes), then the
// trace and L0's view of the L2 contexts.
nested_platform::nested_platform(const sc_core::sc_module_name& name, const platform_config& cfg,
                                 nested_metrics& metrics)
    : sc_core::sc_module(name), m_cfg(cfg), m_metrics(metrics) {
    m_probe.bind(&m_metrics);  // the metrics observe what the software and hardware announce
    make_cores();
    make_memory_and_l0();
    make_guest();
    for (unsigned v = 0; v < cfg.l2.vcpus; ++v) add_vcpu(v);
    if (!cfg.run.trace_path.empty()) attach_trace();
    bind_l2_contexts();
}

void nested_platform::make_cores() {
    const unsigned n = m_cfg.l2.vcpus;
    const unsigned per_core = m_cfg.machine.core.threads;
    const unsigned ncores = m_cfg.machine.cores ? m_cfg.machine.cores : m_cfg.cores_needed();
    if (ncores < m_cfg.cores_needed())  // the loader refuses this; a config built in code may not
        throw std::invalid_argument("machine.cores = " + std::to_string(ncores) + " holds " +
                                    std::to_string(ncores * per_core) +
                                    " threads; l2.vcpus needs " + std::to_string(n));
    for (unsigned i = 0; i < ncores; ++i)
        m_cores.push_back(
            std::make_unique<core>(("core" + std::to_string(i)).c_str(), m_cfg.machine.core));
}

void nested_platform::make_memory_and_l0() {
    const unsigned n = m_cfg.l2.vcpus;
    m_memory = std::make_unique<guest_memory>(
        "l1_memory", std::max(min_memory_size, buffers_base + n * buffers_stride),
        sc_core::sc_time(m_cfg.machine.memory.latency_ns, sc_core::SC_NS));
    m_l0_memory = std::make_unique<tlm_memory_port>("l0_memory");
    m_l0_memory->socket.bind(m_memory->socket);
    m_l0 = std::make_unique<l0_firmware>(*m_l0_memory, parse_policy(m_cfg.l0.run_output),
                                         m_cfg.l0.costs, m_probe);
    m_l0_target = std::make_unique<hcall_target>("l0", *m_l0);
    // v1 keeps DEC in the register both ways: the rule applies to v2's save and restore.
    m_l0->set_dec_expiry_mirrored(m_cfg.l0.api == "v2" && m_cfg.l0.dec_expiry == "now-minus-dec");
}

void nested_platform::make_guest() {
    const unsigned n = m_cfg.l2.vcpus;
    m_policy = make_dec_policy(m_cfg.l1.dec_policy);
    m_guest.nestedv2 = m_cfg.l0.api == "v2";
    m_guest.tb_offset = l2_tb_offset;
    m_guest.lpcr = m_cfg.machine.timer.large_dec ? lpcr::ld : 0;
    m_irq_queues.assign(n, guest_irq_queue{});
    m_sched.polling.assign(n, 0);
    m_sched.need_resched.assign(n, 0);
}

void nested_platform::add_vcpu(unsigned v) {
    hardware_thread& t = make_thread(v);
    make_contexts(v, t);
    kvm_run_loop& loop = make_l1_vcpu(v, t);
    l2_kernel& kernel = make_l2_vcpu(v, t);
    sc_core::sc_spawn_options opts;
    opts.set_stack_size(coroutine_stack);
    kvm_run_loop* lp = &loop;
    l2_kernel* kp = &kernel;
    sc_core::sc_spawn([lp] { lp->main(); }, ("l1_vcpu" + std::to_string(v)).c_str(), &opts);
    sc_core::sc_spawn([kp] { kp->main(); }, ("l2_vcpu" + std::to_string(v)).c_str(), &opts);
}

// vCPU v's thread: on its core by machine.placement, its hcall socket bound to L0.
hardware_thread& nested_platform::make_thread(unsigned v) {
    const unsigned per_core = m_cfg.machine.core.threads;
    const unsigned ncores = static_cast<unsigned>(m_cores.size());
    const bool spread = m_cfg.machine.placement == "spread";
    const unsigned core_index = spread ? v % ncores : v / per_core;
    const unsigned slot = spread ? v / ncores : v % per_core;
    if (slot >= per_core)
        throw std::invalid_argument("machine: vCPU " + std::to_string(v) + " has no free thread");
    core& owner = *m_cores[core_index];
    m_threads.push_back(std::make_unique<hardware_thread>(("thread" + std::to_string(v)).c_str(),
                                                          owner, slot, m_cfg.machine.timer));
    hardware_thread& t = *m_threads.back();
    t.set_id(v);
    t.hcall_socket.bind(m_l0_target->socket);
    m_l0_target->threads.bind(t);  // L0 acts on the thread that called it (by id)
    return t;
}

// vCPU v's L1 and L2 contexts; the thread starts in L1.
void nested_platform::make_contexts(unsigned v, hardware_thread& t) {
    auto l1 = std::make_unique<sw_context>();
    l1->name = "l1.vcpu" + std::to_string(v);
    l1->level = context_level::l1;
    l1->tb_offset = l1_tb_offset;
    l1->msr = boot_msr;
    auto l2 = std::make_unique<sw_context>();
    l2->name = "l2.vcpu" + std::to_string(v);
    l2->level = context_level::l2;
    l2->msr = boot_msr;
    l2->nia = l2_boot_nia;
    // L1 runs as a partition of L0: HV=0, its TB offset in force, no HDEC interrupts.
    t.set_host(l1.get());
    t.tbr().set_offset(l1_tb_offset);
    t.irq().set_msr(boot_msr);
    t.irq().set_lpcr(m_cfg.machine.timer.large_dec ? lpcr::ld : 0);
    t.set_level(context_level::l1);
    m_l1_ctx.push_back(std::move(l1));
    m_l2_ctx.push_back(std::move(l2));
}

// vCPU v's L1 side: its CPU, its port into L1's memory, and its KVM run loop.
kvm_run_loop& nested_platform::make_l1_vcpu(unsigned v, hardware_thread& t) {
    const timer_unit_options& topts = m_cfg.machine.timer;
    m_cpus.push_back(std::make_unique<l1_cpu>(t, *m_l1_ctx[v], m_cfg.l1, topts.large_dec,
                                              topts.dec_bits, m_cfg.l1.costs, m_probe));
    // The L1 vCPU's data port into its memory (TLM, DMI when granted).
    m_l1_ports.push_back(
        std::make_unique<tlm_memory_port>(("l1_port" + std::to_string(v)).c_str()));
    m_l1_ports.back()->socket.bind(m_memory->socket);
    m_l1_mems.push_back(std::make_unique<thread_memory_port>(*m_l1_ports.back(), &t));
    m_loops.push_back(std::make_unique<kvm_run_loop>(*m_cpus.back(), m_guest, v, *m_policy,
                                                     *m_l1_mems.back(), buffers_of(v),
                                                     m_cfg.l1.costs, m_probe, l2_setup(v)));
    return *m_loops.back();
}

// vCPU v's L2 side: its kernel, with an arithoh copy on the first workload.arithoh_copies.
l2_kernel& nested_platform::make_l2_vcpu(unsigned v, hardware_thread& t) {
    workload* work = nullptr;
    if (v < m_cfg.workload.arithoh_copies) {
        m_workloads.push_back(
            std::make_unique<arithoh>(t, m_cfg.workload.arithoh_iteration.cycles));
        work = m_workloads.back().get();
    }
    l2_params p;
    static_cast<l2_config&>(p) = m_cfg.l2;
    p.vcpu = v;
    p.vcpus = m_cfg.l2.vcpus;
    p.large_dec = m_cfg.machine.timer.large_dec;
    p.dec_bits = m_cfg.machine.timer.dec_bits;
    p.seed = m_cfg.run.seed;
    m_kernels.push_back(std::make_unique<l2_kernel>(t, *m_l2_ctx[v], p, m_cfg.l2.costs, m_probe,
                                                    work, m_irq_queues[v], m_sched));
    return *m_kernels.back();
}

// What L1 hands the run loop to set up L2 vCPU v.
l2_vcpu_setup nested_platform::l2_setup(unsigned v) {
    l2_vcpu_setup setup;
    setup.boot_msr = boot_msr;
    setup.boot_nia = l2_boot_nia;
    setup.dtl = m_cfg.l2.dtl;
    setup.l1 = m_cfg.l1;
    setup.irqs = &m_irq_queues[v];
    // A multi-queue device's managed vectors: queue i's interrupt on vCPU i
    // (group_cpus_evenly, docs/interrupt-controller.md), so each vCPU takes an equal share.
    setup.device_irq_hz = m_cfg.l2.devices_irq_hz / m_cfg.l2.vcpus;
    setup.seed = m_cfg.run.seed;
    return setup;
}

void nested_platform::add_trace_observer(probe_observer& o) {
    if (m_fanout.empty()) {
        m_fanout.add(m_metrics);
        m_probe.bind(&m_fanout);
    }
    m_fanout.add(o);
    m_probe.set_tracing(true);
}

void nested_platform::attach_trace() {
    std::vector<hardware_thread*> threads;
    for (auto& t : m_threads) threads.push_back(t.get());
    m_trace = std::make_unique<platform_trace>(m_cfg.run.trace_path, threads,
                                               m_cfg.run.trace_start_s, m_cfg.run.trace_end_s);
    for (unsigned v = 0; v < m_threads.size(); ++v)
        m_threads[v]->set_trace_hook([this, v] { m_trace->sample(v); });
}

// L0 finds an L2 vCPU's context by its id.
void nested_platform::bind_l2_contexts() {
    m_l0->set_context_provider([this](uint64_t, uint64_t vcpu) -> sw_context* {
        return vcpu < m_l2_ctx.size() ? m_l2_ctx[vcpu].get() : nullptr;
    });
}

nested_platform::~nested_platform() = default;

uint64_t nested_platform::arithoh_count() const {
    uint64_t total = 0;
    for (const auto& w : m_workloads) total += w->count();
    return total;
}

}  // namespace nestvp
