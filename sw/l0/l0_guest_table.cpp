// L0 nestedv2 state and hcall semantics (nested-virtualization.md §2.5, §2.6, §5.4, §6): guests and
// vCPUs, capabilities, create and delete, the run buffers of H_GUEST_RUN_VCPU and dispatch.
// GET/SET_STATE are in l0_guest_table_getset.cpp, typed access in l0_guest_table_access.cpp.
// Codes follow QEMU hw/ppc/spapr_nested.c where it answers, the PAPR element/buffer codes of
// Linux hvcall.h where QEMU only asserts or logs; docs/l0-guest-table.md lists each choice.
#include "sw/l0/l0_guest_table.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "sw/l0/l0_guest_state.h"

namespace nestvp {

using namespace papr;

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

// ---- H_GUEST_RUN_VCPU ----

hcall_result l0_guest_table::begin_run(uint64_t guest, uint64_t vcpu, uint64_t flags,
                                       memory_port& mem) {
    if (flags) return rc(H_PARAMETER);  // §3.5: QEMU rejects any run flag
    guest_state* g = find_guest(guest);
    if (!g) return rc(H_P2);
    vcpu_state* v = find_vcpu(guest, vcpu);
    if (!v) return rc(H_P3);
    uint64_t in_addr, in_size, out_addr, out_size;  // run_input_buffer(), run_output_buffer()
    if (!buffer_info(v->values, gsid::RUN_INPUT, in_addr, in_size))
        return rc(H_INPUT_BUFFER_NOT_DEFINED);
    if (!buffer_info(v->values, gsid::RUN_OUTPUT, out_addr, out_size))
        return rc(H_OUTPUT_BUFFER_NOT_DEFINED);
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
    if (!buffer_info(v->values, gsid::RUN_OUTPUT, out_addr, out_size))  // run_output_buffer()
        return rc(H_OUTPUT_BUFFER_NOT_DEFINED, exit_vector);
    std::vector<uint16_t>& ids = m_out_ids;
    run_output_ids(exit_vector, policy, ids);
    // Written in place rather than through a gsb_builder (a second ID check and two inserts per
    // element: 5.7 % more instructions on the reference run): the buffer is built per exit.
    std::vector<uint8_t>& out = m_out;
    // Room for a whole value array past the last element: each value is copied at its fixed
    // size (one inlined move, not a library call per element), and `at` counts only `len`.
    const size_t room = largest_run_output() + sizeof(gsb_value::bytes);
    if (out.size() < room) out.resize(room);
    size_t at = GSB_HEADER_SIZE;
    store_be32(out.data(), static_cast<uint32_t>(ids.size()));
    gsb_value scratch;
    for (uint16_t id : ids) {
        // A known ID: its size, 0 if unset. A stored thread-wide value is what value_ref() returns
        // (none of its computed IDs is thread-wide), taken here without the call.
        const gsb_id_info* info = gsb_find_id(id);
        const gsb_value* stored = info && info->thread_wide() ? v->values.find(id) : nullptr;
        const gsb_value& val = stored ? *stored : value_ref(*g, v, id, scratch);
        gsb_put_element_header(&out[at], id, val.len);
        std::memcpy(&out[at + GSB_ELEMENT_HEADER_SIZE], val.bytes.data(), sizeof val.bytes);
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

}  // namespace nestvp
