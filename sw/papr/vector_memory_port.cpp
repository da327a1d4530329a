// Byte-vector memory for tests; bounds are checked before any byte moves.
#include "sw/papr/vector_memory_port.h"

#include <cstring>

namespace nestvp {

vector_memory_port::vector_memory_port(size_t size, uint64_t base) : m_bytes(size), m_base(base) {}

bool vector_memory_port::contains(uint64_t addr, size_t len) const {
    if (addr < m_base) return false;
    const uint64_t off = addr - m_base;
    return off <= m_bytes.size() && len <= m_bytes.size() - off;
}

bool vector_memory_port::read(uint64_t addr, void* dst, size_t len) {
    if (!contains(addr, len)) return false;
    if (len) std::memcpy(dst, m_bytes.data() + (addr - m_base), len);
    ++m_reads;
    return true;
}

bool vector_memory_port::write(uint64_t addr, const void* src, size_t len) {
    if (!contains(addr, len)) return false;
    if (len) std::memcpy(m_bytes.data() + (addr - m_base), src, len);
    ++m_writes;
    return true;
}

}  // namespace nestvp
