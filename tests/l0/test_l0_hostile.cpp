// Hostile L1: each bad request gets its PAPR code and leaves L0 and every other guest
// unchanged (whole-state snapshots compared before and after).
#include <gtest/gtest.h>

#include "tests/l0/l0_test_l1.h"

using namespace nestvp;
using namespace nestvp::papr;
using nestvp::test::test_l1;

namespace {

// Two guests with two vCPUs each, buffers registered and some state set.
struct hostile : ::testing::Test {
    test_l1 t;
    uint64_t g1 = 0, g2 = 0;
    void SetUp() override {
        t.caps();
        g1 = t.create_guest();
        g2 = t.create_guest();
        for (uint64_t g : {g1, g2})
            for (uint64_t v : {0, 1}) {
                t.create_vcpu(g, v);
                gsb_builder b;
                b.add_u64(gsid::NIA, 0x1000 * g + v).add_u64(gsid::DEC_EXPIRY_TB, 500 + v);
                ASSERT_EQ(t.set_state(0, g, v, b).r3, 0);
            }
        gsb_builder w;
        w.add_u64(gsid::TB_OFFSET, 0x1000000);
        ASSERT_EQ(t.set_state(H_GUEST_FLAGS_WIDE, g1, 0, w).r3, 0);
        before = t.l0.snapshot();
    }
    void expect_unchanged() { EXPECT_EQ(t.l0.snapshot(), before); }
    std::string before;
};

}  // namespace

TEST_F(hostile, OverlappingRunBuffersInOneRequest) {
    gsb_builder b;
    b.add_u64(gsid::NIA, 1);
    b.add_buffer_info(gsid::RUN_INPUT, 0x80000, 0x1000);
    b.add_buffer_info(gsid::RUN_OUTPUT, 0x80800, 0x1000);
    hcall_result r = t.set_state(0, g1, 0, b);
    EXPECT_EQ(r.r3, H_INVALID_ELEMENT_VALUE);
    EXPECT_EQ(r.r4, 2u);
    expect_unchanged();
}

TEST_F(hostile, InputBufferOverlappingRegisteredOutput) {
    gsb_builder b;
    b.add_buffer_info(gsid::RUN_INPUT, test_l1::out_buf(g1, 0) + 0x40, 0x100);
    hcall_result r = t.set_state(0, g1, 0, b);
    EXPECT_EQ(r.r3, H_INVALID_ELEMENT_VALUE);
    EXPECT_EQ(r.r4, 0u);
    expect_unchanged();
}

TEST_F(hostile, RunBufferPastGuestMemory) {
    gsb_builder b;
    b.add_buffer_info(gsid::RUN_OUTPUT, test::MEM_SIZE - 0x80, 0x100);
    hcall_result r = t.set_state(0, g1, 1, b);
    EXPECT_EQ(r.r3, H_INVALID_ELEMENT_VALUE);
    EXPECT_EQ(r.r4, 0u);
    gsb_builder wrap;  // address + size wraps around 2^64
    wrap.add_buffer_info(gsid::RUN_INPUT, ~0ull - 0x10, 0x100);
    EXPECT_EQ(t.set_state(0, g1, 1, wrap).r3, H_INVALID_ELEMENT_VALUE);
    gsb_builder small;  // below QEMU's 0x80 minimum, above 16 KiB, zero address
    small.add_buffer_info(gsid::RUN_INPUT, 0x90000, 0x40);
    EXPECT_EQ(t.set_state(0, g1, 1, small).r3, H_INVALID_ELEMENT_VALUE);
    gsb_builder big;
    big.add_buffer_info(gsid::RUN_INPUT, 0x90000, 16385);
    EXPECT_EQ(t.set_state(0, g1, 1, big).r3, H_INVALID_ELEMENT_VALUE);
    gsb_builder zero;
    zero.add_buffer_info(gsid::RUN_INPUT, 0, 0x100);
    EXPECT_EQ(t.set_state(0, g1, 1, zero).r3, H_INVALID_ELEMENT_VALUE);
    expect_unchanged();
}

