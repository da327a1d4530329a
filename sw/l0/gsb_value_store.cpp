// L0's stored element values (nested-virtualization.md §5.1: big-endian scalars).
#include "sw/l0/gsb_value_store.h"

#include <algorithm>
#include <cstring>

namespace nestvp {

bool gsb_value::operator==(const gsb_value& o) const {
    return len == o.len && std::memcmp(bytes.data(), o.bytes.data(), len) == 0;
}

gsb_value scalar_value(uint16_t size, uint64_t x) {
    gsb_value v;
    write_scalar(v, size, x);
    return v;
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
