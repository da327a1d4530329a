#pragma once
// L0's stored element values: the big-endian bytes of each GSB element as it travels in a
// buffer (nested-virtualization.md §5.1), one slot per known ID.
#include <array>
#include <cstdint>
#include <vector>

#include "sw/papr/gsb_codec.h"

namespace nestvp {

// A stored element value: the big-endian bytes as they travel in a GSB.
struct gsb_value {
    uint16_t len = 0;
    std::array<uint8_t, 24> bytes{};
    bool operator==(const gsb_value& o) const;
    bool operator!=(const gsb_value& o) const { return !(*this == o); }
};

// A big-endian scalar of 4 or 8 bytes, written in place. Inline: the run and exit paths call
// it for every register they move.
inline void write_scalar(gsb_value& v, uint16_t size, uint64_t x) {
    v.len = size;
    if (size == 4)
        store_be32(v.bytes.data(), static_cast<uint32_t>(x));
    else
        store_be64(v.bytes.data(), x);
}
gsb_value scalar_value(uint16_t size, uint64_t x);
// The scalar in a 4- or 8-byte value; 0 for any other length.
inline uint64_t scalar_of(const gsb_value& v) {
    if (v.len == 4) return load_be32(v.bytes.data());
    if (v.len == 8) return load_be64(v.bytes.data());
    return 0;
}
// A value from buffer bytes, cut to the slot's capacity.
gsb_value make_value(const uint8_t* p, uint16_t len);

// One slot per known ID (gsb_dense_index), with a written flag: O(1) on the run/exit path.
class gsb_value_store {
public:
    gsb_value_store();
    const gsb_value* find(uint16_t id) const {
        const int i = gsb_dense_index(id);
        return (i >= 0 && m_written[i]) ? &m_vals[i] : nullptr;
    }
    bool count(uint16_t id) const { return find(id) != nullptr; }
    gsb_value& operator[](uint16_t id) {  // id must be known
        const int i = gsb_dense_index(id);
        m_written[i] = 1;
        return m_vals[i];
    }
    // Stores a scalar in place (the run and exit paths write 16 per exit).
    void set_scalar(uint16_t id, uint16_t size, uint64_t x) { write_scalar((*this)[id], size, x); }
    template <typename F>
    void for_each(F&& f) const {  // ascending ID order
        for (size_t i = 0; i < m_vals.size(); ++i)
            if (m_written[i]) f(gsb_all_ids()[i].id, m_vals[i]);
    }

private:
    std::vector<gsb_value> m_vals;
    std::vector<uint8_t> m_written;
};

}  // namespace nestvp
