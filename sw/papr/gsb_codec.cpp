// GSB encoder and validating decoder (nested-virtualization.md §5.1).
#include "sw/papr/gsb_codec.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "sw/papr/papr.h"

namespace nestvp {

// ---- builder ----

gsb_builder::gsb_builder() : m_bytes(GSB_HEADER_SIZE, 0), m_count(0) {
    m_bytes.reserve(256);  // a run-output buffer fits: one allocation, not one per doubling
}

void gsb_builder::clear() {
    m_bytes.assign(GSB_HEADER_SIZE, 0);
    m_count = 0;
}

void gsb_builder::set_count(uint32_t count) {
    store_be32(m_bytes.data(), count);
}

gsb_builder& gsb_builder::add_raw(uint16_t id, uint16_t len, const void* value) {
    // Appended, not resized and then overwritten: the run-input buffer is built per exit.
    uint8_t header[GSB_ELEMENT_HEADER_SIZE];
    gsb_put_element_header(header, id, len);
    m_bytes.insert(m_bytes.end(), header, header + GSB_ELEMENT_HEADER_SIZE);
    if (value) {
        const auto* v = static_cast<const uint8_t*>(value);
        m_bytes.insert(m_bytes.end(), v, v + len);
    } else {
        m_bytes.resize(m_bytes.size() + len);  // a request element: value zeroed
    }
    store_be32(m_bytes.data(), ++m_count);
    return *this;
}

// A scalar of a known ID, its size checked: header and value appended in one insert.
gsb_builder& gsb_builder::add_scalar(uint16_t id, uint16_t size, uint64_t value) {
    uint8_t e[GSB_ELEMENT_HEADER_SIZE + 8];
    gsb_put_element_header(e, id, size);
    if (size == 4)
        store_be32(e + GSB_ELEMENT_HEADER_SIZE, static_cast<uint32_t>(value));
    else
        store_be64(e + GSB_ELEMENT_HEADER_SIZE, value);
    m_bytes.insert(m_bytes.end(), e, e + GSB_ELEMENT_HEADER_SIZE + size);
    store_be32(m_bytes.data(), ++m_count);
    return *this;
}

gsb_builder& gsb_builder::add(uint16_t id, const void* value, size_t len) {
    const gsb_id_info* info = gsb_find_id(id);
    if (!info) throw std::invalid_argument("gsb_builder: unknown element " + gsb_id_string(id));
    if (id != gsid::BLANK && len != info->size)
        throw std::invalid_argument("gsb_builder: " + gsb_id_string(id) + " takes " +
                                    std::to_string(info->size) + " bytes, got " +
                                    std::to_string(len));
    if (len > 0xFFFF) throw std::invalid_argument("gsb_builder: element longer than 65535 bytes");
    return add_raw(id, static_cast<uint16_t>(len), value);
}

// The checks add() makes, with one lookup; the bytes are the same.
gsb_builder& gsb_builder::add_u64(uint16_t id, uint64_t value) {
    const gsb_id_info* info = gsb_find_id(id);
    if (info && info->size == 4) return add_scalar(id, 4, static_cast<uint32_t>(value));
    if (info && info->size == 8) return add_scalar(id, 8, value);
    uint8_t b[8];
    store_be64(b, value);
    return add(id, b, 8);  // throws: unknown ID or another size
}

gsb_builder& gsb_builder::add_u32(uint16_t id, uint32_t value) {
    const gsb_id_info* info = gsb_find_id(id);
    if (info && info->size == 4) return add_scalar(id, 4, value);
    uint8_t b[4];
    store_be32(b, value);
    return add(id, b, 4);  // throws: unknown ID or another size
}

gsb_builder& gsb_builder::add_request(uint16_t id) {
    const gsb_id_info* info = gsb_find_id(id);
    if (!info) throw std::invalid_argument("gsb_builder: unknown element " + gsb_id_string(id));
    return add_raw(id, info->size, nullptr);
}

gsb_builder& gsb_builder::add_buffer_info(uint16_t id, uint64_t address, uint64_t size) {
    uint8_t b[16];
    store_be64(b, address);
    store_be64(b + 8, size);
    return add(id, b, 16);
}

gsb_builder& gsb_builder::add_vsr(unsigned n, uint64_t hi, uint64_t lo) {
    if (n >= 64) throw std::invalid_argument("gsb_builder: VSR index out of range");
    uint8_t b[16];
    store_be64(b, hi);  // §5.1: first doubleword first
    store_be64(b + 8, lo);
    return add(gsid::vsr(n), b, 16);
}

// ---- decoder ----

namespace {

gsb_status fail(int64_t rc, uint64_t index, std::string msg) {
    gsb_status s;
    s.rc = rc;
    s.index = index;
    s.message = std::move(msg);
    return s;
}

bool scope_allowed(gsb_scope scope, const gsb_request& req) {
    switch (scope) {
        case gsb_scope::any:
            return true;
        case gsb_scope::host_wide:
            return req.host_wide;
        case gsb_scope::guest_wide:
            return req.guest_wide && !req.host_wide;
        case gsb_scope::meta:
        case gsb_scope::thread:
            return !req.guest_wide && !req.host_wide;
    }
    return false;
}

const char* request_kind(const gsb_request& req) {
    if (req.host_wide) return "host-wide";
    if (req.guest_wide) return "guest-wide";
    return "thread-wide";
}

}  // namespace

gsb_status gsb_decode(const uint8_t* buf, size_t size, const gsb_request& req,
                      std::vector<gsb_element>& out) {
    out.clear();
    if (!buf || size < GSB_HEADER_SIZE)
        return fail(papr::H_PARAMETER, 0,
                    "GSB of " + std::to_string(size) + " bytes has no room for the 4-byte header");
    const uint32_t nelems = load_be32(buf);
    // Each element takes at least 4 bytes: never reserve more than the buffer can hold.
    out.reserve(std::min<size_t>(nelems, (size - GSB_HEADER_SIZE) / GSB_ELEMENT_HEADER_SIZE));
    // scope_allowed() for this request, one bit per scope: asked once, not per element.
    unsigned allowed = 0;
    for (gsb_scope sc : {gsb_scope::any, gsb_scope::guest_wide, gsb_scope::host_wide,
                         gsb_scope::meta, gsb_scope::thread})
        if (scope_allowed(sc, req)) allowed |= 1u << static_cast<unsigned>(sc);
    const bool set = req.op == gsb_op::set;
    size_t pos = GSB_HEADER_SIZE;
    for (uint32_t i = 0; i < nelems; ++i) {
        // Messages are built only on failure: this loop is on the run/exit hot path.
        const size_t at = pos;
        const auto where = [i, at] {
            return "GSB element " + std::to_string(i) + " at offset " + std::to_string(at);
        };
        if (size - pos < GSB_ELEMENT_HEADER_SIZE)
            return fail(papr::H_INVALID_ELEMENT_SIZE, i,
                        where() + ": header count " + std::to_string(nelems) +
                            " runs past the end of the " + std::to_string(size) + "-byte buffer");
        const uint16_t id = load_be16(buf + pos);
        const uint16_t len = load_be16(buf + pos + 2);
        const gsb_id_info* info = gsb_find_id(id);
        if (!info)
            return fail(papr::H_INVALID_ELEMENT_ID, i, where() + ": unknown " + gsb_id_string(id));
        if (size - pos - GSB_ELEMENT_HEADER_SIZE < len)
            return fail(papr::H_INVALID_ELEMENT_SIZE, i,
                        where() + ": " + gsb_id_string(id) + " value of " + std::to_string(len) +
                            " bytes runs past the end of the buffer");
        const size_t value_at = pos + GSB_ELEMENT_HEADER_SIZE;
        pos = value_at + len;
        if (id == gsid::BLANK) continue;  // §5.1: ID 0 is skipped
        if (len != info->size)
            return fail(papr::H_INVALID_ELEMENT_SIZE, i,
                        where() + ": " + gsb_id_string(id) + " has length " + std::to_string(len) +
                            ", expected " + std::to_string(info->size));
        if (set && info->read_only)
            return fail(papr::H_INVALID_ELEMENT_ID, i,
                        where() + ": " + gsb_id_string(id) + " is read-only");
        if (!((allowed >> static_cast<unsigned>(info->scope)) & 1u))
            return fail(papr::H_INVALID_ELEMENT_ID, i,
                        where() + ": " + to_string(info->scope) + " " + gsb_id_string(id) +
                            " in a " + request_kind(req) + " request");
        out.push_back({id, len, static_cast<uint32_t>(value_at), i});
    }
    return {};
}

size_t gsb_extent(const uint8_t* buf, size_t size) {
    if (!buf || size < GSB_HEADER_SIZE) return 0;
    const uint32_t nelems = load_be32(buf);
    size_t pos = GSB_HEADER_SIZE;
    for (uint32_t i = 0; i < nelems; ++i) {
        if (size - pos < GSB_ELEMENT_HEADER_SIZE) return 0;
        const size_t len = load_be16(buf + pos + 2);
        if (size - pos - GSB_ELEMENT_HEADER_SIZE < len) return 0;
        pos += GSB_ELEMENT_HEADER_SIZE + len;
    }
    return pos;
}

uint64_t gsb_mask_value(uint16_t id, uint64_t value) {
    const gsb_id_info* info = gsb_find_id(id);
    return info ? (value & info->write_mask) : value;
}

bool read_used_gsb(memory_port& mem, uint64_t addr, uint64_t size, std::vector<uint8_t>& buf,
                   size_t& used) {
    size_t have = 0, want = static_cast<size_t>(std::min<uint64_t>(size, 512));
    for (;;) {
        if (buf.size() < want) buf.resize(want);  // grows only: a reused buffer is not re-zeroed
        if (!mem.read(addr + have, buf.data() + have, want - have)) return false;
        have = want;
        const size_t extent = gsb_extent(buf.data(), have);
        if (extent || have == size) {  // truncated: the decoder reports where
            used = extent ? extent : have;
            return true;
        }
        want = static_cast<size_t>(std::min<uint64_t>(size, uint64_t{have} * 4));
    }
}

}  // namespace nestvp
