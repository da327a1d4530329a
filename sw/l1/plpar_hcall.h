#pragma once
// plpar_hcall: an hcall of the L1 kernel to L0, with the powerpc:hcall_entry and hcall_exit
// tracepoints around it (arch/powerpc/platforms/pseries/hvCall.S: HCALL_INST_PRECALL and
// HCALL_INST_POSTCALL call __trace_hcall_entry(opcode) and __trace_hcall_exit(opcode, r3)).
// The idle H_CEDE of an L1 CPU uses the notrace variant (cede_processor,
// plpar_hcall_norets_notrace) and does not come here.
#include "models/cpu_if.h"
#include "sw/probes/nested_probe.h"

namespace nestvp {

inline void plpar_hcall(cpu_if& cpu, nested_probe& probe, hcall_frame& f) {
    const uint64_t opcode = f.r[3];
    if (probe.tracing()) {
        tracepoint_event e(tracepoint::hcall_entry, cpu.id(), cpu.step_time());
        e.opcode = opcode;
        probe.tracepoint(e);
    }
    cpu.hcall(f);
    if (probe.tracing()) {
        tracepoint_event e(tracepoint::hcall_exit, cpu.id(), cpu.step_time());
        e.opcode = opcode;
        e.retval = static_cast<int64_t>(f.r[3]);
        probe.tracepoint(e);
    }
}

// The kprobe on kvmppc_gsb_recv: fires at its entry, before the H_GUEST_GET_STATE it issues.
inline void gsb_recv_probe(cpu_if& cpu, nested_probe& probe) {
    if (!probe.tracing()) return;
    probe.tracepoint(tracepoint_event(tracepoint::gsb_recv, cpu.id(), cpu.step_time()));
}

}  // namespace nestvp
