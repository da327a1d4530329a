// L0 nestedv2 state and hcall semantics (nested-virtualization.md §2.5, §2.6, §5.4, §6).
// Codes follow QEMU hw/ppc/spapr_nested.c where it answers, the PAPR element/buffer codes of
// Linux hvcall.h where QEMU only asserts or logs; docs/l0-guest-table.md lists each choice.
#include "sw/l0/l0_guest_table.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace nestvp {

using namespace papr;

namespace {

// A registered buffer-info element (0x0C00/0x0C01): address and size.
bool buffer_info(const gsb_value_store& values, uint16_t id, uint64_t& addr, uint64_t& size) {
    const gsb_value* v = values.find(id);
    if (!v) return false;
    addr = load_be64(v->bytes.data());
    size = load_be64(v->bytes.data() + 8);
    return true;
}

hcall_result rc(int64_t code, uint64_t r4 = 0, uint64_t r5 = 0) {
    hcall_result r;
    r.r3 = code;
    r.r4 = r4;
    r.r5 = r5;
    return r;
}

bool ranges_overlap(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen) {
    return a < b + blen && b < a + alen;
}

}  // namespace

struct l0_guest_table::vcpu_state {
    gsb_value_store values;  // thread-wide and meta IDs ever written
};

struct l0_guest_table::guest_state {
    gsb_value_store values;  // guest-wide IDs ever written
    std::map<uint64_t, vcpu_state> vcpus;
};

l0_guest_table::l0_guest_table() : l0_guest_table(config{}) {}
l0_guest_table::l0_guest_table(const config& cfg) : m_cfg(cfg) {}
l0_guest_table::~l0_guest_table() = default;

// ---- lookups ----

l0_guest_table::guest_state* l0_guest_table::find_guest(uint64_t guest) {
    auto it = m_guests.find(guest);
    return it == m_guests.end() ? nullptr : it->second.get();
}
const l0_guest_table::guest_state* l0_guest_table::find_guest(uint64_t guest) const {
    auto it = m_guests.find(guest);
    return it == m_guests.end() ? nullptr : it->second.get();
}
l0_guest_table::vcpu_state* l0_guest_table::find_vcpu(uint64_t guest, uint64_t vcpu) {
    guest_state* g = find_guest(guest);
    if (!g) return nullptr;
    auto it = g->vcpus.find(vcpu);
    return it == g->vcpus.end() ? nullptr : &it->second;
}
const l0_guest_table::vcpu_state* l0_guest_table::find_vcpu(uint64_t guest, uint64_t vcpu) const {
    const guest_state* g = find_guest(guest);
    if (!g) return nullptr;
    auto it = g->vcpus.find(vcpu);
    return it == g->vcpus.end() ? nullptr : &it->second;
}

bool l0_guest_table::guest_exists(uint64_t guest) const {
    return find_guest(guest) != nullptr;
}
bool l0_guest_table::vcpu_exists(uint64_t guest, uint64_t vcpu) const {
    return find_vcpu(guest, vcpu) != nullptr;
}
size_t l0_guest_table::guest_count() const {
    return m_guests.size();
}
std::vector<uint64_t> l0_guest_table::guest_ids() const {
    std::vector<uint64_t> ids;
    for (const auto& g : m_guests) ids.push_back(g.first);
    return ids;
}

// ---- capabilities, create, delete ----

hcall_result l0_guest_table::h_guest_get_capabilities(uint64_t flags) {
    if (flags) return rc(H_PARAMETER);  // QEMU: no flags defined
    return rc(H_SUCCESS, m_cfg.capabilities);
}

hcall_result l0_guest_table::h_guest_set_capabilities(uint64_t flags, uint64_t bitmap) {
    if (flags) return rc(H_PARAMETER);
    // H_P2 answers: R4 = number of the bad bitmap (1), R5 = PAPR bit index (QEMU).
    if (bitmap & H_GUEST_CAP_COPY_MEM) return rc(H_P2, 1, 0);  // not supported
    const uint64_t offered = m_cfg.capabilities & H_GUEST_CAP_VALID_MASK;
    if (!bitmap) {
        // R5 = the first supported processor mode, newest first.
        uint64_t first = 0;
        for (unsigned bit : {3u, 2u, 1u})
            if (offered & ppc_bit(bit)) {
                first = bit;
                break;
            }
        return rc(H_P2, 1, first);
    }
    if (const uint64_t bad = bitmap & ~offered) return rc(H_P2, 1, __builtin_clzll(bad));
    if (m_caps_set) return rc(H_STATE);  // allowed once (§6)
    m_caps_set = true;
    m_caps = bitmap;
    return rc(H_SUCCESS);
}

