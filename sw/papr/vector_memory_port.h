#pragma once
// memory_port over a host byte vector, for tests without SystemC. Addresses start at `base`.
#include <cstdint>
#include <vector>

#include "models/memory_port.h"

namespace nestvp {

class vector_memory_port : public memory_port {
public:
    explicit vector_memory_port(size_t size, uint64_t base = 0);
    bool read(uint64_t addr, void* dst, size_t len) override;
    bool write(uint64_t addr, const void* src, size_t len) override;

    // True when [addr, addr+len) lies inside the memory (overflow-safe).
    bool contains(uint64_t addr, size_t len) const;
    uint64_t base() const { return m_base; }
    size_t size() const { return m_bytes.size(); }
    std::vector<uint8_t>& bytes() { return m_bytes; }
    const std::vector<uint8_t>& bytes() const { return m_bytes; }
    uint64_t reads() const { return m_reads; }
    uint64_t writes() const { return m_writes; }

private:
    std::vector<uint8_t> m_bytes;
    uint64_t m_base;
    uint64_t m_reads = 0;
    uint64_t m_writes = 0;
};

}  // namespace nestvp
