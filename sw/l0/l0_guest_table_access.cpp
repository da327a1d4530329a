// l0_guest_table: typed access to the state it keeps, for the firmware's run path (the registers
// of a partition switch, the TB offset, the run buffers) and for tests (snapshot).
#include <sstream>

#include "sw/l0/l0_guest_state.h"
#include "sw/l0/l0_guest_table.h"

namespace nestvp {

using namespace papr;

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
