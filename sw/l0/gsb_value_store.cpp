// L0's stored element values (nested-virtualization.md §5.1: big-endian scalars).
#include "sw/l0/gsb_value_store.h"

#include <algorithm>
#include <cstring>

namespace nestvp {

bool gsb_value::operator==(const gsb_value& o) const {
    return len == o.len && std::memcmp(bytes.data(), o.bytes.data(), len) == 0;
}

void write_scalar(gsb_value& v, uint16_t size, uint64_t x) {
    v.len = size;
    if (size == 4)
        store_be32(v.bytes.data(), static_cast<uint32_t>(x));
    else
        store_be64(v.bytes.data(), x);
}

gsb_value scalar_value(uint16_t size, uint64_t x) {
    gsb_value v;
    write_scalar(v, size, x);
    return v;
}

uint64_t scalar_of(const gsb_value& v) {
    if (v.len == 4) return load_be32(v.bytes.data());
    if (v.len == 8) return load_be64(v.bytes.data());
    return 0;
}

gsb_value make_value(const uint8_t* p, uint16_t len) {
    gsb_value v;
    v.len = std::min<uint16_t>(len, static_cast<uint16_t>(v.bytes.size()));
    std::memcpy(v.bytes.data(), p, v.len);
    return v;
}

gsb_value_store::gsb_value_store()
    : m_vals(gsb_all_ids().size()), m_written(gsb_all_ids().size(), 0) {}

}  // namespace nestvp
