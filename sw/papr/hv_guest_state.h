#pragma once
// nestedv1 `struct hv_guest_state` (Linux arch/powerpc/include/asm/hvcall.h, version 2;
// nested-virtualization.md §2.3-§2.4), serialised big-endian at an L1 real address.
// Layout (byte offsets): version 0, lpid 8 (u32), vcpu_token 12 (u32), lpcr 16, pcr 24, amor 32,
// dpdes 40, hfscr 48, tb_offset 56 (s64), dawr0 64, dawrx0 72, ciabr 80, hdec_expiry 88,
// purr 96, spurr 104, ic 112, vtb 120, hdar 128, hdsisr 136, heir 144, asdr 152, srr0 160,
// srr1 168, sprg[4] 176, pidr 208, cfar 216, ppr 224 (version 1 ends at 232), dawr1 232,
// dawrx1 240 (version 2 ends at 248) - hv_guest_state_size() in hvcall.h.
#include <cstddef>
#include <cstdint>

#include "models/memory_port.h"

namespace nestvp {

struct hv_guest_state {
    uint64_t version = 2;
    uint32_t lpid = 0;
    uint32_t vcpu_token = 0;
    uint64_t lpcr = 0, pcr = 0, amor = 0, dpdes = 0, hfscr = 0;
    int64_t tb_offset = 0;
    uint64_t dawr0 = 0, dawrx0 = 0, ciabr = 0, hdec_expiry = 0;
    uint64_t purr = 0, spurr = 0, ic = 0, vtb = 0;
    uint64_t hdar = 0, hdsisr = 0, heir = 0, asdr = 0;
    uint64_t srr0 = 0, srr1 = 0;
    uint64_t sprg[4] = {0, 0, 0, 0};
    uint64_t pidr = 0, cfar = 0, ppr = 0;
    uint64_t dawr1 = 0, dawrx1 = 0;  // version 2
    bool operator==(const hv_guest_state& o) const;
    bool operator!=(const hv_guest_state& o) const { return !(*this == o); }
};

constexpr uint64_t HV_GUEST_STATE_VERSION = 2;
constexpr size_t HV_GUEST_STATE_MAX_SIZE = 248;

// Bytes of the structure for `version` (1 -> 232, 2 -> 248), 0 for an unknown version.
size_t hv_guest_state_size(uint64_t version);

// Big-endian (de)serialisation of the first hv_guest_state_size(s.version) bytes.
// encode: `out` must hold HV_GUEST_STATE_MAX_SIZE bytes; returns the bytes written (0 if the
// version is unknown). decode: reads the version first; returns false for an unknown version or
// a short buffer. Fields past the version's end are zeroed.
size_t hv_guest_state_encode(const hv_guest_state& s, uint8_t* out);
bool hv_guest_state_decode(const uint8_t* in, size_t len, hv_guest_state& s);

// L0 side of H_ENTER_NESTED (Linux kvmhv_read_guest_state_and_regs / kvmhv_enter_nested_guest):
//   address error reading the version or the structure -> H_PARAMETER
//   version unknown (0, or > HV_GUEST_STATE_VERSION)   -> H_PARAMETER (size lookup fails)
// Returns H_SUCCESS with `s` filled.
int64_t hv_guest_state_read(memory_port& mem, uint64_t addr, hv_guest_state& s);
// Writes back hv_guest_state_size(s.version) bytes; address error -> H_PARAMETER, unknown
// version -> H_PARAMETER.
int64_t hv_guest_state_write(memory_port& mem, uint64_t addr, const hv_guest_state& s);

}  // namespace nestvp
