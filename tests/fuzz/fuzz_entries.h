#pragma once
// Entry functions shared by the libFuzzer targets (NESTVP_FUZZ=ON, clang) and the gcc-built
// replay test (tests/fuzz/fuzz_replay_test.cpp), so every corpus and crash file is replayed
// through exactly the code the fuzzer ran. Each returns 0; a broken invariant prints what
// broke and aborts (a finding for libFuzzer, a failure for ctest). docs/fuzzing.md.
#include <cstddef>
#include <cstdint>

namespace nestvp::fuzz {

// gsb_decode on an arbitrary buffer; byte 0 picks the request (get/set, wide, host-wide).
int gsb_decoder(const uint8_t* data, size_t size);
// A script of L0 hcalls (dispatch, begin_run, end_run) with random opcodes, arguments and
// guest-memory contents over a vector_memory_port.
int l0_hcall(const uint8_t* data, size_t size);
// load_platform on a temporary file holding the bytes before the first NUL; the NUL-separated
// strings after it are --set overrides.
int platform_loader(const uint8_t* data, size_t size);
// parse_stim on the bytes as a stimulus file.
int stim_loader(const uint8_t* data, size_t size);

}  // namespace nestvp::fuzz
