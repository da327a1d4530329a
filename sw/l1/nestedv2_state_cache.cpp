#include "sw/l1/nestedv2_state_cache.h"

#include <stdexcept>
#include <string>

#include "models/log.h"
#include "sw/l1/plpar_hcall.h"
#include "sw/papr/gsb_codec.h"
#include "sw/papr/gsb_ids.h"
#include "sw/papr/papr.h"

namespace nestvp {

nestedv2_state_cache::nestedv2_state_cache(cpu_if& thread, memory_port& mem, nested_probe& probe,
                                           const l1_gsb_costs& costs)
    : m_thread(thread),
      m_id(thread.id()),
      m_mem(mem),
      m_probe(probe),
      m_costs(costs),
      m_values(0x10000, 0),
      m_valid_gen(0x10000, 0),
      m_dirty_gen(0x10000, 0) {}

void nestedv2_state_cache::attach(uint64_t guest, uint64_t vcpu, uint64_t input_addr,
                                  uint64_t input_size, uint64_t output_addr, uint64_t output_size) {
    m_guest = guest, m_vcpu = vcpu;
    m_in_addr = input_addr, m_in_size = input_size;
    m_out_addr = output_addr, m_out_size = output_size;
}

int64_t nestedv2_state_cache::hcall(uint64_t nr, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7,
                                    uint64_t a8) {
    hcall_frame f;
    f.r[3] = nr, f.r[4] = a4, f.r[5] = a5, f.r[6] = a6, f.r[7] = a7, f.r[8] = a8;
    plpar_hcall(m_thread, m_probe, f);
    return static_cast<int64_t>(f.r[3]);
}

uint64_t nestedv2_state_cache::get(uint16_t id) {
    if (valid(id)) return m_values[id];
    // __kvmhv_nestedv2_cached_reload: one GET_STATE of one element in the input buffer.
    // Member scratch, never a local: the hcall and the charge below may suspend this coroutine,
    // and one still suspended when the simulation ends is never unwound (its heap would leak).
    m_probe.get_state_begin(m_id, m_thread.step_time());
    if (!m_in_window) gsb_recv_probe(m_thread, m_probe);
    NESTVP_LOG(log::module::l1, log::level::trace,
               "vcpu " << m_vcpu << ": GET_STATE " << gsb_id_string(id)
                       << (m_in_window ? " (inside the guest-state window)" : ""));
    gsb_builder& req = m_req;
    req.clear();
    req.add_request(id);
    if (!m_mem.write(m_in_addr, req.bytes().data(), req.size()))
        throw std::runtime_error("L1: run-input buffer is not in L1 memory");
    m_thread.charge(m_costs.gsb_element);
    const int64_t rc = hcall(papr::H_GUEST_GET_STATE, 0, m_guest, m_vcpu, m_in_addr, m_in_size);
    if (rc != papr::H_SUCCESS)
        throw std::runtime_error("L1: H_GUEST_GET_STATE of " + gsb_id_string(id) + " failed with " +
                                 std::to_string(rc));
    std::vector<uint8_t>& buf = m_scratch;
    buf.resize(req.size());
    m_mem.read(m_in_addr, buf.data(), buf.size());
    std::vector<gsb_element>& elems = m_elems;
    const gsb_status st = gsb_decode(buf.data(), buf.size(), gsb_request{gsb_op::get}, elems);
    if (!st.ok() || elems.size() != 1)
        throw std::runtime_error("L1: bad GET_STATE reply: " + st.message);
    const uint64_t v = elems[0].len == 8 ? load_be64(buf.data() + elems[0].offset)
                                         : load_be32(buf.data() + elems[0].offset);
    m_thread.charge(m_costs.gsb_element);
    ++m_reloads;
    m_probe.count(counter::l1_cache_reloads, m_id);
    if (m_in_window) m_probe.count(counter::l1_get_state_unprobed, m_id);
    m_values[id] = v;
    m_valid_gen[id] = m_valid_now;
    m_probe.get_state_end(m_id, m_thread.step_time());
    return v;
}

void nestedv2_state_cache::set(uint16_t id, uint64_t value) {
    m_values[id] = value;
    m_valid_gen[id] = m_valid_now;
    if (m_dirty_gen[id] != m_dirty_now) {
        m_dirty_gen[id] = m_dirty_now;
        m_dirty_ids.push_back(id);
    }
}

void nestedv2_state_cache::mark_all_dirty(const std::vector<uint16_t>& ids) {
    for (uint16_t id : ids) set(id, m_values[id]);
}

void nestedv2_state_cache::flush(uint64_t hdec_expiry_tb, uint64_t lpcr_value) {
    gsb_builder& in = m_req;
    in.clear();
    for (uint16_t id : m_dirty_ids) {
        if (id == gsid::HDEC_EXPIRY_TB || id == gsid::LPCR) continue;
        const gsb_id_info* info = gsb_find_id(id);
        if (!info) continue;
        if (info->size == 8)
            in.add_u64(id, m_values[id]);
        else if (info->size == 4)
            in.add_u32(id, static_cast<uint32_t>(m_values[id]));
    }
    in.add_u64(gsid::HDEC_EXPIRY_TB, hdec_expiry_tb);  // always sent: L1's time limit
    in.add_u64(gsid::LPCR, lpcr_value);                // always sent (carries MER)
    if (in.size() > m_in_size) throw std::runtime_error("L1: run-input buffer too small");
    m_thread.charge(m_costs.gsb_element * static_cast<double>(in.count()));
    m_mem.write(m_in_addr, in.bytes().data(), in.size());
}

void nestedv2_state_cache::after_run() {
    ++m_dirty_now;
    m_dirty_ids.clear();
    ++m_valid_now;
    // kvmhv_nestedv2_parse_output: every ID present is valid again.
    size_t used = 0;
    if (!read_used_gsb(m_mem, m_out_addr, m_out_size, m_scratch, used)) return;
    const std::vector<uint8_t>& buf = m_scratch;
    std::vector<gsb_element>& elems = m_elems;
    const gsb_status st = gsb_decode(buf.data(), used, gsb_request{gsb_op::get}, elems);
    if (!st.ok()) throw std::runtime_error("L1: bad run-output buffer: " + st.message);
    for (const gsb_element& e : elems) {
        if (e.len == 8)
            m_values[e.id] = load_be64(buf.data() + e.offset);
        else if (e.len == 4)
            m_values[e.id] = load_be32(buf.data() + e.offset);
        else
            continue;
        m_valid_gen[e.id] = m_valid_now;
    }
    m_thread.charge(m_costs.gsb_element * static_cast<double>(elems.size()));
}

int64_t nestedv2_state_cache::set_guest_wide(
    const std::vector<std::pair<uint16_t, std::vector<uint8_t>>>& elems) {
    gsb_builder b;
    for (const auto& e : elems) b.add(e.first, e.second.data(), e.second.size());
    m_mem.write(m_in_addr, b.bytes().data(), b.size());
    m_thread.charge(m_costs.gsb_element * static_cast<double>(b.count()));
    return hcall(papr::H_GUEST_SET_STATE, papr::H_GUEST_FLAGS_WIDE, m_guest, 0, m_in_addr,
                 b.size());
}

}  // namespace nestvp
