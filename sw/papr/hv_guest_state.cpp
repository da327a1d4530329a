// nestedv1 hv_guest_state, big-endian at an L1 address (Linux hvcall.h, version 2 layout).
#include "sw/papr/hv_guest_state.h"

#include <cstring>
#include <type_traits>

#include "sw/papr/gsb_codec.h"
#include "sw/papr/papr.h"

namespace nestvp {

namespace {

// Visits every 64-bit field after the version/lpid/vcpu_token words, in layout order from
// offset 16, so that encode and decode cannot disagree.
template <typename S, typename F>
void for_each_dword(S& s, F&& f) {
    f(s.lpcr, 16);
    f(s.pcr, 24);
    f(s.amor, 32);
    f(s.dpdes, 40);
    f(s.hfscr, 48);
    f(s.tb_offset, 56);
    f(s.dawr0, 64);
    f(s.dawrx0, 72);
    f(s.ciabr, 80);
    f(s.hdec_expiry, 88);
    f(s.purr, 96);
    f(s.spurr, 104);
    f(s.ic, 112);
    f(s.vtb, 120);
    f(s.hdar, 128);
    f(s.hdsisr, 136);
    f(s.heir, 144);
    f(s.asdr, 152);
    f(s.srr0, 160);
    f(s.srr1, 168);
    for (int i = 0; i < 4; ++i) f(s.sprg[i], 176 + 8 * i);
    f(s.pidr, 208);
    f(s.cfar, 216);
    f(s.ppr, 224);
    f(s.dawr1, 232);
    f(s.dawrx1, 240);
}

}  // namespace

bool hv_guest_state::operator==(const hv_guest_state& o) const {
    uint8_t a[HV_GUEST_STATE_MAX_SIZE] = {}, b[HV_GUEST_STATE_MAX_SIZE] = {};
    hv_guest_state x = *this, y = o;
    x.version = y.version = HV_GUEST_STATE_VERSION;  // compare every field
    hv_guest_state_encode(x, a);
    hv_guest_state_encode(y, b);
    return version == o.version && std::memcmp(a, b, sizeof(a)) == 0;
}

size_t hv_guest_state_size(uint64_t version) {
    switch (version) {
        case 1:
            return 232;  // offsetofend(ppr)
        case 2:
            return 248;  // offsetofend(dawrx1)
        default:
            return 0;
    }
}

size_t hv_guest_state_encode(const hv_guest_state& s, uint8_t* out) {
    const size_t n = hv_guest_state_size(s.version);
    if (!n) return 0;
    uint8_t full[HV_GUEST_STATE_MAX_SIZE] = {};
    store_be64(full, s.version);
    store_be32(full + 8, s.lpid);
    store_be32(full + 12, s.vcpu_token);
    for_each_dword(s,
                   [&](auto v, size_t off) { store_be64(full + off, static_cast<uint64_t>(v)); });
    std::memcpy(out, full, n);
    return n;
}

bool hv_guest_state_decode(const uint8_t* in, size_t len, hv_guest_state& s) {
    if (len < 8) return false;
    const uint64_t version = load_be64(in);
    const size_t n = hv_guest_state_size(version);
    if (!n || len < n) return false;
    uint8_t full[HV_GUEST_STATE_MAX_SIZE] = {};
    std::memcpy(full, in, n);  // fields past this version's end read as zero
    s.version = version;
    s.lpid = load_be32(full + 8);
    s.vcpu_token = load_be32(full + 12);
    for_each_dword(s, [&](auto& v, size_t off) {
        v = static_cast<std::remove_reference_t<decltype(v)>>(load_be64(full + off));
    });
    return true;
}

int64_t hv_guest_state_read(memory_port& mem, uint64_t addr, hv_guest_state& s) {
    uint8_t buf[HV_GUEST_STATE_MAX_SIZE];
    // Linux kvmhv_read_guest_state_and_regs: version first, then the size it implies.
    if (!mem.read(addr, buf, 8)) return papr::H_PARAMETER;
    const size_t n = hv_guest_state_size(load_be64(buf));
    if (!n) return papr::H_PARAMETER;
    if (!mem.read(addr, buf, n)) return papr::H_PARAMETER;
    hv_guest_state tmp;
    if (!hv_guest_state_decode(buf, n, tmp)) return papr::H_PARAMETER;
    s = tmp;
    return papr::H_SUCCESS;
}

int64_t hv_guest_state_write(memory_port& mem, uint64_t addr, const hv_guest_state& s) {
    uint8_t buf[HV_GUEST_STATE_MAX_SIZE];
    const size_t n = hv_guest_state_encode(s, buf);
    if (!n) return papr::H_PARAMETER;
    return mem.write(addr, buf, n) ? papr::H_SUCCESS : papr::H_PARAMETER;
}

}  // namespace nestvp
