// kvm_run_loop: the nestedv2 guest and vCPU set-up (kvmhv_nestedv2 guest creation,
// kvmhv_nestedv2_host_create): capabilities, H_GUEST_CREATE, guest-wide state, the vCPU and its
// run buffers (nested-virtualization.md §2.5, §5.3).
#include <cstdio>
#include <stdexcept>
#include <string>

#include "sw/l1/kvm_run_loop.h"
#include "sw/l1/plpar_hcall.h"
#include "sw/papr/gsb_codec.h"
#include "sw/papr/gsb_ids.h"
#include "sw/papr/papr.h"

namespace nestvp {

namespace {
constexpr uint64_t partition_table_addr = 0x10000;  // L1 real addresses (see platform builder)
constexpr uint64_t process_table_addr = 0x20000;

std::vector<uint8_t> be64s(std::initializer_list<uint64_t> values) {
    std::vector<uint8_t> out(values.size() * 8);
    size_t i = 0;
    for (uint64_t v : values) store_be64(out.data() + 8 * i++, v);
    return out;
}
}  // namespace

void kvm_run_loop::create_guest() {
    // kvmhv_nestedv2 guest set-up: capabilities, H_GUEST_CREATE, guest-wide state.
    uint64_t caps = 0;
    if (hcall(papr::H_GUEST_GET_CAPABILITIES, 0, 0, 0, 0, 0, &caps) != papr::H_SUCCESS)
        throw std::runtime_error("L1: H_GUEST_GET_CAPABILITIES failed");
    const uint64_t want =
        (caps & papr::H_GUEST_CAP_POWER10) ? papr::H_GUEST_CAP_POWER10 : papr::H_GUEST_CAP_POWER9;
    if (hcall(papr::H_GUEST_SET_CAPABILITIES, 0, want) != papr::H_SUCCESS)
        throw std::runtime_error("L1: H_GUEST_SET_CAPABILITIES failed");
    uint64_t id = 0;
    const uint64_t rc =
        hcall(papr::H_GUEST_CREATE, 0, papr::H_GUEST_CREATE_CONTINUE_NONE, 0, 0, 0, &id);
    if (rc != papr::H_SUCCESS) throw std::runtime_error("L1: H_GUEST_CREATE failed");
    m_guest.id = id;
    // Guest-wide state before any vCPU runs: partition and process tables, the L2 TB offset
    // (§5.3). The vCPU-0 buffers serve as the scratch for the request.
    m_cache.attach(id, 0, m_buf.input, m_buf.input_size, m_buf.output, m_buf.output_size);
    const int64_t set = m_cache.set_guest_wide(
        {{gsid::PARTITION_TABLE, be64s({partition_table_addr, 52, 1ull << 16})},
         {gsid::PROCESS_TABLE, be64s({process_table_addr, 1ull << 12})},
         {gsid::TB_OFFSET, be64s({m_guest.tb_offset})}});
    if (set != papr::H_SUCCESS)
        throw std::runtime_error("L1: guest-wide H_GUEST_SET_STATE failed: " + std::to_string(set));
}

void kvm_run_loop::create_vcpu() {
    const uint64_t g = m_guest.id, v = m_vcpu.id;
    if (hcall(papr::H_GUEST_CREATE_VCPU, 0, g, v) != papr::H_SUCCESS)
        throw std::runtime_error("L1: H_GUEST_CREATE_VCPU failed");
    m_cache.attach(g, v, m_buf.input, m_buf.input_size, m_buf.output, m_buf.output_size);
    // kvmhv_nestedv2_host_create: learn the minimum output size (a guest-wide GET_STATE),
    // then register the run buffers (0x0C01, 0x0C00).
    const auto write_input = [&](const gsb_builder& gsb) {
        if (m_mem.write(m_buf.input, gsb.bytes().data(), gsb.size())) return;
        char at[64];
        std::snprintf(at, sizeof at, "0x%llx", static_cast<unsigned long long>(m_buf.input));
        throw std::runtime_error("L1: vCPU " + std::to_string(v) + "'s run input buffer at " + at +
                                 " is outside L1 memory");
    };
    gsb_builder q;
    q.add_request(gsid::RUN_OUTPUT_MIN_SIZE);
    write_input(q);
    gsb_recv_probe(m_cpu.cpu(), m_probe);  // kvmppc_gsm_refresh -> kvmppc_gsb_recv
    const auto got = static_cast<int64_t>(
        hcall(papr::H_GUEST_GET_STATE, papr::H_GUEST_FLAGS_WIDE, g, 0, m_buf.input, q.size()));
    if (got != papr::H_SUCCESS)
        throw std::runtime_error("L1: GET_STATE of RUN_OUTPUT_MIN_SIZE failed: " +
                                 std::to_string(got));
    gsb_builder b;
    b.add_buffer_info(gsid::RUN_OUTPUT, m_buf.output, m_buf.output_size);
    b.add_buffer_info(gsid::RUN_INPUT, m_buf.input, m_buf.input_size);
    write_input(b);
    const auto set =
        static_cast<int64_t>(hcall(papr::H_GUEST_SET_STATE, 0, g, v, m_buf.input, b.size()));
    if (set != papr::H_SUCCESS)
        throw std::runtime_error("L1: registering the run buffers failed: " + std::to_string(set));
    // Initially every thread-wide register is dirty (and valid) in L1's copy.
    std::vector<uint16_t> ids;
    for (const gsb_id_info& info : gsb_all_ids())
        if (info.scope == gsb_scope::thread && !info.read_only &&
            (info.size == 4 || info.size == 8) && info.id != gsid::HDEC_EXPIRY_TB &&
            info.id != gsid::LPCR)
            ids.push_back(info.id);
    m_cache.mark_all_dirty(ids);
    m_cache.set(gsid::NIA, m_setup.boot_nia);
    m_cache.set(gsid::MSR, m_setup.boot_msr);
    m_cache.set(gsid::DEC_EXPIRY_TB, m_cpu.mftb() + 0x7FFFFFFF);
}

}  // namespace nestvp
