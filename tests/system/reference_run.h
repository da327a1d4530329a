#pragma once
// A shortened run of platforms/reference.yaml through the nestvp command (SystemC elaborates
// once per process), for the system tests that compare runs.
#include <string>

#include "platforms/report/run_record.h"

namespace nestvp::test {

// `nestvp run platforms/reference.yaml --quiet SETS --json FILE` and its record's metrics. SETS
// is "--set k=v ..." text. The JSON file is named after the test and the settings, so tests that
// ctest -j runs side by side never share one; it is removed after reading.
run_metrics run_reference(const std::string& sets);

}  // namespace nestvp::test
