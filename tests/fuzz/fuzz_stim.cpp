// libFuzzer target: nestvp::fuzz::stim_loader (docs/fuzzing.md).
#include "tests/fuzz/fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    return nestvp::fuzz::stim_loader(data, size);
}