hcall_result l0_guest_table::h_guest_create(uint64_t flags, uint64_t continue_token) {
    if (flags) return rc(H_UNSUPPORTED_FLAG);
    if (continue_token != H_GUEST_CREATE_CONTINUE_NONE) return rc(H_P2);
    if (!m_caps_set) return rc(H_STATE);
    // Lowest free id from 1 (QEMU h_guest_create); id 0 is L1 itself.
    uint64_t id = 1;
    for (const auto& g : m_guests) {
        if (g.first != id) break;
        ++id;
    }
    if (id >= m_cfg.max_guests) return rc(H_NO_MEM);
    auto g = std::make_unique<guest_state>();
    g->values[gsid::LOGICAL_PVR] = scalar_value(4, m_cfg.logical_pvr);
    m_guests.emplace(id, std::move(g));
    return rc(H_SUCCESS, id);
}

hcall_result l0_guest_table::h_guest_create_vcpu(uint64_t flags, uint64_t guest, uint64_t vcpu) {
    if (flags) return rc(H_UNSUPPORTED_FLAG);
    guest_state* g = find_guest(guest);
    if (!g) return rc(H_P2);
    if (vcpu >= m_cfg.max_vcpus) return rc(H_P3);
    if (g->vcpus.count(vcpu)) return rc(H_IN_USE);  // created once
    g->vcpus.emplace(vcpu, vcpu_state{});
    return rc(H_SUCCESS);
}

hcall_result l0_guest_table::h_guest_delete(uint64_t flags, uint64_t guest) {
    if (flags & ~H_GUEST_DELETE_ALL_FLAG) return rc(H_UNSUPPORTED_FLAG);
    if (flags & H_GUEST_DELETE_ALL_FLAG) {  // guest id ignored
        m_guests.clear();
        return rc(H_SUCCESS);
    }
    if (!find_guest(guest)) return rc(H_P2);
    m_guests.erase(guest);
    return rc(H_SUCCESS);
}

// ---- element values ----