TEST_F(hostile, StateBufferPastGuestMemory) {
    EXPECT_EQ(t.l0.h_guest_set_state(0, g1, 0, test::MEM_SIZE - 8, 64, t.mem).r3, H_P4);
    EXPECT_EQ(t.l0.h_guest_get_state(0, g1, 0, test::MEM_SIZE + 4096, 64, t.mem).r3, H_P4);
    EXPECT_EQ(t.l0.h_guest_get_state(0, g1, 0, ~0ull - 4, 64, t.mem).r3, H_P4);
    expect_unchanged();
}

TEST_F(hostile, UnregisteredBuffersOnRun) {
    ASSERT_EQ(t.l0.h_guest_create_vcpu(0, g2, 5).r3, 0);
    before = t.l0.snapshot();
    EXPECT_EQ(t.l0.begin_run(g2, 5, 0, t.mem).r3, H_INPUT_BUFFER_NOT_DEFINED);
    EXPECT_EQ(t.l0.end_run(g2, 5, EXIT_HDEC, run_output_policy::qemu, t.mem).r3,
              H_OUTPUT_BUFFER_NOT_DEFINED);
    expect_unchanged();
}

TEST_F(hostile, ElementCountLargerThanBuffer) {
    gsb_builder b;
    b.add_u64(gsid::NIA, 0xBAD).add_u64(gsid::MSR, 0xBAD);
    // Larger than the 16 KiB run-input buffer can hold even as 4-byte BLANK elements (the
    // zero-filled rest of a buffer decodes as BLANKs, which the format allows).
    b.set_count(100000);
    ASSERT_TRUE(t.mem.write(test::SCRATCH, b.bytes().data(), b.size()));
    hcall_result r = t.l0.h_guest_set_state(0, g1, 0, test::SCRATCH, b.size(), t.mem);
    EXPECT_EQ(r.r3, H_INVALID_ELEMENT_SIZE);
    EXPECT_EQ(r.r4, 2u);
    // The same in the run-input buffer: nothing applied, the vCPU does not run.
    r = t.run(g1, 0, b);
    EXPECT_EQ(r.r3, H_INVALID_ELEMENT_SIZE);
    EXPECT_EQ(r.r4, 2u + (0x4000 - 4 - 24) / 4);  // the first element past the capacity
    expect_unchanged();
}

TEST_F(hostile, WritesToReadOnlyIds) {
    gsb_builder b;
    b.add_u64(gsid::NIA, 0xBAD).add_u64(gsid::HDAR, 1);
    hcall_result r = t.set_state(0, g1, 0, b);
    EXPECT_EQ(r.r3, H_INVALID_ELEMENT_ID);
    EXPECT_EQ(r.r4, 1u);
    r = t.run(g1, 0, b);
    EXPECT_EQ(r.r3, H_INVALID_ELEMENT_ID);
    EXPECT_EQ(r.r4, 1u);
    gsb_builder w;
    w.add_u64(gsid::TB_OFFSET, 0).add_u64(gsid::HOST_STATE_SIZE, 1);
    r = t.set_state(H_GUEST_FLAGS_WIDE, g1, 0, w);
    EXPECT_EQ(r.r3, H_INVALID_ELEMENT_ID);
    EXPECT_EQ(r.r4, 1u);
    expect_unchanged();
}

TEST_F(hostile, GuestWideIdInThreadWideRequest) {
    gsb_builder b;
    b.add_u64(gsid::NIA, 0xBAD).add_u64(gsid::TB_OFFSET, 0xBAD);
    hcall_result r = t.set_state(0, g1, 0, b);
    EXPECT_EQ(r.r3, H_INVALID_ELEMENT_ID);
    EXPECT_EQ(r.r4, 1u);
    r = t.run(g1, 0, b);  // §5.4: run input holds only thread-wide elements
    EXPECT_EQ(r.r3, H_INVALID_ELEMENT_ID);
    EXPECT_EQ(r.r4, 1u);
    std::vector<uint64_t> out;
    r = t.get_state(0, g1, 0, {gsid::NIA, gsid::PARTITION_TABLE}, out);
    EXPECT_EQ(r.r3, H_INVALID_ELEMENT_ID);
    EXPECT_EQ(r.r4, 1u);
    expect_unchanged();
}

