#pragma once
// L1's own loads and stores to its (real) memory, where it builds guest state buffers for L0.
// L1 software reaches memory directly (the costs of building buffers are charged per element).
#include "models/guest_memory.h"
#include "sw/gsb/memory_port.h"

namespace nestvp {

class l1_memory : public memory_port {
public:
    explicit l1_memory(guest_memory& mem) : m_mem(mem) {}
    bool read(uint64_t addr, void* dst, size_t len) override { return m_mem.peek(addr, dst, len); }
    bool write(uint64_t addr, const void* src, size_t len) override {
        return m_mem.poke(addr, src, len);
    }

private:
    guest_memory& m_mem;
};

}  // namespace nestvp
