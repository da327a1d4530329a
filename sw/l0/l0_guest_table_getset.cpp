// l0_guest_table: element values and H_GUEST_GET_STATE / H_GUEST_SET_STATE
// (nested-virtualization.md §5.4): what an element reads as, the checks before a SET changes
// anything, and the SET itself.
#include <algorithm>
#include <cstring>

#include "sw/l0/l0_guest_state.h"
#include "sw/l0/l0_guest_table.h"

namespace nestvp {

using namespace papr;

// ---- element values ----

gsb_value l0_guest_table::read_value(const guest_state& g, const vcpu_state* v, uint16_t id) const {
    gsb_value scratch;
    return value_ref(g, v, id, scratch);
}

const gsb_value& l0_guest_table::value_ref(const guest_state& g, const vcpu_state* v, uint16_t id,
                                           gsb_value& scratch) const {
    const gsb_id_info* info = gsb_find_id(id);
    switch (id) {
        case gsid::HOST_STATE_SIZE:
            return scratch = scalar_value(8, m_cfg.host_state_size);
        case gsid::RUN_OUTPUT_MIN_SIZE:
            return scratch = scalar_value(
                       8, std::max<uint64_t>(VCPU_RUN_BUF_MIN_SIZE, largest_run_output()));
        case gsid::L0_GUEST_HEAP: {
            uint64_t n = 0;
            for (const auto& gg : m_guests) n += gg.second->vcpus.size();
            return scratch = scalar_value(8, n * m_cfg.host_state_size);
        }
        case gsid::L0_GUEST_HEAP_MAX:
            return scratch =
                       scalar_value(8, m_cfg.max_guests * m_cfg.max_vcpus * m_cfg.host_state_size);
        default:
            break;
    }
    const gsb_value_store* values = nullptr;
    if (info && info->scope == gsb_scope::guest_wide) values = &g.values;
    if (info && info->thread_wide() && v) values = &v->values;
    if (values)
        if (const gsb_value* stored = values->find(id)) return *stored;
    scratch = gsb_value{};
    scratch.len = info ? info->size : 0;
    return scratch;
}

hcall_result l0_guest_table::check_set(const guest_state& g, const vcpu_state* v,
                                       const std::vector<uint8_t>& buf,
                                       const std::vector<gsb_element>& elems) const {
    // Buffer registrations in this request, checked against each other and the stored ones.
    uint64_t in_addr = 0, in_size = 0, out_addr = 0, out_size = 0;
    bool have_in = v && buffer_info(v->values, gsid::RUN_INPUT, in_addr, in_size);
    bool have_out = v && buffer_info(v->values, gsid::RUN_OUTPUT, out_addr, out_size);
    (void)g;
    for (const gsb_element& e : elems) {
        const uint8_t* p = buf.data() + e.offset;
        const auto bad = [&](uint64_t) { return rc(H_INVALID_ELEMENT_VALUE, e.index); };
        switch (e.id) {
            case gsid::RUN_INPUT:
            case gsid::RUN_OUTPUT: {
                const uint64_t addr = load_be64(p), size = load_be64(p + 8);
                // QEMU copy_state_runbuf: address non-zero, 0x80 <= size <= 16384.
                if (addr == 0 || size < VCPU_RUN_BUF_MIN_SIZE || size > VCPU_RUN_BUF_MAX_SIZE ||
                    addr + size < addr)
                    return bad(0);
                if (e.id == gsid::RUN_INPUT) {
                    have_in = true, in_addr = addr, in_size = size;
                } else {
                    have_out = true, out_addr = addr, out_size = size;
                }
                if (have_in && have_out && ranges_overlap(in_addr, in_size, out_addr, out_size))
                    return bad(0);
                break;
            }
            case gsid::PARTITION_TABLE: {
                // §5.1: {address, EA bits (QEMU asserts 52), root directory size 2^(RPDS+3),
                // RPDS >= 5}.
                const uint64_t bits = load_be64(p + 8), rpd = load_be64(p + 16);
                if (bits != 52 || rpd < 256 || (rpd & (rpd - 1))) return bad(0);
                break;
            }
            case gsid::PROCESS_TABLE: {
                const uint64_t size = load_be64(p + 8);  // QEMU: 4 KiB or 16 MiB only
                if (size != (uint64_t{1} << 12) && size != (uint64_t{1} << 24)) return bad(0);
                break;
            }
            default:
                break;
        }
    }
    return rc(H_SUCCESS);
}

void l0_guest_table::apply_set(guest_state& g, vcpu_state* v, const std::vector<uint8_t>& buf,
                               const std::vector<gsb_element>& elems) {
    for (const gsb_element& e : elems) {
        const gsb_id_info* info = gsb_find_id(e.id);
        gsb_value val = make_value(buf.data() + e.offset, e.len);
        if ((e.len == 4 || e.len == 8) && info->write_mask != ~uint64_t{0})
            val = scalar_value(e.len, scalar_of(val) & info->write_mask);  // §5.1 masks
        if (info->scope == gsb_scope::guest_wide)
            g.values[e.id] = val;
        else if (v)
            v->values[e.id] = val;
    }
}

hcall_result l0_guest_table::getset(bool set, uint64_t flags, uint64_t guest, uint64_t vcpu,
                                    uint64_t addr, uint64_t size, memory_port& mem) {
    // Flags (QEMU h_guest_getset_state): SET knows only WIDE; GET knows WIDE or HOST_WIDE.
    if (set && (flags & ~H_GUEST_SET_STATE_FLAGS_MASK)) return rc(H_PARAMETER);
    if (!set && ((flags & ~H_GUEST_GET_STATE_FLAGS_MASK) || flags == H_GUEST_GET_STATE_FLAGS_MASK))
        return rc(H_PARAMETER);
    gsb_request req;
    req.op = set ? gsb_op::set : gsb_op::get;
    req.guest_wide = (flags & H_GUEST_FLAGS_WIDE) != 0;
    req.host_wide = (flags & H_GUEST_FLAGS_HOST_WIDE) != 0;

    guest_state* g = nullptr;
    vcpu_state* v = nullptr;
    static guest_state no_guest;  // host-wide GETs need no guest
    if (!req.host_wide) {
        g = find_guest(guest);
        if (!g) return rc(H_P2);
        if (!req.guest_wide) {
            v = find_vcpu(guest, vcpu);
            if (!v) return rc(H_P3);
        }
    }
    if (size < GSB_HEADER_SIZE || size > GSB_MAX_BUF_SIZE) return rc(H_P5);
    // The whole declared buffer must be guest memory (QEMU maps all of it): probe its last
    // byte, then read only the used part.
    std::vector<uint8_t>& buf = m_buf;
    uint8_t probe;
    size_t used = 0;
    if (addr + size < addr || !mem.read(addr + size - 1, &probe, 1) ||
        !read_used_gsb(mem, addr, size, buf, used))
        return rc(H_P4);

    std::vector<gsb_element>& elems = m_elems;
    const gsb_status st = gsb_decode(buf.data(), used, req, elems);
    if (!st.ok()) return rc(st.rc, st.index);

    hcall_result r;
    if (set) {
        r = check_set(*g, v, buf, elems);
        if (!r.ok()) return r;
        // A run buffer must lie inside guest memory; probe both ends now so a hostile
        // registration is refused before anything changes.
        for (const gsb_element& e : elems) {
            if (e.id != gsid::RUN_INPUT && e.id != gsid::RUN_OUTPUT) continue;
            const uint64_t a = load_be64(buf.data() + e.offset);
            const uint64_t n = load_be64(buf.data() + e.offset + 8);
            uint8_t probe;
            if (!mem.read(a, &probe, 1) || !mem.read(a + n - 1, &probe, 1))
                return rc(H_INVALID_ELEMENT_VALUE, e.index);
        }
        apply_set(*g, v, buf, elems);
        r.elements_in = static_cast<unsigned>(elems.size());
        r.bytes_in = used;
        return r;
    }
    // GET: L0 fills the values in place (§5.1) and writes the buffer back.
    const guest_state& gg = g ? *g : no_guest;
    size_t end = GSB_HEADER_SIZE;
    for (const gsb_element& e : elems) {
        const gsb_value val = read_value(gg, v, e.id);
        std::memcpy(buf.data() + e.offset, val.bytes.data(), std::min<size_t>(e.len, val.len));
        end = std::max<size_t>(end, e.offset + e.len);
    }
    if (!mem.write(addr, buf.data(), end)) return rc(H_P4);
    r.elements_out = static_cast<unsigned>(elems.size());
    r.bytes_in = used;
    r.bytes_out = end;
    return r;
}

hcall_result l0_guest_table::h_guest_get_state(uint64_t flags, uint64_t guest, uint64_t vcpu,
                                               uint64_t addr, uint64_t size, memory_port& mem) {
    return getset(false, flags, guest, vcpu, addr, size, mem);
}

hcall_result l0_guest_table::h_guest_set_state(uint64_t flags, uint64_t guest, uint64_t vcpu,
                                               uint64_t addr, uint64_t size, memory_port& mem) {
    return getset(true, flags, guest, vcpu, addr, size, mem);
}

}  // namespace nestvp