TEST_F(hostile, UnknownIdsAndWrongSizes) {
    gsb_builder b;
    const uint64_t z[2] = {0, 0};
    b.add_u64(gsid::NIA, 0xBAD).add_raw(0x2F00, 8, z);
    hcall_result r = t.set_state(0, g1, 0, b);
    EXPECT_EQ(r.r3, H_INVALID_ELEMENT_ID);
    EXPECT_EQ(r.r4, 1u);
    gsb_builder s;
    s.add_u64(gsid::NIA, 0xBAD).add_u64(gsid::MSR, 1).add_raw(gsid::DEC_EXPIRY_TB, 16, z);
    r = t.run(g1, 0, s);
    EXPECT_EQ(r.r3, H_INVALID_ELEMENT_SIZE);
    EXPECT_EQ(r.r4, 2u);
    expect_unchanged();
}

TEST_F(hostile, BadCompositeValues) {
    gsb_builder b;
    uint8_t pt[16];
    store_be64(pt, 0x300000);
    store_be64(pt + 8, 12345);  // process table size must be 4 KiB or 16 MiB
    b.add_u64(gsid::TB_OFFSET, 1).add(gsid::PROCESS_TABLE, pt, 16);
    hcall_result r = t.set_state(H_GUEST_FLAGS_WIDE, g1, 0, b);
    EXPECT_EQ(r.r3, H_INVALID_ELEMENT_VALUE);
    EXPECT_EQ(r.r4, 1u);
    gsb_builder p;
    uint8_t part[24];
    store_be64(part, 0x300000);
    store_be64(part + 8, 48);  // EA bits must be 52
    store_be64(part + 16, 1 << 16);
    p.add(gsid::PARTITION_TABLE, part, 24);
    EXPECT_EQ(t.set_state(H_GUEST_FLAGS_WIDE, g2, 0, p).r3, H_INVALID_ELEMENT_VALUE);
    gsb_builder rr;  // run buffers cannot be moved from inside the run-input buffer
    rr.add_buffer_info(gsid::RUN_OUTPUT, 0xA0000, 0x1000);
    r = t.run(g1, 0, rr);
    EXPECT_EQ(r.r3, H_INVALID_ELEMENT_ID);
    EXPECT_EQ(r.r4, 0u);
    expect_unchanged();
}

TEST_F(hostile, UnknownGuestOrVcpu) {
    gsb_builder b;
    b.add_u64(gsid::NIA, 0xBAD);
    EXPECT_EQ(t.set_state(0, 99, 0, b).r3, H_P2);
    EXPECT_EQ(t.set_state(0, g1, 9, b).r3, H_P3);
    EXPECT_EQ(t.set_state(0, 0, 0, b).r3, H_P2);  // id 0 is never a guest
    std::vector<uint64_t> out;
    EXPECT_EQ(t.get_state(0, 99, 0, {gsid::NIA}, out).r3, H_P2);
    EXPECT_EQ(t.get_state(0, g2, 2, {gsid::NIA}, out).r3, H_P3);
    EXPECT_EQ(t.l0.begin_run(99, 0, 0, t.mem).r3, H_P2);
    EXPECT_EQ(t.l0.begin_run(g1, 2048, 0, t.mem).r3, H_P3);
    EXPECT_EQ(t.l0.end_run(99, 0, EXIT_HCALL, run_output_policy::qemu, t.mem).r3, H_P2);
    EXPECT_EQ(t.l0.h_guest_delete(0, 99).r3, H_P2);
    EXPECT_FALSE(t.l0.set_u64(99, 0, gsid::NIA, 1));
    EXPECT_FALSE(t.l0.set_u64(g1, 0, gsid::TB_OFFSET, 1));  // guest-wide, not per vCPU
    EXPECT_FALSE(t.l0.set_tb_offset(99, 1));
    expect_unchanged();
}

