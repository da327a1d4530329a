#pragma once
// Guest-state-buffer wire format (nested-virtualization.md §5.1): big-endian, packed.
//   header:  BE32 nelems
//   element: BE16 id | BE16 len (value bytes only) | value[len]
// gsb_builder encodes; gsb_decode validates like the receiver (Linux kvmppc_gse_parse plus QEMU
// guest_state_request_check) and maps each failure to a PAPR code and the failing element index.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "models/memory_port.h"
#include "sw/papr/gsb_ids.h"

namespace nestvp {

constexpr size_t GSB_HEADER_SIZE = 4;
constexpr size_t GSB_ELEMENT_HEADER_SIZE = 4;

// Big-endian helpers (byte-wise, so host endianness and alignment never matter).
inline uint16_t load_be16(const uint8_t* p) {
    return static_cast<uint16_t>((p[0] << 8) | p[1]);
}
inline uint32_t load_be32(const uint8_t* p) {
    return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}
inline uint64_t load_be64(const uint8_t* p) {
    return (uint64_t{load_be32(p)} << 32) | load_be32(p + 4);
}
inline void store_be16(uint8_t* p, uint16_t v) {
    p[0] = static_cast<uint8_t>(v >> 8);
    p[1] = static_cast<uint8_t>(v);
}
inline void store_be32(uint8_t* p, uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (24 - 8 * i));
}
inline void store_be64(uint8_t* p, uint64_t v) {
    store_be32(p, static_cast<uint32_t>(v >> 32));
    store_be32(p + 4, static_cast<uint32_t>(v));
}

// An element's header (BE16 id, BE16 value length) at `p`; the value follows it.
inline void gsb_put_element_header(uint8_t* p, uint16_t id, uint16_t len) {
    store_be16(p, id);
    store_be16(p + 2, len);
}

// Appends elements; the element count in the header is kept up to date.
class gsb_builder {
public:
    gsb_builder();
    // Scalars: the ID must be known with size 4 or 8 (throws std::invalid_argument otherwise).
    gsb_builder& add_u64(uint16_t id, uint64_t value);
    gsb_builder& add_u32(uint16_t id, uint32_t value);
    // Any known ID with exactly its size (throws std::invalid_argument otherwise).
    gsb_builder& add(uint16_t id, const void* value, size_t len);
    // A request element for GET_STATE: ID and its size, value zeroed (L0 fills it).
    gsb_builder& add_request(uint16_t id);
    // Buffer info (0x0C00/0x0C01) and other composite helpers (§5.1).
    gsb_builder& add_buffer_info(uint16_t id, uint64_t address, uint64_t size);
    gsb_builder& add_vsr(unsigned n, uint64_t hi, uint64_t lo);
    // Unchecked element (tests of the receiver: unknown IDs, wrong sizes).
    gsb_builder& add_raw(uint16_t id, uint16_t len, const void* value);
    // Overrides the header count (tests: counts larger than the buffer).
    void set_count(uint32_t count);

    uint32_t count() const { return m_count; }
    const std::vector<uint8_t>& bytes() const { return m_bytes; }
    size_t size() const { return m_bytes.size(); }
    void clear();

private:
    gsb_builder& add_scalar(uint16_t id, uint16_t size, uint64_t value);  // size 4 or 8

    std::vector<uint8_t> m_bytes;
    uint32_t m_count;
};

// What the receiver is asked to do; selects the scope and read-only rules.
enum class gsb_op : uint8_t { get, set };
struct gsb_request {
    gsb_op op = gsb_op::set;
    bool guest_wide = false;  // H_GUEST_FLAGS_WIDE
    bool host_wide = false;   // H_GUEST_FLAGS_HOST_WIDE (GET only)
};

// One decoded element: where its value lies in the decoded buffer.
struct gsb_element {
    uint16_t id;
    uint16_t len;
    uint32_t offset;  // of the value, from the start of the buffer
    uint32_t index;   // position in the buffer, 0-based
};

struct gsb_status {
    int64_t rc = 0;       // PAPR return code (H_SUCCESS = 0)
    uint64_t index = 0;   // failing element index (r4) for H_INVALID_ELEMENT_*
    std::string message;  // names the place and the problem
    bool ok() const { return rc == 0; }
};

// Validates and splits a buffer of `size` bytes. Never reads outside [buf, buf+size).
// Rules, in order, per element i (0-based):
//   size < 4 (no room for the header)          -> H_PARAMETER, index 0
//   fewer than 4 header bytes left             -> H_INVALID_ELEMENT_SIZE, index i (truncated)
//   unknown ID                                 -> H_INVALID_ELEMENT_ID, index i
//   value runs past the buffer                 -> H_INVALID_ELEMENT_SIZE, index i
//   len != size of ID (BLANK: any)             -> H_INVALID_ELEMENT_SIZE, index i
//   SET of a read-only ID                      -> H_INVALID_ELEMENT_ID, index i
//   scope does not match the request flags     -> H_INVALID_ELEMENT_ID, index i
// BLANK (0x0000) elements are walked over and not returned (QEMU skips them).
// See docs/guest-state-buffer.md for the choice of codes.
gsb_status gsb_decode(const uint8_t* buf, size_t size, const gsb_request& req,
                      std::vector<gsb_element>& out);

// Bytes the header and its `nelems` elements occupy, found by walking element headers only;
// 0 when the walk needs bytes past `size` (read more, or the buffer is truncated). Lets a
// receiver read just the used part of a large buffer: decoding the first gsb_extent() bytes
// gives the same result as decoding the whole buffer.
size_t gsb_extent(const uint8_t* buf, size_t size);
// Reads the used part of the GSB at [addr, addr+size) of `mem` into the first `used` bytes of
// `buf` (a reused scratch buffer: it may be longer): a small first read, grown until
// gsb_extent() is known or the whole buffer is read. Decoding those bytes then equals decoding
// the whole buffer (§5.1: Linux passes its whole allocation, usually mostly unused).
// False on an address error.
bool read_used_gsb(memory_port& mem, uint64_t addr, uint64_t size, std::vector<uint8_t>& buf,
                   size_t& used);

// Applies the ID's write mask to a scalar value being SET (LPCR, MSR, HDEXCR, TB_OFFSET).
uint64_t gsb_mask_value(uint16_t id, uint64_t value);

}  // namespace nestvp
