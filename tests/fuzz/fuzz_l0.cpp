// libFuzzer target: nestvp::fuzz::l0_hcall (docs/fuzzing.md).
#include "tests/fuzz/fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    return nestvp::fuzz::l0_hcall(data, size);
}
