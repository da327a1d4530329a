#pragma once
// A result of any kind as trace-stats counts, so that a model run and a real machine line up
// (`nestvp compare --results A B`): a run record, a trace-stats JSON, a real-stack counts JSON,
// or a trace text (read as trace-stats reads it).
#include <string>

#include "platforms/records/run_record.h"
#include "platforms/traces/trace_stats.h"

namespace nestvp {

// What a record's metrics say a perf session would have counted over the run: kvm_guest_exit
// and its traps, the gsb_recv probe, exits per vCPU, and L1's hcalls per opcode as L0 handled
// them, less H_CEDE (an L1 CPU's idle cede uses the notrace hcall; see plpar_hcall.h).
trace_stats trace_stats_of_record(const run_record& rec, const std::string& path);
// Reads `path` as whichever result it is; throws naming the file when it is none of them.
trace_stats read_result_stats(const std::string& path);

}  // namespace nestvp