gsb_value l0_guest_table::read_value(const guest_state& g, const vcpu_state* v, uint16_t id) const {
    const gsb_id_info* info = gsb_find_id(id);
    switch (id) {
        case gsid::HOST_STATE_SIZE:
            return scalar_value(8, m_cfg.host_state_size);
        case gsid::RUN_OUTPUT_MIN_SIZE:
            return scalar_value(8, std::max<uint64_t>(VCPU_RUN_BUF_MIN_SIZE, largest_run_output()));
        case gsid::L0_GUEST_HEAP: {
            uint64_t n = 0;
            for (const auto& gg : m_guests) n += gg.second->vcpus.size();
            return scalar_value(8, n * m_cfg.host_state_size);
        }
        case gsid::L0_GUEST_HEAP_MAX:
            return scalar_value(8, m_cfg.max_guests * m_cfg.max_vcpus * m_cfg.host_state_size);
        default:
            break;
    }
    const gsb_value_store* values = nullptr;
    if (info && info->scope == gsb_scope::guest_wide) values = &g.values;
    if (info && info->thread_wide() && v) values = &v->values;
    if (values)
        if (const gsb_value* stored = values->find(id)) return *stored;
    gsb_value zero;
    zero.len = info ? info->size : 0;
    return zero;
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

// ---- H_GUEST_RUN_VCPU ----

hcall_result l0_guest_table::begin_run(uint64_t guest, uint64_t vcpu, uint64_t flags,
                                       memory_port& mem) {
    if (flags) return rc(H_PARAMETER);  // §3.5: QEMU rejects any run flag
    guest_state* g = find_guest(guest);
    if (!g) return rc(H_P2);
    vcpu_state* v = find_vcpu(guest, vcpu);
    if (!v) return rc(H_P3);
    uint64_t in_addr, in_size, out_addr, out_size;
    if (!run_input_buffer(guest, vcpu, in_addr, in_size)) return rc(H_INPUT_BUFFER_NOT_DEFINED);
    if (!run_output_buffer(guest, vcpu, out_addr, out_size)) return rc(H_OUTPUT_BUFFER_NOT_DEFINED);
    if (m_cfg.require_partition_table && !g->values.count(gsid::PARTITION_TABLE))
        return rc(H_PARTITION_PAGE_TABLE_NOT_DEFINED);
    // §6: the run-input buffer is applied as a thread-wide SET.
    std::vector<uint8_t>& buf = m_buf;
    size_t used = 0;
    if (!read_used_gsb(mem, in_addr, in_size, buf, used)) return rc(H_INPUT_BUFFER_NOT_DEFINED);
    gsb_request req;
    req.op = gsb_op::set;
    std::vector<gsb_element>& elems = m_elems;
    const gsb_status st = gsb_decode(buf.data(), used, req, elems);
    if (!st.ok()) return rc(st.rc, st.index);
    hcall_result r = check_set(*g, v, buf, elems);
    if (!r.ok()) return r;
    for (const gsb_element& e : elems)  // run buffers cannot be re-registered mid-run
        if (e.id == gsid::RUN_INPUT || e.id == gsid::RUN_OUTPUT)
            return rc(H_INVALID_ELEMENT_ID, e.index);
    apply_set(*g, v, buf, elems);
    r.elements_in = static_cast<unsigned>(elems.size());
    r.bytes_in = used;
    return r;
}

hcall_result l0_guest_table::end_run(uint64_t guest, uint64_t vcpu, uint64_t exit_vector,
                                     run_output_policy policy, memory_port& mem) {
    guest_state* g = find_guest(guest);
    if (!g) return rc(H_P2);
    vcpu_state* v = find_vcpu(guest, vcpu);
    if (!v) return rc(H_P3);
    uint64_t out_addr, out_size;
    if (!run_output_buffer(guest, vcpu, out_addr, out_size))
        return rc(H_OUTPUT_BUFFER_NOT_DEFINED, exit_vector);
    std::vector<uint16_t>& ids = m_out_ids;
    run_output_ids(exit_vector, policy, ids);
    // Written in place rather than through a gsb_builder (a second ID check and two inserts per
    // element: 5.7 % more instructions on the reference run): the buffer is built per exit.
    std::vector<uint8_t>& out = m_out;
    if (out.size() < largest_run_output()) out.resize(largest_run_output());
    size_t at = GSB_HEADER_SIZE;
    store_be32(out.data(), static_cast<uint32_t>(ids.size()));
    for (uint16_t id : ids) {
        const gsb_value val = read_value(*g, v, id);  // a known ID: its size, zero if unset
        gsb_put_element_header(&out[at], id, val.len);
        std::memcpy(&out[at + GSB_ELEMENT_HEADER_SIZE], val.bytes.data(), val.len);
        at += GSB_ELEMENT_HEADER_SIZE + val.len;
    }
    if (at > out_size) return rc(H_OUTPUT_BUFFER_TOO_SMALL, exit_vector);
    if (!mem.write(out_addr, out.data(), at)) return rc(H_P2, exit_vector);
    hcall_result r = rc(H_SUCCESS, exit_vector);  // R4 = exit reason (§2.6)
    r.elements_out = static_cast<unsigned>(ids.size());
    r.bytes_out = at;
    return r;
}

// ---- dispatch ----

bool l0_guest_table::handles(uint64_t opcode) {
    switch (opcode) {
        case H_GUEST_GET_CAPABILITIES:
        case H_GUEST_SET_CAPABILITIES:
        case H_GUEST_CREATE:
        case H_GUEST_CREATE_VCPU:
        case H_GUEST_GET_STATE:
        case H_GUEST_SET_STATE:
        case H_GUEST_DELETE:
            return true;
        default:
            return false;
    }
}

hcall_result l0_guest_table::dispatch(uint64_t opcode, const uint64_t* a, memory_port& mem) {
    switch (opcode) {
        case H_GUEST_GET_CAPABILITIES:
            return h_guest_get_capabilities(a[0]);
        case H_GUEST_SET_CAPABILITIES:
            return h_guest_set_capabilities(a[0], a[1]);
        case H_GUEST_CREATE:
            return h_guest_create(a[0], a[1]);
        case H_GUEST_CREATE_VCPU:
            return h_guest_create_vcpu(a[0], a[1], a[2]);
        case H_GUEST_GET_STATE:
            return h_guest_get_state(a[0], a[1], a[2], a[3], a[4], mem);
        case H_GUEST_SET_STATE:
            return h_guest_set_state(a[0], a[1], a[2], a[3], a[4], mem);
        case H_GUEST_DELETE:
            return h_guest_delete(a[0], a[1]);
        default:
            return rc(H_FUNCTION);  // incl. H_GUEST_COPY_MEMORY (QEMU refuses it)
    }
}

// ---- typed accessors ----

bool l0_guest_table::get_u64(uint64_t guest, uint64_t vcpu, uint16_t id, uint64_t& value) const {
    const gsb_id_info* info = gsb_find_id(id);
    const vcpu_state* v = find_vcpu(guest, vcpu);
    if (!info || !v || !info->thread_wide() || (info->size != 4 && info->size != 8)) return false;
    value = scalar_of(read_value(*find_guest(guest), v, id));
    return true;
}

bool l0_guest_table::set_u64(uint64_t guest, uint64_t vcpu, uint16_t id, uint64_t value) {
    const gsb_id_info* info = gsb_find_id(id);
    vcpu_state* v = find_vcpu(guest, vcpu);
    if (!info || !v || !info->thread_wide() || (info->size != 4 && info->size != 8)) return false;
    v->values[id] = scalar_value(info->size, value);
    return true;
}

uint64_t l0_guest_table::vcpu_u64(uint64_t guest, uint64_t vcpu, uint16_t id) const {
    uint64_t x = 0;
    return get_u64(guest, vcpu, id, x) ? x : 0;
}

bool l0_guest_table::load_switch_regs(uint64_t guest, uint64_t vcpu, l2_switch_regs& out) const {
    const vcpu_state* v = find_vcpu(guest, vcpu);
    if (!v) return false;
    // All thread-wide scalars: stored values only (read_value adds nothing for these IDs).
    const auto get = [v](uint16_t id) {
        const gsb_value* x = v->values.find(id);
        return x ? scalar_of(*x) : 0;
    };
    for (unsigned n = 0; n < out.gpr.size(); ++n) out.gpr[n] = get(gsid::gpr(n));
    out.nia = get(gsid::NIA);
    out.msr = get(gsid::MSR);
    out.lpcr = get(gsid::LPCR);
    out.hdec_expiry_tb = get(gsid::HDEC_EXPIRY_TB);
    out.dec_expiry_tb = get(gsid::DEC_EXPIRY_TB);
    return true;
}

bool l0_guest_table::store_exit_regs(uint64_t guest, uint64_t vcpu, const l2_switch_regs& in) {
    vcpu_state* v = find_vcpu(guest, vcpu);
    if (!v) return false;
    for (unsigned n = 0; n < in.gpr.size(); ++n) v->values.set_scalar(gsid::gpr(n), 8, in.gpr[n]);
    v->values.set_scalar(gsid::NIA, 8, in.nia);
    v->values.set_scalar(gsid::MSR, 8, in.msr);
    v->values.set_scalar(gsid::DEC_EXPIRY_TB, 8, in.dec_expiry_tb);
    return true;
}

bool l0_guest_table::get_tb_offset(uint64_t guest, uint64_t& value) const {
    const guest_state* g = find_guest(guest);
    if (!g) return false;
    value = scalar_of(read_value(*g, nullptr, gsid::TB_OFFSET));
    return true;
}

bool l0_guest_table::set_tb_offset(uint64_t guest, uint64_t value) {
    guest_state* g = find_guest(guest);
    if (!g) return false;
    g->values[gsid::TB_OFFSET] = scalar_value(8, value);
    return true;
}

uint64_t l0_guest_table::tb_offset(uint64_t guest) const {
    uint64_t x = 0;
    return get_tb_offset(guest, x) ? x : 0;
}

bool l0_guest_table::run_input_buffer(uint64_t guest, uint64_t vcpu, uint64_t& addr,
                                      uint64_t& size) const {
    const vcpu_state* v = find_vcpu(guest, vcpu);
    return v && buffer_info(v->values, gsid::RUN_INPUT, addr, size);
}

bool l0_guest_table::run_output_buffer(uint64_t guest, uint64_t vcpu, uint64_t& addr,
                                       uint64_t& size) const {
    const vcpu_state* v = find_vcpu(guest, vcpu);
    return v && buffer_info(v->values, gsid::RUN_OUTPUT, addr, size);
}

std::string l0_guest_table::snapshot() const {
    std::ostringstream os;
    auto dump = [&](const gsb_value_store& values) {
        values.for_each([&](uint16_t id, const gsb_value& val) {
            os << "    " << gsb_id_string(id) << " =";
            char hex[4];
            for (unsigned i = 0; i < val.len; ++i) {
                std::snprintf(hex, sizeof(hex), " %02x", val.bytes[i]);
                os << hex;
            }
            os << "\n";
        });
    };
    os << "caps_set=" << m_caps_set << " caps=" << m_caps << "\n";
    for (const auto& g : m_guests) {
        os << "guest " << g.first << "\n";
        dump(g.second->values);
        for (const auto& v : g.second->vcpus) {
            os << "  vcpu " << v.first << "\n";
            dump(v.second.values);
        }
    }
    return os.str();
}

}  // namespace nestvp
