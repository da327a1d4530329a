#pragma once
// What l0_guest_table keeps per guest and per vCPU (private to its sources): the element values
// ever written, by scope (nested-virtualization.md §5.2).
#include <cstdint>
#include <map>

#include "sw/l0/gsb_value_store.h"
#include "sw/l0/l0_guest_table.h"
#include "sw/papr/gsb_codec.h"

namespace nestvp {

struct l0_guest_table::vcpu_state {
    gsb_value_store values;  // thread-wide and meta IDs ever written
};

struct l0_guest_table::guest_state {
    gsb_value_store values;  // guest-wide IDs ever written
    std::map<uint64_t, vcpu_state> vcpus;
};

// A registered buffer-info element (0x0C00/0x0C01): address and size.
inline bool buffer_info(const gsb_value_store& values, uint16_t id, uint64_t& addr,
                        uint64_t& size) {
    const gsb_value* v = values.find(id);
    if (!v) return false;
    addr = load_be64(v->bytes.data());
    size = load_be64(v->bytes.data() + 8);
    return true;
}

// An hcall's result registers.
inline hcall_result rc(int64_t code, uint64_t r4 = 0, uint64_t r5 = 0) {
    hcall_result r;
    r.r3 = code;
    r.r4 = r4;
    r.r5 = r5;
    return r;
}

inline bool ranges_overlap(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen) {
    return a < b + blen && b < a + alen;
}

}  // namespace nestvp