TEST_F(hostile, RunOfDeletedGuest) {
    ASSERT_EQ(t.l0.h_guest_delete(0, g1).r3, 0);
    before = t.l0.snapshot();
    EXPECT_EQ(t.run(g1, 0, gsb_builder()).r3, H_P2);
    EXPECT_EQ(t.l0.end_run(g1, 0, EXIT_HDEC, run_output_policy::qemu, t.mem).r3, H_P2);
    expect_unchanged();
    // The other guest still runs.
    EXPECT_EQ(t.run(g2, 1, gsb_builder()).r3, H_SUCCESS);
    EXPECT_EQ(t.l0.vcpu_u64(g2, 1, gsid::NIA), 0x1000 * g2 + 1);
}

TEST_F(hostile, OtherGuestsUntouchedBySuccessfulWork) {
    // A valid run of g1 changes g1 only.
    const std::string g2_nia_before = std::to_string(t.l0.vcpu_u64(g2, 0, gsid::NIA));
    gsb_builder in;
    in.add_u64(gsid::NIA, 0x4444).add_u64(gsid::HDEC_EXPIRY_TB, 99);
    ASSERT_EQ(t.run(g1, 0, in).r3, 0);
    EXPECT_EQ(std::to_string(t.l0.vcpu_u64(g2, 0, gsid::NIA)), g2_nia_before);
    EXPECT_EQ(t.l0.vcpu_u64(g2, 0, gsid::HDEC_EXPIRY_TB), 0u);
    EXPECT_EQ(t.l0.vcpu_u64(g1, 1, gsid::HDEC_EXPIRY_TB), 0u);
    EXPECT_EQ(t.l0.tb_offset(g2), 0u);
    // GETs never change state.
    const std::string mid = t.l0.snapshot();
    std::vector<uint64_t> out;
    ASSERT_TRUE(t.get_state(0, g2, 1, {gsid::NIA, gsid::HDAR, gsid::vsr(3)}, out).ok());
    EXPECT_EQ(t.l0.snapshot(), mid);
}

TEST_F(hostile, RandomlyCorruptedBuffersNeverPartiallyApply) {
    // Deterministic mutation of valid SET/run buffers: every rejected request must leave the
    // whole L0 state unchanged; every accepted one must decode cleanly.
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    auto next = [&] {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        return seed;
    };
    const uint16_t ids[] = {gsid::NIA,       gsid::MSR,    gsid::LPCR,       gsid::CR, gsid::HDAR,
                            gsid::TB_OFFSET, gsid::vsr(1), gsid::RUN_OUTPUT, 0x1054};
    unsigned rejected = 0, accepted = 0;
    for (int iter = 0; iter < 3000; ++iter) {
        gsb_builder b;
        const unsigned n = 1 + next() % 6;
        for (unsigned k = 0; k < n; ++k) {
            const uint16_t id = ids[next() % (sizeof(ids) / sizeof(ids[0]))];
            const gsb_id_info* info = gsb_find_id(id);
            uint8_t v[24] = {};
            for (auto& x : v) x = static_cast<uint8_t>(next());
            b.add_raw(id, info ? info->size : 8, v);
        }
        std::vector<uint8_t> buf = b.bytes();
        if (next() % 2) buf[next() % buf.size()] ^= static_cast<uint8_t>(1u << (next() % 8));
        if (next() % 4 == 0) buf.resize(next() % buf.size() + 1);
        const uint64_t g = next() % 2 ? g1 : g2, v = next() % 3;
        const uint64_t flags = next() % 3 == 0 ? H_GUEST_FLAGS_WIDE : 0;
        const std::string s0 = t.l0.snapshot();
        ASSERT_TRUE(t.mem.write(test::SCRATCH, buf.data(), buf.size()));
        hcall_result r;
        if (next() % 2) {
            r = t.l0.h_guest_set_state(flags, g, v, test::SCRATCH, buf.size(), t.mem);
        } else {
            ASSERT_TRUE(t.mem.write(test_l1::in_buf(g, v % 2), buf.data(), buf.size()));
            r = t.l0.begin_run(g, v, 0, t.mem);
        }
        if (r.ok()) {
            ++accepted;
        } else {
            ++rejected;
            ASSERT_EQ(t.l0.snapshot(), s0) << "iteration " << iter << " rc " << r.r3;
        }
    }
    EXPECT_GT(rejected, 100u);
    EXPECT_GT(accepted, 100u);
}
