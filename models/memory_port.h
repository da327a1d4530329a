#pragma once
// Byte access to modelled guest (L1 real) memory, as seen by software (L0 firmware, L1's
// buffers): the hardware's interface. The SystemC machine implements it over TLM-2.0
// (models/tlm_memory_port.h); plain tests use sw/papr/vector_memory_port.h.
// A false return means an address error: some byte of [addr, addr+len) is not backed memory.
// Implementations must not partially write on error.
#include <cstddef>
#include <cstdint>

namespace nestvp {

struct memory_port {
    virtual ~memory_port() = default;
    virtual bool read(uint64_t addr, void* dst, size_t len) = 0;
    virtual bool write(uint64_t addr, const void* src, size_t len) = 0;
};

}  // namespace nestvp
