#pragma once
// A scripted L1 for L0 tests: it owns a guest-memory image and drives the nestedv2 hcalls the
// way Linux's book3s_hv_nestedv2.c does (§2.5): capabilities, create, create vCPU, register run
// buffers, set partition table, run, read the output buffer.
#include <gtest/gtest.h>

#include "sw/l0/l0_guest_table.h"
#include "sw/papr/gsb_codec.h"
#include "sw/papr/papr.h"
#include "sw/papr/vector_memory_port.h"

namespace nestvp {
namespace test {

constexpr uint64_t MEM_SIZE = 1 << 20;
constexpr uint64_t SCRATCH = 0x1000;  // GET/SET buffers
constexpr uint64_t SCRATCH_SIZE = 0x4000;

struct test_l1 {
    vector_memory_port mem{MEM_SIZE};
    l0_guest_table l0;

    // Run-buffer addresses for (guest, vcpu): disjoint 32 KiB slots from 0x10000.
    static uint64_t in_buf(uint64_t g, uint64_t v) { return 0x10000 + (g * 8 + v) * 0x8000; }
    static uint64_t out_buf(uint64_t g, uint64_t v) { return in_buf(g, v) + 0x4000; }

    hcall_result set_state(uint64_t flags, uint64_t g, uint64_t v, const gsb_builder& b,
                           uint64_t addr = SCRATCH) {
        EXPECT_TRUE(mem.write(addr, b.bytes().data(), b.size()));
        return l0.h_guest_set_state(flags, g, v, addr, b.size(), mem);
    }
    // GET of `ids`; values returned in `out` (8-byte IDs only).
    hcall_result get_state(uint64_t flags, uint64_t g, uint64_t v, std::vector<uint16_t> ids,
                           std::vector<uint64_t>& out) {
        gsb_builder b;
        for (uint16_t id : ids) b.add_request(id);
        EXPECT_TRUE(mem.write(SCRATCH, b.bytes().data(), b.size()));
        hcall_result r = l0.h_guest_get_state(flags, g, v, SCRATCH, SCRATCH_SIZE, mem);
        out.clear();
        if (r.ok()) {
            std::vector<uint8_t> buf(b.size());
            EXPECT_TRUE(mem.read(SCRATCH, buf.data(), buf.size()));
            std::vector<gsb_element> el;
            gsb_request req{gsb_op::get, (flags & papr::H_GUEST_FLAGS_WIDE) != 0,
                            (flags & papr::H_GUEST_FLAGS_HOST_WIDE) != 0};
            EXPECT_TRUE(gsb_decode(buf.data(), buf.size(), req, el).ok());
            for (const auto& e : el)
                out.push_back(e.len == 8   ? load_be64(buf.data() + e.offset)
                              : e.len == 4 ? load_be32(buf.data() + e.offset)
                                           : 0);
        }
        return r;
    }
    uint64_t get1(uint64_t flags, uint64_t g, uint64_t v, uint16_t id) {
        std::vector<uint64_t> out;
        EXPECT_TRUE(get_state(flags, g, v, {id}, out).ok());
        return out.empty() ? ~0ull : out[0];
    }

    void caps() { ASSERT_EQ(l0.h_guest_set_capabilities(0, papr::H_GUEST_CAP_POWER10).r3, 0); }
    uint64_t create_guest() {
        hcall_result r = l0.h_guest_create(0, papr::H_GUEST_CREATE_CONTINUE_NONE);
        EXPECT_EQ(r.r3, 0);
        // §5.1 partition table {address, 52 EA bits, 64 KiB root}; §2.5 guest-wide SET.
        gsb_builder pt;
        uint8_t v[24];
        store_be64(v, 0x200000);
        store_be64(v + 8, 52);
        store_be64(v + 16, 1 << 16);
        pt.add(gsid::PARTITION_TABLE, v, 24);
        EXPECT_EQ(set_state(papr::H_GUEST_FLAGS_WIDE, r.r4, 0, pt).r3, 0);
        return r.r4;
    }
    void create_vcpu(uint64_t g, uint64_t v, bool register_buffers = true) {
        ASSERT_EQ(l0.h_guest_create_vcpu(0, g, v).r3, 0);
        if (!register_buffers) return;
        gsb_builder b;
        b.add_buffer_info(gsid::RUN_OUTPUT, out_buf(g, v), 0x1000);
        b.add_buffer_info(gsid::RUN_INPUT, in_buf(g, v), 0x4000);
        ASSERT_EQ(set_state(0, g, v, b).r3, 0);
    }
    // Writes the run-input buffer (as Linux's flush does) and calls begin_run.
    hcall_result run(uint64_t g, uint64_t v, const gsb_builder& input, uint64_t flags = 0) {
        EXPECT_TRUE(mem.write(in_buf(g, v), input.bytes().data(), input.size()));
        return l0.begin_run(g, v, flags, mem);
    }
    // Decodes the run-output buffer of (g, v).
    std::vector<std::pair<uint16_t, uint64_t>> output(uint64_t g, uint64_t v) {
        std::vector<uint8_t> buf(0x1000);
        EXPECT_TRUE(mem.read(out_buf(g, v), buf.data(), buf.size()));
        std::vector<gsb_element> el;
        EXPECT_TRUE(gsb_decode(buf.data(), buf.size(), {gsb_op::get, false, false}, el).ok());
        std::vector<std::pair<uint16_t, uint64_t>> r;
        for (const auto& e : el)
            r.push_back({e.id, e.len == 8 ? load_be64(buf.data() + e.offset)
                                          : load_be32(buf.data() + e.offset)});
        return r;
    }
};

}  // namespace test
}  // namespace nestvp
