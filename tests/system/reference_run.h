#pragma once
// A shortened run of platforms/reference.yaml through the nestvp command (SystemC elaborates
// once per process), for the system tests that compare runs.
#include <string>

#include "platforms/records/run_record.h"

namespace nestvp::test {

// `nestvp run platforms/reference.yaml --quiet SETS --json FILE` and its record's metrics. SETS
// is "--set k=v ..." text. The JSON file is named after the test and the settings, so tests that
// ctest -j runs side by side never share one; it is removed after reading.
run_metrics run_reference(const std::string& sets);

// A counter of the run ("l2.snoozes"), 0 when the record leaves it out (it was zero).
double counter(const run_metrics& m, const std::string& key);
// The same counter of L2 vCPU v (which must exist).
double vcpu_counter(const run_metrics& m, unsigned v, const std::string& key);

}  // namespace nestvp::test
