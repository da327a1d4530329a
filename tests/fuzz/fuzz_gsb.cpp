// libFuzzer target: the guest-state-buffer decoder, nestvp::fuzz::gsb_decoder (docs/fuzzing.md).
#include "tests/fuzz/fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    return nestvp::fuzz::gsb_decoder(data, size);
}
