#pragma once
// `nestvp run --perf-script FILE`: the L1 kernel's tracepoints as `perf script --ns` prints
// them, `COMM TID [CPU] SECONDS: EVENT: FIELDS`, one line per event in time order
// (docs/perf-script.md). Each field list is the kernel's TP_printk:
//   kvm_hv:kvm_guest_enter  "VCPU %d: pc=0x%lx pexcp=0x%lx ceded=%d"      (trace_hv.h)
//   kvm_hv:kvm_guest_exit   "VCPU %d: trap=%s pc=0x%lx msr=0x%lx, ceded=%d" (trace_hv.h)
//   powerpc:hcall_entry     "opcode=%lu"                                   (asm/trace.h)
//   powerpc:hcall_exit      "opcode=%lu retval=%ld"                        (asm/trace.h)
//   probe:kvmppc_gsb_recv   "(ADDRESS)", a function-entry kprobe made by `perf probe`
// COMM and TID are what one QEMU process per L2 shows: its vCPU threads, "CPU v/KVM".
#include <cstdint>
#include <string>
#include <vector>

#include "platforms/traces/trace_clock.h"
#include "sw/probes/nested_probe.h"

namespace nestvp {

class perf_script_writer final : public probe_listener {
public:
    // QEMU's process ID; vCPU v's thread is qemu_pid + 1 + v.
    static constexpr unsigned qemu_pid = 1000;
    // Where the kprobe reports it fired: a kvm_hv module text address, nominal.
    static constexpr uint64_t gsb_recv_address = 0xc008000008a1c0f0ull;

    // Events from start_s to end_s (end_s < 0: to the run's end) are kept.
    perf_script_writer(const trace_clock& clock, double start_s, double end_s);

    void on_tracepoint(const tracepoint_event& e) override;

    size_t events() const { return m_events.size(); }
    // The file's text: a `#` header naming the platform, then the events by time (events of
    // the same time stay in the order they were announced).
    std::string text(const std::string& platform) const;

private:
    std::string line(const tracepoint_event& e) const;

    trace_clock m_clock;
    double m_start_s, m_end_s;
    std::vector<tracepoint_event> m_events;
};
}  // namespace nestvp
